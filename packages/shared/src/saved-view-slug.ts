/**
 * A saved view's slug, the last segment of its address (`/companies/views/<slug>`):
 * apart from saved-views.ts so that a list screen checks an address without
 * loading zod (the first screens' budget, docs/decisions/0017).
 */
export const MAX_VIEW_SLUG = 80;

/** Lowercase letters and digits, in words joined by single dashes. */
export const VIEW_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Whether `slug` can be a saved view's slug. */
export function isViewSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= MAX_VIEW_SLUG && VIEW_SLUG_PATTERN.test(slug);
}

/** A path segment for a view's name: `Seed deals in France` → `seed-deals-in-france`. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug || 'view';
}
