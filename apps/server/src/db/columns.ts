import { type FieldDescription, fieldTypeModule, type PgType } from '@data-platform/shared/fields/field-types';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  integer,
  numeric,
  type PgColumnBuilderBase,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';

/** The jsonb column of a customizable record that holds its custom fields' values. */
export const CUSTOM_COLUMN = 'custom';

/** `hqCountryId` → `hq_country_id`. Identifiers come only from entity descriptions. */
export function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Money keeps its currency in a second column beside the amount. */
export function currencyColumnName(field: string): string {
  return `${columnName(field)}_currency`;
}

/** The Drizzle builder of one column of a Postgres type, as field type modules name it. */
function pgColumn(pgType: PgType, col: string) {
  switch (pgType) {
    case 'text':
      return text(col);
    case 'varchar3':
      return varchar(col, { length: 3 });
    case 'smallint':
      return smallint(col);
    case 'integer':
      return integer(col);
    case 'bigint':
      return bigint(col, { mode: 'number' });
    case 'numeric':
      return numeric(col);
    case 'date':
      return date(col, { mode: 'string' });
    case 'timestamptz':
      return timestamp(col, { withTimezone: true, mode: 'string' });
    case 'boolean':
      return boolean(col);
  }
}

interface ChainableBuilder extends PgColumnBuilderBase {
  notNull(): ChainableBuilder;
  unique(): ChainableBuilder;
  generatedAlwaysAs(expression: SQL): ChainableBuilder;
  references(ref: () => AnyPgColumn, actions: { onDelete: 'cascade' | 'set null' | 'restrict' }): ChainableBuilder;
}

/** Resolves the column a foreign key points at (tables are built lazily). */
export type ForeignKeyTarget = (field: FieldDescription) => (() => AnyPgColumn) | undefined;

/**
 * The Drizzle column builders of one field (money has two), with NOT NULL,
 * generated expression and foreign keys as the description says.
 */
export function columnBuilders(
  name: string,
  field: FieldDescription,
  foreignKey: ForeignKeyTarget,
): Record<string, PgColumnBuilderBase> {
  const col = columnName(name);
  const { storage } = fieldTypeModule(field.type);
  const base = () => {
    const single = pgColumn(storage.pgType, col);
    // Arrays are NOT NULL and empty by default, so that `contains` and `in` never meet a null.
    return storage.array ? (single as ReturnType<typeof text>).array().notNull().default([]) : single;
  };
  // Drizzle types each builder by its column kind; the modifiers used here exist on all of them.
  let builder = base() as unknown as ChainableBuilder;
  if (field.required && !storage.array) builder = builder.notNull();
  // A constraint (not just an index) so that foreign keys can point at it.
  if (field.unique) builder = builder.unique();
  if (field.generated) builder = builder.generatedAlwaysAs(sql.raw(field.generated));
  const target = foreignKey(field);
  const onDelete = { cascade: 'cascade', setNull: 'set null', restrict: 'restrict' } as const;
  if (target) builder = builder.references(target, { onDelete: onDelete[field.onDelete ?? 'setNull'] });
  const columns: Record<string, PgColumnBuilderBase> = { [name]: builder };
  if (storage.currencyColumn) {
    const currencyTarget = foreignKey({ type: 'currency', label: '' });
    const currency = varchar(currencyColumnName(name), { length: 3 });
    columns[`${name}Currency`] = currencyTarget ? currency.references(currencyTarget) : currency;
  }
  return columns;
}
