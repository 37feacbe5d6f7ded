import { readableDescription } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { createSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { findEntity } from '@data-platform/shared/entities/registry';
import {
  CellProblem,
  type ColumnFormat,
  type DateOrder,
  type DecimalMark,
} from '@data-platform/shared/fields/cell-formats';
import { type FieldDescription, fieldTypeModule } from '@data-platform/shared/fields/field-types';
import type { ImportSettings, RowAction } from '@data-platform/shared/imports';
import type { JoinSpec } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { limitedRowsScope, limitJoins, readableScope } from '../access/reading.ts';
import { assertReferencesReadable } from '../access/references.ts';
import type { Actor } from '../auth/actor.ts';
import { listRecords } from '../crud/records.ts';
import { column, pgArrayLiteral } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { invalid } from '../domain/errors.ts';
import { type Readings, readsOf } from './import-formats.ts';
import { findTarget, type ImportTarget, importableFields } from './import-mapping.ts';
import { type Cell, type TableRow, yieldToOthers } from './table.ts';

/**
 * Rows of a file as records, a batch at a time: cells read by their field
 * types in their column's format (import-formats.ts), fixed values read as
 * each row's cell, picklist and tags values mapped, references found by name, domain, email,
 * code or id (one query per referenced entity and batch), each row matched
 * against stored records on the duplicate key (one query per batch), then
 * checked against the create or update schema. Nothing is written here.
 */

/**
 * A mapped column: its position in the file, its target, its own readings
 * where its values could be read either way (the mapping's, instead of the
 * import's), and how its dates or numbers are written (once decided).
 */
export interface PlannedColumn {
  index: number;
  target: ImportTarget;
  own: Partial<Readings>;
  format: ColumnFormat | null;
}

/** A value given for every row of a field no column maps to, read as a cell of that field. */
export interface PlannedFixed {
  /** As the settings name it: `indexId`, `revenue.currency`. */
  key: string;
  target: ImportTarget;
  value: string;
  format: ColumnFormat | null;
}

/** How the rows of one import are read: the entity, the importer, the mapped columns, the fixed values and the rules. */
export interface RowPlan {
  entity: EntityDescription;
  actor: Actor;
  /** Mapped columns by position in the file. */
  columns: PlannedColumn[];
  fixed: PlannedFixed[];
  /** The value mapping by field, as maps made once per plan (each cell's values are looked up in them). */
  valueMaps: ReadonlyMap<string, ReadonlyMap<string, string | null>>;
  duplicates?: ImportSettings['duplicates'];
  /** The day/month order of dates that could be read either way, where a column has none of its own (the caller's, or suggested from their language). */
  dateOrder: DateOrder;
  /** The decimal mark of numbers that could be read either way, where a column has none of its own (the caller's, or their language's). */
  decimalMark: DecimalMark;
}

/** What a plan is made from: an import's mapping and rules. */
export type PlanSettings = Pick<ImportSettings, 'values' | 'fixed' | 'duplicates'> & {
  mapping: NonNullable<ImportSettings['mapping']>;
};

/** The fields a plan writes: those of its columns, then those of its fixed values. */
export const plannedTargets = (plan: RowPlan): ImportTarget[] => [
  ...plan.columns.map((c) => c.target),
  ...plan.fixed.map((f) => f.target),
];

/** A row as it would be stored, with its problems and what it would do. */
export interface PreparedRow {
  row: number;
  cells: Cell[];
  /** Values of the create or update body (references as ids). */
  values: Record<string, unknown>;
  /** The display names of the records its references found, by field (a preview shows them, not ids). */
  referenceNames: Record<string, string>;
  problems: Record<string, string>;
  action: RowAction | null;
  /** The stored record it matched on the duplicate key. */
  match?: { id: number; version: number };
  /** The key it was matched on, when it has one (to find repeats in the file). */
  key?: string;
  /** For an update: the values before, of the fields it changes. */
  previous?: Record<string, unknown>;
  /** For an update, in a preview (`PrepareOptions.preview`): the names of the records its changed references held. */
  previousNames?: Record<string, string>;
  /** For an update, in a preview: every value the file gives (fields it leaves as they are included). */
  given?: Record<string, unknown>;
  /** For an update: what the file gives fields set once at creation (a note's record), to compare with the stored. */
  immutable?: Record<string, unknown>;
}

/**
 * The plan of an import: each mapped column's target checked against the
 * entity (400 naming `mapping.<column>`), a field mapped twice refused, each
 * fixed value's field checked (400 naming `fixed.<field>`: unknown, the
 * record id, or a field a column maps to), the duplicate key checked (an
 * entity's dedup key, or `id` when a column is mapped to it), and 403 when
 * a column or a fixed value sets a reference to records the importer may
 * not read (before any name is looked up), a column's own day/month order
 * or decimal mark refused when its field holds no dates or numbers (400
 * naming `mapping.<column>.dateOrder`). Formats are decided afterwards, from
 * the file's rows (import-formats.ts).
 */
export function planRows(
  entity: EntityDescription,
  actor: Actor,
  { mapping, values = {}, fixed: fixedValues = {}, duplicates }: PlanSettings,
  { dateOrder, decimalMark }: Readings,
): RowPlan {
  const errors: Record<string, string> = {};
  const columns: RowPlan['columns'] = [];
  const fixed: RowPlan['fixed'] = [];
  const seen = new Map<string, number>();
  mapping.forEach((wanted, index) => {
    if (!wanted) return;
    const target = findTarget(entity, wanted);
    if (!target) {
      errors[`mapping.${index}`] =
        `${entity.labelPlural} have no field ${wanted.field}${wanted.part ? ` (${wanted.part})` : ''} an import can write`;
      return;
    }
    const key = `${target.name}.${target.part ?? ''}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors[`mapping.${index}`] = `Column ${earlier + 1} is already mapped to ${target.field.label}`;
      return;
    }
    seen.set(key, index);
    const reads = readsOf(target);
    if (wanted.dateOrder && reads !== 'date') {
      errors[`mapping.${index}.dateOrder`] = `${target.field.label} holds no dates`;
    }
    if (wanted.decimalMark && reads !== 'number') {
      errors[`mapping.${index}.decimalMark`] = `${target.field.label} holds no numbers`;
    }
    const own = {
      ...(wanted.dateOrder ? { dateOrder: wanted.dateOrder } : {}),
      ...(wanted.decimalMark ? { decimalMark: wanted.decimalMark } : {}),
    };
    columns.push({ index, target, own, format: null });
  });
  if (columns.length === 0 && Object.keys(errors).length === 0) {
    errors.mapping = 'Map at least one column to a field';
  }
  for (const [key, value] of Object.entries(fixedValues)) {
    const [field = '', part] = key.split(/\.(.*)/s);
    const target = findTarget(entity, { field, ...(part ? { part } : {}) });
    const column = target && seen.get(`${target.name}.${target.part ?? ''}`);
    if (!target) errors[`fixed.${key}`] = `${entity.labelPlural} have no field ${key} an import can write`;
    else if (target.name === 'id') errors[`fixed.${key}`] = 'Every row cannot have the same record id';
    else if (column !== undefined) {
      errors[`fixed.${key}`] =
        `Column ${column + 1} is mapped to ${target.field.label}; a value for every row is for a field no column maps to`;
    } else fixed.push({ key, target, value, format: null });
  }
  for (const field of Object.keys(values)) {
    if (!columns.some((c) => c.target.name === field)) errors[`values.${field}`] = 'No column is mapped to this field';
  }
  if (duplicates) {
    const keys = ['id', ...(entity.dedupKeys ?? [])];
    if (!keys.includes(duplicates.key)) {
      errors['duplicates.key'] = `Expected one of ${keys.join(', ')}`;
    } else if (duplicates.key === 'id' && duplicates.action === 'create') {
      errors['duplicates.action'] = 'A row whose id matches a record updates it or is skipped';
    } else if (
      keySources(entity, duplicates.key).some(
        (name) => !columns.some((c) => c.target.name === name) && !fixed.some((f) => f.target.name === name),
      )
    ) {
      errors['duplicates.key'] = `Map a column to ${keySources(entity, duplicates.key)
        .map((name) => allFields(entity)[name]?.label ?? name)
        .join(' and ')} to match on it`;
    }
  }
  if (Object.keys(errors).length > 0) throw invalid(errors, 'The mapping cannot be used');
  const valueMaps = new Map(
    Object.entries(values).map(([field, decided]) => [field, new Map(Object.entries(decided))]),
  );
  const plan: RowPlan = { entity, actor, columns, fixed, valueMaps, duplicates, dateOrder, decimalMark };
  assertReferencesReadable(
    actor,
    entity,
    plannedTargets(plan).map((target) => target.name),
    {
      doing: 'importing',
      hint: '; skip the column (or the value for every row) or ask for the permission',
      field: (name, missing) => `The column for ${allFields(entity)[name]?.label ?? name} needs ${missing.join(', ')}`,
    },
  );
  return plan;
}

/**
 * Refuses (400 naming `mapping`) the plan of a job whose rows would all miss a
 * required field: one no column maps to and no value for every row gives.
 * Rows that update duplicates need only what they change, so a job that
 * updates is left to say it row by row, as a preview always does.
 */
export function assertRequiredGiven(plan: RowPlan): void {
  if (plan.duplicates?.action === 'update') return;
  const given = new Set(plannedTargets(plan).map((target) => target.name));
  const missing = importableFields(plan.entity).filter(([name, field]) => field.required && !given.has(name));
  if (missing.length === 0) return;
  const named = missing.map(([name, field]) => `${field.label} (${name})`).join(', ');
  throw invalid(
    { mapping: `Map a column to ${named}, or give ${missing.length > 1 ? 'each' : 'it'} a value for every row` },
    `Every row would miss a required field: ${named}`,
  );
}

/** The fields a duplicate key is computed from: itself, or those its generated SQL names (a domain from the website). */
function keySources(entity: EntityDescription, key: string): string[] {
  const field = allFields(entity)[key];
  if (!field?.generated) return [key];
  const expression = field.generated;
  return Object.keys(entity.fields).filter(
    (name) => !entity.fields[name]?.generated && new RegExp(`\\b${columnName(name)}\\b`).test(expression),
  );
}

const isEmpty = (cell: Cell | undefined) => cell === null || cell === undefined || String(cell).trim() === '';

/**
 * A picklist (or tags) value through the caller's value mapping: the option
 * (or stored tag) it stands for, or as it is when the mapping does not name
 * it. In a list, values mapped to null are left out, and so is a value the
 * mapping makes a repeat of an earlier one ("AI; ai" both mapped to "AI").
 */
function mapped(mapping: ReadonlyMap<string, string | null> | undefined, value: unknown): unknown {
  if (!mapping) return value;
  const one = (item: unknown) => {
    if (typeof item !== 'string') return item;
    const to = mapping.get(item.trim());
    return to === undefined ? item : to;
  };
  if (Array.isArray(value)) {
    const items = value.map(one).filter((item) => item !== null && item !== '');
    return items.length > 1 ? [...new Set(items)] : items;
  }
  const result = one(value);
  return result === null ? undefined : result;
}

/** What a row reads as before references and duplicates: values by field, reference texts, fields left empty. */
interface ReadRow {
  row: number;
  cells: Cell[];
  values: Record<string, unknown>;
  empty: Set<string>;
  id?: number;
  referenceNames: Record<string, string>;
  problems: Record<string, string>;
  /** Reference texts that named several records, by field (see `ambiguousAsStored`). */
  ambiguous: Record<string, string>;
}

function readRow(plan: RowPlan, { number, cells }: TableRow): ReadRow {
  const values: Record<string, unknown> = {};
  const filled = new Set<string>();
  const mappedFields = new Set<string>();
  const problems: Record<string, string> = {};
  let id: number | undefined;
  /** A cell (or a fixed value) of a target, read by its field type in its format. */
  const read = (target: ImportTarget, cell: Cell, format: ColumnFormat | null) => {
    filled.add(target.name);
    const result = fieldTypeModule(target.field.type).importCell(cell, target.part, format);
    if (result instanceof CellProblem) {
      problems[target.name] ??= result.message;
      return;
    }
    const value = mapped(plan.valueMaps.get(target.name), result);
    if (value === undefined) return;
    // The parts of a value of several columns gather into one object (money: amount and currency).
    values[target.name] = target.part
      ? { ...(values[target.name] as object | undefined), [target.part]: value }
      : value;
  };
  for (const { index, target, format } of plan.columns) {
    const cell = cells[index];
    mappedFields.add(target.name);
    if (isEmpty(cell)) continue;
    if (target.name === 'id') {
      const text = String(cell).trim();
      if (/^\d{1,15}$/.test(text)) id = Number(text);
      else problems.id = 'Expected a record id (a whole number)';
      continue;
    }
    read(target, cell as Cell, format);
  }
  for (const { target, value, format } of plan.fixed) read(target, value, format);
  mappedFields.delete('id');
  const empty = new Set([...mappedFields].filter((name) => !filled.has(name)));
  return { row: number, cells, values, empty, id, referenceNames: {}, problems, ambiguous: {} };
}

/** The columns a reference is matched on in its target: the display field, the dedup keys, unique text fields (an ISO code), as the importer may read them. */
function matchColumns(target: EntityDescription, actor: Actor): string[] {
  const readable = readableDescription(target, actor.permissions);
  const fields = allFields(readable);
  const names = [readable.display, ...(readable.dedupKeys ?? [])];
  for (const [name, field] of Object.entries(readable.fields)) {
    if (field.unique && fieldTypeModule(field.type).storage.pgType === 'text') names.push(name);
  }
  return [...new Set(names)].filter((name) => fields[name] && !fields[name]?.custom);
}

/** A referenced record found by a text of the file: its id and display name. */
export interface FoundRecord {
  id: number;
  name: string;
}

/**
 * Referenced records by the texts the file names them with (lower case): a
 * text matching two records is ambiguous. One query per entity.
 */
export async function referencedRecords(
  database: Database,
  actor: Actor,
  to: string,
  texts: Set<string>,
  within?: string,
): Promise<Map<string, FoundRecord | 'ambiguous'>> {
  const target = findEntity(to);
  const found = new Map<string, FoundRecord | 'ambiguous'>();
  if (!target || texts.size === 0) return found;
  const lowered = [...new Set([...texts].map((text) => text.toLowerCase()))];
  const ids = lowered.filter((text) => /^\d{1,15}$/.test(text));
  const names = matchColumns(target, actor);
  const scope = limitedRowsScope(target, actor);
  const keys = names.map((name, i) => sql`lower(${column('t', columnName(name))}::text) as ${sql.identifier(`k${i}`)}`);
  const any = sql.join(
    names.map((name) => sql`lower(${column('t', columnName(name))}::text) = any(${pgArrayLiteral(lowered)}::text[])`),
    sql` or `,
  );
  const parent = within ? sql`, ${column('t', columnName(within))}::text as parent` : sql``;
  const rows = await database.rows<Record<string, string | number | null>>(
    sql`select t.id::bigint as id, ${column('t', columnName(target.display))}::text as display, ${sql.join(keys, sql`, `)}${parent}
      from ${sql.identifier(target.table)} t
      where (${any}${ids.length > 0 ? sql` or t.id = any(${pgArrayLiteral(ids)}::bigint[])` : sql``})${scope ? sql` and (${scope.where})` : sql``}`,
  );
  const wanted = new Set(lowered);
  for (const row of rows) {
    const id = Number(row.id);
    const record = { id, name: row.display === null ? `#${id}` : String(row.display) };
    const matched = new Set<string>([String(id), ...names.map((_, i) => String(row[`k${i}`] ?? ''))]);
    for (const text of matched) {
      if (!wanted.has(text)) continue;
      const keys = row.parent === null || row.parent === undefined ? [text] : [text, withinKey(row.parent, text)];
      for (const key of keys) {
        const before = found.get(key);
        found.set(key, before === undefined || (before !== 'ambiguous' && before.id === id) ? record : 'ambiguous');
      }
    }
  }
  return found;
}

/** The key `referencedRecords` files a record under among those of one parent (a state by its country). */
const withinKey = (parent: unknown, text: string) => `${String(parent)}\u0000${text}`;

/**
 * The field of `to` that names the record its rows lie within, when one of
 * `targets` (the file's references) is to be found within a sibling's record
 * (`within`: a company's HQ state within its HQ country, whose states are
 * those whose `countryId` is the country); undefined otherwise.
 */
export function withinFieldOf(
  entity: EntityDescription,
  targets: readonly { field: FieldDescription }[],
  to: string,
): string | undefined {
  for (const { field } of targets) {
    if (field.to !== to || !field.within) continue;
    const parent = findEntity(allFields(entity)[field.within.field]?.to ?? '');
    const relation = parent?.relations?.[field.within.relation];
    if (relation?.kind === 'hasMany') return relation.foreignKey;
  }
  return undefined;
}

/** Targets in the order their references are found: those found within a sibling's record after that sibling. */
export function withinLast<T extends { field: FieldDescription }>(targets: readonly T[]): T[] {
  return [...targets.filter((t) => !t.field.within), ...targets.filter((t) => t.field.within)];
}

/**
 * The record a reference text names: with `parent` (the id the row's sibling
 * field holds, for a reference found `within` it), only among that record's
 * (Victoria in Australia, not in Canada or Mexico); else among all.
 */
export function foundReference(
  found: Map<string, FoundRecord | 'ambiguous'> | undefined,
  text: string,
  parent?: unknown,
): FoundRecord | 'ambiguous' | undefined {
  const key = text.toLowerCase();
  return typeof parent === 'number' ? found?.get(withinKey(parent, key)) : found?.get(key);
}

/**
 * The entity a reference cell of `entity` names a record of: the field's own
 * target, or for the record a note, file or task is on (`attachedTo`), the
 * record type the same row gives (`recordType`, read already; undefined while
 * it gives none). Both importers find references this way.
 */
export function referenceTarget(
  entity: EntityDescription,
  field: { name: string; to?: string },
  recordType: unknown,
): string | undefined {
  if (field.to) return field.to;
  if (field.name !== entity.attachedTo?.idField) return undefined;
  return typeof recordType === 'string' && findEntity(recordType)?.attachable ? recordType : undefined;
}

/** The record type a row of an attached entity (a note, file, task) gives, read already. */
export function recordTypeOf(entity: EntityDescription, values: Record<string, unknown>): unknown {
  return entity.attachedTo ? values[entity.attachedTo.entityField] : undefined;
}

/** Whether a field of `entity` is a reference an import finds by text: one with a target, or an attached row's record. */
export function findsReference(entity: EntityDescription, name: string, field: FieldDescription): boolean {
  return field.type === 'reference' && (Boolean(field.to) || name === entity.attachedTo?.idField);
}

/** A reference cell's problem when its text found no record, or several. */
export function referenceProblem(
  to: string,
  text: string,
  found: FoundRecord | 'ambiguous' | undefined,
): string | undefined {
  const label = findEntity(to)?.label.toLowerCase() ?? to;
  if (found === undefined) return `No ${label} named ${text}`;
  if (found === 'ambiguous') return `More than one ${label} matches ${text}`;
  return undefined;
}

/** Said of a record reference whose row gives no record type to find it in. */
export const NO_RECORD_TYPE = 'Give the record type in its own column to find this record';

/** References by text → ids, for the batch; a text that matches nothing or several records is the row's problem. */
async function resolveReferences(database: Database, plan: RowPlan, rows: ReadRow[]): Promise<void> {
  const attached = plan.entity.attachedTo;
  const references = plannedTargets(plan).filter((target) => findsReference(plan.entity, target.name, target.field));
  const textsByEntity = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const target of references) {
      const value = row.values[target.name];
      const to = referenceTarget(
        plan.entity,
        { name: target.name, to: target.field.to },
        recordTypeOf(plan.entity, row.values),
      );
      if (typeof value !== 'string' || value === '' || !to) continue;
      textsByEntity.set(to, (textsByEntity.get(to) ?? new Set()).add(value));
    }
  }
  const idsByEntity = new Map<string, Map<string, FoundRecord | 'ambiguous'>>();
  for (const [to, texts] of textsByEntity) {
    const within = withinFieldOf(plan.entity, references, to);
    idsByEntity.set(to, await referencedRecords(database, plan.actor, to, texts, within));
  }
  for (const row of rows) {
    for (const target of withinLast(references)) {
      const value = row.values[target.name];
      if (typeof value !== 'string' || value === '') continue;
      const to = referenceTarget(
        plan.entity,
        { name: target.name, to: target.field.to },
        recordTypeOf(plan.entity, row.values),
      );
      if (!to) {
        // Its record type is missing or not one records attach to: that column says so.
        delete row.values[target.name];
        if (attached && !row.problems[attached.entityField]) row.problems[target.name] = NO_RECORD_TYPE;
        continue;
      }
      const parent = target.field.within ? row.values[target.field.within.field] : undefined;
      const found = foundReference(idsByEntity.get(to), value, parent);
      const problem = referenceProblem(to, value, found);
      if (problem) row.problems[target.name] = problem;
      if (found === 'ambiguous' && target.field.to) row.ambiguous[target.name] = value;
      if (found !== undefined && found !== 'ambiguous') {
        row.values[target.name] = found.id;
        row.referenceNames[target.name] = found.name;
      } else delete row.values[target.name];
    }
  }
}

/**
 * An update's reference text that names several records (two firms called
 * Falcon Ventures) means the one the record already holds, when that one is
 * among them: an export imported again names each firm by its name, and the
 * records keep their own. Only for rows that update one stored record; a
 * create, or a record holding none of them, keeps the problem. One statement
 * per field with such texts in the batch.
 */
async function ambiguousAsStored(
  database: Database,
  plan: RowPlan,
  rows: ReadRow[],
  matched: Map<number, { matches: { id: number }[] }>,
): Promise<void> {
  if (plan.duplicates?.action !== 'update') return;
  const byField = new Map<string, { row: ReadRow; id: number; text: string }[]>();
  for (const row of rows) {
    const match = matched.get(row.row)?.matches;
    if (match?.length !== 1) continue;
    for (const [name, text] of Object.entries(row.ambiguous)) {
      byField.set(name, [...(byField.get(name) ?? []), { row, id: (match[0] as { id: number }).id, text }]);
    }
  }
  const fields = allFields(plan.entity);
  for (const [name, pending] of byField) {
    const target = findEntity(fields[name]?.to ?? '');
    if (!target) continue;
    const names = matchColumns(target, plan.actor);
    const scope = limitedRowsScope(target, plan.actor);
    // The referenced record is `t`, as in `referencedRecords` (the reader's scope of the target names its columns so).
    const keys = names.map((key) => sql`lower(${column('t', columnName(key))}::text)`);
    const stored = await database.rows<{
      id: number | string;
      ref: number | string;
      display: string | null;
      keys: string[];
    }>(
      sql`select o.id, t.id as ref, ${column('t', columnName(target.display))}::text as display,
          array[t.id::text, ${sql.join(keys, sql`, `)}] as keys
        from ${sql.identifier(plan.entity.table)} o join ${sql.identifier(target.table)} t on t.id = ${column('o', columnName(name))}
        where o.id = any(${pgArrayLiteral(pending.map((p) => p.id))}::bigint[])${scope ? sql` and (${scope.where})` : sql``}`,
    );
    const holds = new Map(stored.map((s) => [Number(s.id), s]));
    for (const { row, id, text } of pending) {
      const held = holds.get(id);
      if (!held?.keys.includes(text.toLowerCase())) continue;
      row.values[name] = Number(held.ref);
      row.referenceNames[name] = held.display ?? `#${held.ref}`;
      delete row.problems[name];
      delete row.ambiguous[name];
    }
  }
}

/** The SQL array type a duplicate key's source values are sent as. */
function sqlTypeOf(field: FieldDescription): string {
  const pgType = fieldTypeModule(field.type).storage.pgType;
  return pgType === 'varchar3' ? 'text' : pgType;
}

/**
 * Each row's duplicate key (computed by the database when the key is
 * generated, as the stored column is) and the stored records it matches
 * (those the importer may read), in one statement for the batch.
 */
async function matchStored(
  database: Database,
  plan: RowPlan,
  rows: ReadRow[],
): Promise<Map<number, { key: string | null; matches: { id: number; version: number }[] }>> {
  const rule = plan.duplicates;
  const found = new Map<number, { key: string | null; matches: { id: number; version: number }[] }>();
  if (!rule || rows.length === 0) return found;
  const { entity } = plan;
  const table = sql.identifier(entity.table);
  const scope = readableScope(entity, plan.actor);
  const scoped = scope ? sql` and (${scope.where})` : sql``;
  const positions = rows.map((_, i) => i);
  let keys: SQL;
  let join: SQL;
  if (rule.key === 'id') {
    keys = sql`select i, k::text as k from unnest(${pgArrayLiteral(positions)}::int[], ${pgArrayLiteral(rows.map((r) => r.id ?? null))}::bigint[]) as s(i, k)`;
    join = sql`t.id = keys.k::bigint`;
  } else {
    const field = allFields(entity)[rule.key] as FieldDescription;
    const sources = keySources(entity, rule.key);
    const arrays = sources.map((name) => {
      const source = allFields(entity)[name] as FieldDescription;
      const values = rows.map((r) =>
        r.values[name] === undefined || r.values[name] === null ? null : String(r.values[name]),
      );
      return sql`${pgArrayLiteral(values)}::${sql.raw(sqlTypeOf(source))}[]`;
    });
    const names = sql.join(
      sources.map((name) => sql.identifier(columnName(name))),
      sql`, `,
    );
    // A generated key is computed from the row's own columns by the description's SQL, as the stored column is.
    const expression = field.generated ? sql.raw(field.generated) : sql.identifier(columnName(rule.key));
    keys = sql`select i, (${expression})::text as k from unnest(${pgArrayLiteral(positions)}::int[], ${sql.join(arrays, sql`, `)}) as s(i, ${names})`;
    join = sql`${column('t', columnName(rule.key))}::text = keys.k`;
  }
  const matches = await database.rows<{
    i: number;
    k: string | null;
    id: number | string | null;
    version: number | null;
  }>(
    sql`with keys as (${keys})
      select keys.i, keys.k, t.id, t.version::int as version
      from keys left join ${table} t on keys.k is not null and ${join}${scoped}
      order by keys.i, t.id`,
  );
  for (const match of matches) {
    const row = rows[Number(match.i)] as ReadRow;
    const entry = found.get(row.row) ?? { key: match.k, matches: [] };
    if (match.id !== null) entry.matches.push({ id: Number(match.id), version: Number(match.version) });
    found.set(row.row, entry);
  }
  return found;
}

/** A value as the update schema reads it, to compare a file's value with the stored one. */
function canonical(schema: z.ZodObject, field: FieldDescription | undefined, name: string, value: unknown): string {
  const parsed = schema.safeParse({ [name]: value });
  const read = parsed.success ? (parsed.data as Record<string, unknown>)[name] : value;
  // A list field's empty value is an empty list, whether stored as one or not stored at all (a custom list
  // field a record never had): an export of it, read back, must not count as a change.
  const empty = read === null || read === undefined || (Array.isArray(read) && read.length === 0);
  if (empty && field) return JSON.stringify(cleared(field));
  return JSON.stringify(read ?? null, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/**
 * How a reference field's record is joined by name (`hqCountry(name)` for `hqCountryId`): its relation and the
 * target's display field. None for a reference found by record type (a note's record) or a field not named `…Id`.
 */
function nameJoin(name: string, field: FieldDescription | undefined): JoinSpec | undefined {
  const relation = referenceRelationName(name);
  const target = field?.type === 'reference' && field.to && relation !== name ? findEntity(field.to) : undefined;
  return target ? { relation, target: target.name, fields: [target.display] } : undefined;
}

/**
 * The joins naming the records the planned reference fields point at, as the actor may have them (limitJoins:
 * planRows already refused a reference to records the importer may not read, 403).
 */
function referenceJoins(plan: RowPlan): JoinSpec[] {
  const joins = plannedTargets(plan).flatMap(({ name, field }) => nameJoin(name, field) ?? []);
  limitJoins(plan.actor, { join: joins });
  return joins;
}

/**
 * The stored values of the records a batch updates, for the fields the file maps (one list statement); for a
 * preview, the records their references point at too, by name (under the reference's relation name).
 */
async function storedValues(
  database: Database,
  plan: RowPlan,
  ids: number[],
  preview: boolean,
): Promise<Map<number, Record<string, unknown>>> {
  const stored = new Map<number, Record<string, unknown>>();
  if (ids.length === 0) return stored;
  const select = [...new Set(['id', ...plannedTargets(plan).map((t) => t.name)])];
  const page = await listRecords(
    database,
    plan.entity,
    {
      select,
      join: preview ? referenceJoins(plan) : [],
      where: { field: 'id', op: 'in', value: ids },
      sort: [{ field: 'id', dir: 'asc' }],
      sortGiven: true,
      page: 1,
      pageSize: ids.length,
    },
    readableScope(plan.entity, plan.actor),
  );
  for (const text of page.rows) {
    const row = JSON.parse(text) as Record<string, unknown>;
    stored.set(Number(row.id), row);
  }
  return stored;
}

/** An empty cell on an update clears the field: null, or an empty list. */
const cleared = (field: FieldDescription) => (fieldTypeModule(field.type).json === 'array' ? [] : null);

function schemaProblems(error: z.ZodError, problems: Record<string, string>): void {
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'row');
    // A value of several columns without one of its parts (an amount without its currency): say which, and how.
    const part = issue.path.length > 1 && issue.message === 'Required' ? String(issue.path[1]) : undefined;
    problems[field] ??=
      issue.code === 'unrecognized_keys'
        ? 'Unknown field'
        : part
          ? `Needs its ${part}: map a column to it, or give one for every row`
          : issue.message;
  }
}

/**
 * Repeats of a duplicate key within the file: the first row with each key,
 * kept across the batches of one pass (a key as the database computed it).
 */
export class KeysSeen {
  private readonly first = new Map<string, number>();

  /** The earlier row with this key, or undefined (and the key is remembered for this row). */
  repeatOf(key: string, row: number): number | undefined {
    const earlier = this.first.get(key);
    if (earlier === undefined) this.first.set(key, row);
    return earlier;
  }
}

export interface PrepareOptions {
  /**
   * For a preview: an update keeps every value the file gives (`given`) and names the records its changed
   * references held (`previousNames`). A job needs neither, and a batch of 5,000 rows does without the copies.
   */
  preview?: boolean;
}

/** Rows of a batch read or checked between two turns of the event loop. */
const SLICE_ROWS = 200;

/**
 * `items.map(map)`, a slice at a time, other work let in between: a job
 * prepares its next batch while the database writes the one before, and the
 * write's next statement should not wait for a whole batch's checks (5,000
 * rows, tens of milliseconds) to be sent.
 */
async function mapInSlices<T, U>(items: readonly T[], map: (item: T) => U): Promise<U[]> {
  const mapped: U[] = [];
  for (let start = 0; start < items.length; start += SLICE_ROWS) {
    if (start > 0) await yieldToOthers();
    for (let i = start; i < Math.min(items.length, start + SLICE_ROWS); i++) mapped.push(map(items[i] as T));
  }
  return mapped;
}

/**
 * A batch of rows as records: each row's values, its problems by field, and
 * what it would do with the duplicate rule (create, update, skip, or nothing
 * when the update changes nothing); a row repeating an earlier row's key is
 * a problem, never dropped in silence.
 */
export async function prepareRows(
  database: Database,
  plan: RowPlan,
  batch: readonly TableRow[],
  seen: KeysSeen,
  options: PrepareOptions = {},
): Promise<PreparedRow[]> {
  const read = await mapInSlices(batch, (row) => readRow(plan, row));
  await resolveReferences(database, plan, read);
  const matched = await matchStored(database, plan, read);
  await ambiguousAsStored(database, plan, read, matched);
  const rule = plan.duplicates;
  const create = createSchema(plan.entity);
  const update = updateSchema(plan.entity);
  const fields = allFields(plan.entity);
  const prepared: PreparedRow[] = await mapInSlices(read, (row) => {
    const match = matched.get(row.row);
    const result: PreparedRow = {
      row: row.row,
      cells: row.cells,
      values: row.values,
      referenceNames: row.referenceNames,
      problems: row.problems,
      action: 'create',
    };
    if (match?.key) {
      result.key = match.key;
      const earlier = seen.repeatOf(match.key, row.row);
      if (earlier !== undefined) {
        const label = fields[rule?.key ?? '']?.label.toLowerCase() ?? rule?.key;
        result.problems[rule?.key === 'id' ? 'id' : (rule?.key as string)] ??= `The same ${label} as row ${earlier}`;
      }
    }
    if (rule && match && match.matches.length > 1) {
      result.problems[rule.key] ??=
        `${match.matches.length} stored records have this ${fields[rule.key]?.label.toLowerCase()}`;
    } else if (rule && match?.matches.length === 1) {
      result.match = match.matches[0];
      result.action = rule.action;
    } else if (rule?.key === 'id' && row.id !== undefined) {
      result.problems.id ??= `No ${plan.entity.label.toLowerCase()} with id ${row.id}`;
    }
    if (result.action === 'update') {
      for (const name of row.empty) {
        const field = fields[name];
        if (field && result.values[name] === undefined) result.values[name] = cleared(field);
      }
      // Fields set once (a note's record type and record) are no part of an update: the stored values must be
      // the file's (an export imported again), which compareWithStored checks.
      for (const name of Object.keys(result.values)) {
        if (!fields[name]?.immutable) continue;
        result.immutable = { ...result.immutable, [name]: result.values[name] };
        delete result.values[name];
      }
      const parsed = update.safeParse(result.values);
      if (parsed.success) result.values = parsed.data as Record<string, unknown>;
      else schemaProblems(parsed.error, result.problems);
    } else if (result.action === 'create') {
      const parsed = create.safeParse(result.values);
      if (parsed.success) result.values = parsed.data as Record<string, unknown>;
      else schemaProblems(parsed.error, result.problems);
    }
    return result;
  });
  await compareWithStored(database, plan, prepared, update, options);
  return prepared;
}

/** The name of the record a stored reference points at, as `storedValues` joined it for a preview. */
function heldName(stored: Record<string, unknown>, name: string, field: FieldDescription | undefined) {
  const join = nameJoin(name, field);
  const held = join ? (stored[join.relation] as Record<string, unknown> | null | undefined) : undefined;
  const display = join?.fields[0];
  return held && display && held[display] != null ? String(held[display]) : undefined;
}

/**
 * Updates keep only the fields whose value changes; one that changes nothing is `unchanged`. Every value the
 * file gives stays in `given` for a preview, the changed fields' values before in `previous` (and `previousNames`).
 */
async function compareWithStored(
  database: Database,
  plan: RowPlan,
  rows: PreparedRow[],
  update: z.ZodObject,
  { preview = false }: PrepareOptions,
): Promise<void> {
  const updating = rows.filter((r) => r.action === 'update' && r.match && Object.keys(r.problems).length === 0);
  const stored = await storedValues(
    database,
    plan,
    updating.map((r) => (r.match as { id: number }).id),
    preview,
  );
  const fields = allFields(plan.entity);
  const create = createSchema(plan.entity);
  for (const row of updating) {
    const before = stored.get((row.match as { id: number }).id);
    if (!before) {
      row.problems.row = 'The record it matched is gone';
      continue;
    }
    for (const [name, value] of Object.entries(row.immutable ?? {})) {
      const field = fields[name];
      if (canonical(create, field, name, value) === canonical(create, field, name, before[name])) continue;
      row.problems[name] = `${field?.label ?? name} cannot be changed once the record is made`;
    }
    if (Object.keys(row.problems).length > 0) continue;
    const changes: Record<string, unknown> = {};
    const previous: Record<string, unknown> = {};
    const previousNames: Record<string, string> = {};
    for (const [name, value] of Object.entries(row.values)) {
      const field = fields[name];
      if (canonical(update, field, name, value) === canonical(update, field, name, before[name])) continue;
      changes[name] = value;
      previous[name] = before[name] ?? null;
      const held = preview ? heldName(before, name, field) : undefined;
      if (held !== undefined) previousNames[name] = held;
    }
    if (preview) {
      row.given = { ...row.immutable, ...row.values };
      row.previousNames = previousNames;
    }
    row.values = changes;
    row.previous = previous;
    if (Object.keys(changes).length === 0) row.action = 'unchanged';
  }
}
