import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { type FieldDescription, optionTypes } from '@data-platform/shared/fields/field-types';
import { type SQL, sql } from 'drizzle-orm';
import { column, columnTypeSql, fieldOf, pgArrayLiteral, sqlArrayType, valueExpr } from './sql-fragments.ts';

/**
 * One key of a list's order.
 *
 * - `expr`: what the rows are ordered by;
 * - `cursor`: what a cursor carries for the key (the field's own value, so
 *   that a cursor value always has its field's JSON type);
 * - `at(v)`: the `expr` of a row whose cursor value is `v`, which the rows
 *   after a cursor are compared with.
 *
 * A plain field orders by its value, so all three are the value. A picklist
 * orders by the position of its value among the field's options (its
 * defined order, not the alphabet); a reference by the label of the record
 * it points to (the target's display field). Options and names come from
 * descriptions and custom field definitions, and reach SQL as bound
 * parameters only.
 */
export interface OrderKey {
  expr: SQL;
  dir: 'asc' | 'desc';
  nullable: boolean;
  cursor: SQL;
  at: (value: unknown) => SQL;
  /**
   * The SQL type of a cursor value `at` takes, where it is known (built-in
   * columns, option lists, references): a value bound out of the planner's
   * sight is cast to it (list-compiler's `unseen`, decision 0055).
   */
  type?: SQL;
}

/** The position of a value among the options, 1-based; a value no option has (any more) after all of them. */
function optionPosition(options: readonly string[], value: SQL): SQL {
  return sql`(case when ${value} is null then null else coalesce(array_position(${pgArrayLiteral(options)}::text[], ${value}::text), ${options.length + 1}) end)`;
}

/** The label of the `target` record with id `id`, or null; limited to the rows a limited reader may see. */
function referenceLabel(target: EntityDescription, id: SQL, alias: string): SQL {
  const rows = target.limitedRead?.rows;
  const limit = rows
    ? sql` and ${valueExpr(alias, rows.field, fieldOf(target, rows.field))} = any(${pgArrayLiteral([...rows.oneOf])}::${sqlArrayType(fieldOf(target, rows.field).type)})`
    : sql``;
  const display = valueExpr(alias, target.display, fieldOf(target, target.display));
  return sql`(select ${display} from ${sql.identifier(target.table)} ${sql.identifier(alias)} where ${column(alias, 'id')} = ${id}${limit})`;
}

function referenceTarget(field: FieldDescription): EntityDescription | undefined {
  return field.type === 'reference' && field.to ? findEntity(field.to) : undefined;
}

/** The options a picklist orders by (their defined order, not the alphabet), when it has any. */
function orderOptions(field: FieldDescription): readonly string[] | undefined {
  return optionTypes.has(field.type) && field.options && field.options.length > 0 ? field.options : undefined;
}

/**
 * True when the field orders by its own column, as a btree index on that
 * column reads it: not a custom field's value, a picklist's option position
 * or a reference's label.
 */
export function ordersByColumn(field: FieldDescription): boolean {
  return !field.custom && !orderOptions(field) && !referenceTarget(field);
}

/** The order key of one field of the entity's rows (as `root`). `index` keeps subquery aliases apart. */
export function fieldOrderKey(
  entity: EntityDescription,
  root: string,
  name: string,
  dir: 'asc' | 'desc',
  index: number,
): OrderKey {
  const field = fieldOf(entity, name);
  const value = valueExpr(root, name, field);
  // A custom field can be made required after records without it exist.
  const nullable = !field.required || !!field.custom;
  const options = orderOptions(field);
  if (options) {
    return {
      expr: optionPosition(options, value),
      dir,
      nullable,
      cursor: value,
      at: (v) => optionPosition(options, sql`${v}::text`),
      type: sql`text`,
    };
  }
  const target = referenceTarget(field);
  if (target) {
    const alias = `s${index}`;
    const label = referenceLabel(target, value, alias);
    return {
      expr: label,
      dir,
      // The label is empty when the reference is, or when its record is one the reader may not see.
      nullable: true,
      // The id carries the label: empty when the label is, so that a cursor's empty value means an empty label.
      cursor: sql`(case when ${label} is null then null else ${value} end)`,
      at: (v) => referenceLabel(target, sql`${v}::bigint`, alias),
      type: sql`bigint`,
    };
  }
  return { expr: value, dir, nullable, cursor: value, at: (v) => sql`${v}`, type: columnTypeSql(field) };
}

/** A key that is its own value (the search rank). */
export function plainOrderKey(expr: SQL, dir: 'asc' | 'desc', nullable: boolean): OrderKey {
  return { expr, dir, nullable, cursor: expr, at: (v) => sql`${v}` };
}
