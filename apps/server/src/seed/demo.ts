import { companies } from '@data-platform/shared/entities/companies';
import { customFieldGroups, entityFieldTypes } from '@data-platform/shared/entities/custom-fields';
import { deals } from '@data-platform/shared/entities/deals';
import { users } from '@data-platform/shared/entities/users';
import { sql } from 'drizzle-orm';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
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
  await addDemoCustomFields(database);
  const summary = timings
    .filter((t) => t.rows > 0)
    .map((t) => `${t.rows} ${t.table}`)
    .join(', ');
  log.info(`Empty database: loaded demo data in ${Math.round(performance.now() - started)} ms (${summary})`);
  return true;
}

const sources = ['Referral', 'Conference', 'Inbound', 'Outbound'];
const nextSteps = ['Partner meeting', 'Reference calls', 'Term sheet', 'IC memo'];

/**
 * Custom data to show how a team adds its own fields: a "Sourcing" group on
 * companies with a picklist and a date, and a text on deals, filled on most
 * records (every fifth left empty).
 */
async function addDemoCustomFields(database: Database): Promise<void> {
  const [group] = await database.rows<{ id: number }>(
    sql`insert into ${sql.identifier(customFieldGroups.table)} (entity, name, position)
      values (${companies.name}, 'Sourcing', 1) returning id::int as id`,
  );
  const define = async (entity: string, name: string, type: string, options: string[], position: number) => {
    const [field] = await database.rows<{ key: string }>(
      sql`insert into ${sql.identifier(entityFieldTypes.table)} (entity, name, type, options, group_id, position)
        values (${entity}, ${name}, ${type}, ${pgArrayLiteral(options)}::text[],
          ${entity === companies.name ? (group?.id ?? null) : null}, ${position})
        returning key`,
    );
    return field?.key as string;
  };
  const source = await define(companies.name, 'Deal source', 'select', sources, 1);
  const firstMet = await define(companies.name, 'First met', 'date', [], 2);
  const nextStep = await define(deals.name, 'Next step', 'text', [], 1);
  await database.rows(
    sql`update ${sql.identifier(companies.table)} set custom = jsonb_build_object(
        ${source}::text, (${pgArrayLiteral(sources)}::text[])[1 + id % ${sources.length}],
        ${firstMet}::text, to_jsonb(date '2024-01-01' + (id * 37 % 700)::int))
      where id % 5 <> 0`,
  );
  await database.rows(
    sql`update ${sql.identifier(deals.table)}
      set custom = jsonb_build_object(${nextStep}::text, (${pgArrayLiteral(nextSteps)}::text[])[1 + id % ${nextSteps.length}])
      where id % 5 <> 0`,
  );
}
