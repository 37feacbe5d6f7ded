import type { ComponentType } from 'react';
import { i18n } from '../../i18n/i18n.ts';

/**
 * The duplicates screen (`/<list>/duplicates`), fetched when its route is
 * first visited, with its texts (the `duplicates` namespace, which no other
 * screen needs) and the history texts the merged record's page shows next.
 */
export async function duplicatesPage(): Promise<ComponentType> {
  const [module] = await Promise.all([import('./duplicates-page.tsx'), i18n.loadNamespaces(['duplicates'])]);
  return module.DuplicatesPage;
}
