import { companies } from '@data-platform/shared/entities/companies';
import { customFieldGroups, entityFieldTypes } from '@data-platform/shared/entities/custom-fields';
import { deals } from '@data-platform/shared/entities/deals';
import { tasks } from '@data-platform/shared/entities/tasks';
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
  const [accounts] = await database.rows<{ n: number; first: number | null }>(
    sql`select count(*)::int as n, min(id)::int as first from ${sql.identifier(users.table)}`,
  );
  if ((accounts?.n ?? 0) > 1 || (await tablesWithRows(database)).length > 0) return false;
  const started = performance.now();
  const [{ seedDatabase }, { demoCounts }] = await Promise.all([import('./load.ts'), import('./generator.ts')]);
  const timings = await seedDatabase(database, demoCounts);
  await addDemoCustomFields(database);
  if (accounts?.first) await giveDemoTasks(database, accounts.first);
  const summary = timings
    .filter((t) => t.rows > 0)
    .map((t) => `${t.rows} ${t.table}`)
    .join(', ');
  log.info(`Empty database: loaded demo data in ${Math.round(performance.now() - started)} ms (${summary})`);
  return true;
}

/** Days from today that the first administrator's demo tasks are due: two overdue, one today, the rest ahead. */
const demoTaskDue = [-3, -1, 0, 2, 6, 13];

/**
 * Gives the first administrator (the account that signs in first) a few open
 * tasks due around today, so that the home page's "My open tasks" shows what
 * it is for on the first visit; the seeded tasks belong to generated users
 * and fall on the dataset's own dates.
 */
async function giveDemoTasks(database: Database, userId: number): Promise<void> {
  const table = sql.identifier(tasks.table);
  await database.rows(
    sql`update ${table} t set owner_id = ${userId}, status = 'Open',
        due_date = current_date + (${pgArrayLiteral(demoTaskDue.map(String))}::int[])[p.n]
      from (select id, row_number() over (order by id)::int as n from ${table} order by id limit ${demoTaskDue.length}) p
      where t.id = p.id`,
  );
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
