import { users } from '@data-platform/shared/entities/users';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { tablesWithRows } from './tables.ts';

export interface SeedLog {
  info(message: string): void;
}

/**
 * On the first start of an empty database (no business records, and no users
 * but the first administrator made a moment before), loads a small demo
 * dataset so that every screen has something to show. Returns whether it did.
 */
export async function seedDemoIfEmpty(database: Database, log: SeedLog): Promise<boolean> {
  const [accounts] = await database.rows<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(users.table)}`,
  );
  if ((accounts?.n ?? 0) > 1 || (await tablesWithRows(database)).length > 0) return false;
  const started = performance.now();
  const [{ seedDatabase }, { demoCounts }] = await Promise.all([import('./load.ts'), import('./generator.ts')]);
  const timings = await seedDatabase(database, demoCounts);
  const summary = timings
    .filter((t) => t.rows > 0)
    .map((t) => `${t.rows} ${t.table}`)
    .join(', ');
  log.info(`Empty database: loaded demo data in ${Math.round(performance.now() - started)} ms (${summary})`);
  return true;
}
