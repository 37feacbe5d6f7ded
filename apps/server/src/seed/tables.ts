import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entityList, seededEntities } from '@data-platform/shared/entities/registry';
import { users } from '@data-platform/shared/entities/users';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** Generated users have addresses here (and no password), so a reset can tell them from real accounts. */
export const SEED_USER_DOMAIN = 'demo.example.com';

/** The entities the generator fills (flag `seed`), in the order their rows must be generated and loaded. */
export { seededEntities };

/**
 * The tables of business data: what the seed fills (but users, which also
 * hold real accounts) and whatever is attached to those records (files).
 * `--reset` empties these, never accounts, roles or reference data.
 */
export const dataEntities: readonly EntityDescription[] = entityList.filter(
  (e) => (e.seed && e !== users) || e.attachedTo,
);

/** The data tables that have rows. */
export async function tablesWithRows(database: Database): Promise<string[]> {
  const checks = dataEntities.map(
    (e) => sql`select ${e.table}::text as name where exists (select 1 from ${sql.identifier(e.table)})`,
  );
  const rows = await database.rows<{ name: string }>(sql.join(checks, sql` union all `));
  return rows.map((r) => r.name);
}

/** Deletes the users an earlier seed made: they have no password and an address in the seed's domain. */
export function deleteSeedUsersSql() {
  return sql`delete from ${sql.identifier(users.table)} where email like ${`%@${SEED_USER_DOMAIN}`}`;
}

/** Empties the data tables, restarting their ids, and removes the users a seed made. Accounts stay. */
export async function truncateData(database: Database): Promise<void> {
  const tables = sql.join(
    dataEntities.map((e) => sql.identifier(e.table)),
    sql`, `,
  );
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`truncate table ${tables} restart identity`);
    await tx.execute(deleteSeedUsersSql());
  });
}
