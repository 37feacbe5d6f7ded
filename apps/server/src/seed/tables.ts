import { companies } from '@data-platform/shared/entities/companies';
import { contacts } from '@data-platform/shared/entities/contacts';
import { deals } from '@data-platform/shared/entities/deals';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { files } from '@data-platform/shared/entities/files';
import { firms } from '@data-platform/shared/entities/firms';
import { fundPerformances } from '@data-platform/shared/entities/fund-performances';
import { funds } from '@data-platform/shared/entities/funds';
import { investors } from '@data-platform/shared/entities/investors';
import {
  contactCompanies,
  contactDeals,
  contactFunds,
  contactInvestors,
  dealCompanies,
  dealInvestors,
} from '@data-platform/shared/entities/links';
import { notes } from '@data-platform/shared/entities/notes';
import { users } from '@data-platform/shared/entities/users';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** Generated users have addresses here (and no password), so a reset can tell them from real accounts. */
export const SEED_USER_DOMAIN = 'demo.example.com';

/** The entities the generator fills, in the order their rows must be generated and loaded. */
export const seededEntities: readonly EntityDescription[] = [
  users,
  firms,
  funds,
  fundPerformances,
  companies,
  contacts,
  deals,
  investors,
  contactCompanies,
  contactFunds,
  contactDeals,
  contactInvestors,
  dealCompanies,
  dealInvestors,
  notes,
];

/**
 * The tables of business data: what the seed fills (but users, which also
 * hold real accounts) and files attached to those records. `--reset` empties
 * these, never accounts, roles or reference data.
 */
export const dataEntities: readonly EntityDescription[] = [...seededEntities.filter((e) => e !== users), files];

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
