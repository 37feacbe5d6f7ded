import { isCustomizable } from '@data-platform/shared/entities/custom-fields';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  type ExtraConfigColumn,
  type IndexBuilder,
  index,
  integer,
  jsonb,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
  pgTable,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { searchPartText } from '../crud/sql-fragments.ts';
import { CUSTOM_COLUMN, columnBuilders, columnName } from './columns.ts';
import { indexPlan } from './index-plan.ts';

// biome-ignore lint/suspicious/noExplicitAny: tables are built from descriptions at run time, so their column types are not static
export type EntityTable = PgTableWithColumns<any>;

const tables: Record<string, EntityTable> = {};

function systemColumn(name: string): PgColumnBuilderBase | undefined {
  switch (name) {
    case 'id':
      return bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity();
    case 'createdAt':
    case 'updatedAt':
      return timestamp(columnName(name), { withTimezone: true, mode: 'string' }).notNull().defaultNow();
    case 'version':
      return integer('version').notNull().default(1);
    default:
      return undefined;
  }
}

function buildTable(entity: EntityDescription): EntityTable {
  const columns: Record<string, PgColumnBuilderBase> = {};
  const fields = allFields(entity);
  for (const [name, field] of Object.entries(fields)) {
    const system = systemColumn(name);
    if (system) {
      columns[name] = system;
      continue;
    }
    Object.assign(
      columns,
      columnBuilders(name, field, (f) => {
        if (fieldTypeModule(f.type).storage.currencyCode)
          return () => (tables.currencies as EntityTable).code as AnyPgColumn;
        const to = f.type === 'reference' ? f.to : undefined;
        return to ? () => (tables[to] as EntityTable).id as AnyPgColumn : undefined;
      }),
    );
  }
  // Custom fields' values, keyed by field: a column per field would mean DDL at run time.
  if (isCustomizable(entity)) columns.custom = jsonb(CUSTOM_COLUMN).notNull().default({});
  return pgTable(entity.table, columns, (t) => {
    const col = (name: string) => t[name] as ExtraConfigColumn;
    const list: IndexBuilder[] = indexPlan(entity).map((planned) => {
      if (planned.kind === 'search') {
        // One field is indexed as its column; several as the expression lists search by.
        const [only] = planned.fields;
        if (planned.fields.length === 1 && only) return index(planned.name).using('gin', col(only).op('gin_trgm_ops'));
        return index(planned.name).using(
          'gin',
          sql`(${searchPartText(planned.fields, (name) => sql`${t[name]}`)}) gin_trgm_ops`,
        );
      }
      if (planned.kind === 'prefix') {
        // What a ranked search's prefix test reads: lower(display) like lower(pattern) (crud/list-compiler.ts).
        return index(planned.name).using('btree', sql`lower(${col(planned.fields[0])}) text_pattern_ops`);
      }
      const [first, ...rest] = planned.fields.map(col) as [ExtraConfigColumn, ...ExtraConfigColumn[]];
      const built = (planned.kind === 'unique' ? uniqueIndex(planned.name) : index(planned.name)).on(first, ...rest);
      return planned.notNull ? built.where(sql`${col(planned.notNull)} is not null`) : built;
    });
    return [...list, ...(entity.checks ?? []).map((rule) => check(rule.name, sql.raw(rule.sql)))];
  });
}

for (const entity of entityList) tables[entity.name] = buildTable(entity);

/** The Drizzle table of each resource, keyed by resource name. */
export function tableOf(resource: string): EntityTable {
  const table = tables[resource];
  if (!table) throw new Error(`No table for ${resource}`);
  return table;
}

// drizzle-kit finds tables among the exports of this module, which it loads
// as CommonJS (through esbuild-register): there, hand it every entity's table,
// keyed by resource name, so that the entity list stays the registry's alone.
// Loaded as ES module (the server, tests), `module` does not exist.
export { sessions, throttleCounters, userCredentials, userTokens } from './auth-schema.ts';
export { duplicateDismissals } from './duplicates-schema.ts';
export { exportJobs } from './export-jobs-schema.ts';
export { historySettings, recordHistory } from './history-schema.ts';
export { importBadRows, importCreated, importRecords, imports } from './imports-schema.ts';
export { savedViews } from './saved-views-schema.ts';
export { searchWords } from './search-words-schema.ts';

if (typeof module !== 'undefined' && typeof module.exports === 'object') Object.assign(module.exports, tables);
