import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { arrayTypes } from '@data-platform/shared/fields/field-types';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  integer,
  numeric,
  type PgColumnBuilderBase,
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
  const base = () => {
    switch (field.type) {
      case 'text':
      case 'longText':
      case 'email':
      case 'url':
      case 'phone':
        return text(col);
      case 'emails':
      case 'multiSelect':
      case 'tags':
        return text(col).array().notNull().default([]);
      case 'select':
        return text(col);
      case 'integer':
      case 'year':
        return integer(col);
      case 'reference':
        return bigint(col, { mode: 'number' });
      case 'decimal':
      case 'percent':
      case 'amount':
      case 'money':
        return numeric(col);
      case 'currency':
        return varchar(col, { length: 3 });
      case 'date':
        return date(col, { mode: 'string' });
      case 'datetime':
        return timestamp(col, { withTimezone: true, mode: 'string' });
      case 'boolean':
        return boolean(col);
    }
  };
  // Drizzle types each builder by its column kind; the modifiers used here exist on all of them.
  let builder = base() as unknown as ChainableBuilder;
  if (field.required && !arrayTypes.has(field.type)) builder = builder.notNull();
  // A constraint (not just an index) so that foreign keys can point at it.
  if (field.unique) builder = builder.unique();
  if (field.generated) builder = builder.generatedAlwaysAs(sql.raw(field.generated));
  const target = foreignKey(field);
  const onDelete = { cascade: 'cascade', setNull: 'set null', restrict: 'restrict' } as const;
  if (target) builder = builder.references(target, { onDelete: onDelete[field.onDelete ?? 'setNull'] });
  const columns: Record<string, PgColumnBuilderBase> = { [name]: builder };
  if (field.type === 'money') {
    const currencyTarget = foreignKey({ type: 'currency', label: '' });
    const currency = varchar(currencyColumnName(name), { length: 3 });
    columns[`${name}Currency`] = currencyTarget ? currency.references(currencyTarget) : currency;
  }
  return columns;
}
