import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import {
  type FieldDescription,
  type FieldType,
  fieldTypeModule,
  type PgType,
  textTypes,
} from '@data-platform/shared/fields/field-types';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { CUSTOM_COLUMN, columnName, currencyColumnName } from '../db/columns.ts';

/** `alias.column`, with both names from descriptions (never from input). */
export function column(alias: string, name: string): SQL {
  return sql`${sql.identifier(alias)}.${sql.identifier(name)}`;
}

/**
 * A name from a description (a field, a relation, a part of a value) as an
 * SQL string literal rather than a bound parameter, so that a row's JSON is
 * the same text on every request (see rowJson). Only names of the shape
 * descriptions give are taken: a name from input has been checked against
 * the description before it gets here, and anything else is refused.
 */
export function nameLiteral(name: string): SQL {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`Not a name a description gives: ${JSON.stringify(name)}`);
  return sql.raw(`'${name}'`);
}

export function fieldOf(entity: EntityDescription, name: string): FieldDescription {
  const field = allFields(entity)[name];
  if (!field) throw new Error(`${entity.name} has no field ${name}`);
  return field;
}

/** Postgres's name of each storage type of the field type modules. */
const pgTypeNames: Record<PgType, string> = {
  text: 'text',
  varchar3: 'text',
  smallint: 'smallint',
  integer: 'integer',
  bigint: 'bigint',
  numeric: 'numeric',
  date: 'date',
  timestamptz: 'timestamptz',
  boolean: 'boolean',
};

/**
 * `value` bound through a subquery, `(select $1::type)`, which the planner does
 * not look into: a named statement's custom plans are then made for any value,
 * as its generic plan is, and PostgreSQL keeps the generic one after five runs
 * instead of planning each request (decisions 0054 and 0055).
 */
export function outOfSight(value: unknown, type: SQL): SQL {
  return sql`(select ${value}::${type})`;
}

/** The SQL type of a built-in field's value as `valueExpr` reads it (money: its amount); undefined for custom and array fields. */
export function columnTypeSql(field: FieldDescription): SQL | undefined {
  if (field.custom) return undefined;
  const { storage } = fieldTypeModule(field.type);
  return storage.array ? undefined : sql.raw(pgTypeNames[storage.pgType]);
}

/** The Postgres type a custom field's JSON value is read as, to compare and sort like a column of its type. */
function customCast(type: FieldType): SQL | undefined {
  const cast = fieldTypeModule(type).customCast;
  return cast ? sql.raw(pgTypeNames[cast]) : undefined;
}

/** A custom field's value, typed like the column a built-in field of its type has. */
function customValueExpr(alias: string, name: string, type: FieldType): SQL {
  const value = sql`${column(alias, CUSTOM_COLUMN)} -> ${nameLiteral(name)}`;
  const module = fieldTypeModule(type);
  if (module.storage.array) return sql`array(select jsonb_array_elements_text(coalesce(${value}, '[]'::jsonb)))`;
  // A value of several parts (money) compares by its main one (the amount).
  const text = module.parts
    ? sql`(${value} ->> ${nameLiteral(module.parts.main)})`
    : sql`(${column(alias, CUSTOM_COLUMN)} ->> ${nameLiteral(name)})`;
  const cast = customCast(type);
  return cast ? sql`${text}::${cast}` : text;
}

/** The expression a field sorts and compares by (money: its amount). */
export function valueExpr(alias: string, name: string, field?: FieldDescription): SQL {
  if (field?.custom) return customValueExpr(alias, name, field.type);
  return column(alias, columnName(name));
}

/**
 * What a row's JSON is built as: `jsonb` where SQL reads it further (history
 * compares its values, writes keep it), `json` where it is only sent as text
 * (a list page, a get): json_build_object writes the text as it goes, where
 * jsonb builds a binary object, sorts its keys and writes it out again; a
 * list page of 50 companies costs PostgreSQL a third less (decision 0041).
 * The two texts hold the same JSON: keys in another order, other spaces.
 */
export type RowJsonKind = 'jsonb' | 'json';

/** The field's value as it appears in the JSON of a row. */
export function jsonValueExpr(alias: string, name: string, field: FieldDescription, kind: RowJsonKind = 'jsonb'): SQL {
  if (field.custom) return sql`${column(alias, CUSTOM_COLUMN)} -> ${nameLiteral(name)}`;
  if (fieldTypeModule(field.type).storage.currencyColumn) {
    const amount = column(alias, columnName(name));
    const currency = column(alias, currencyColumnName(name));
    const build = kind === 'json' ? sql`json_build_object` : sql`jsonb_build_object`;
    return sql`case when ${amount} is null then null else ${build}('amount', ${amount}, 'currency', ${currency}) end`;
  }
  return column(alias, columnName(name));
}

/** Postgres limits a function to 100 arguments, so large rows are built in chunks joined with `||`. */
export const PAIRS_PER_CHUNK = 45;

/**
 * A jsonb object (or json: `kind`) of the named fields of a row, plus extra
 * named expressions. Parenthesised, so that it stays one operand wherever it
 * is put: a `::text` after `a || b` casts only `b`, and `jsonb || text` is
 * text concatenation.
 * Without extras it binds nothing, and its text is kept per description (see
 * rowJsonText): building it anew took most of the time a get by id spends in
 * Node (150 µs of SQL building per request for a company).
 */
export function rowJson(
  entity: EntityDescription,
  alias: string,
  names: string[],
  extra: [string, SQL][] = [],
  kind: RowJsonKind = 'jsonb',
): SQL {
  if (extra.length === 0) return rowJsonText(entity, alias, names, kind);
  return buildRowJson(entity, alias, names, extra, kind);
}

function buildRowJson(
  entity: EntityDescription,
  alias: string,
  names: string[],
  extra: [string, SQL][],
  kind: RowJsonKind,
): SQL {
  const pairs: SQL[] = names.map(
    (name) => sql`${nameLiteral(name)}::text, ${jsonValueExpr(alias, name, fieldOf(entity, name), kind)}`,
  );
  for (const [key, expr] of extra) pairs.push(sql`${nameLiteral(key)}::text, ${expr}`);
  // json has no `||`: a row of more pairs than one call takes is built as jsonb, in chunks.
  if (kind === 'json' && pairs.length > 0 && pairs.length <= PAIRS_PER_CHUNK) {
    return sql`(json_build_object(${sql.join(pairs, sql`, `)}))`;
  }
  const chunks: SQL[] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_CHUNK) {
    chunks.push(sql`jsonb_build_object(${sql.join(pairs.slice(i, i + PAIRS_PER_CHUNK), sql`, `)})`);
  }
  return chunks.length === 0 ? sql`'{}'::jsonb` : sql`(${sql.join(chunks, sql` || `)})`;
}

const dialect = new PgDialect();
/** Selections kept per description: a description is a new object whenever its custom fields change. */
const rowJsonTexts = new WeakMap<EntityDescription, Map<string, string>>();
/** Selections kept per description at most (`select=` can name any subset of fields). */
const MAX_ROW_JSON_TEXTS = 256;

/** rowJson without extras, as raw SQL text compiled once per description, alias and field names. */
function rowJsonText(entity: EntityDescription, alias: string, names: string[], kind: RowJsonKind): SQL {
  let texts = rowJsonTexts.get(entity);
  if (!texts) {
    texts = new Map();
    rowJsonTexts.set(entity, texts);
  }
  const key = `${kind}:${alias}:${names.join(',')}`;
  const known = texts.get(key);
  if (known !== undefined) return sql.raw(known);
  const built = buildRowJson(entity, alias, names, [], kind);
  const { sql: text, params } = dialect.sqlToQuery(built);
  // Field names are literals and columns identifiers: nothing is bound. Should a field ever bind, it is built each time.
  if (params.length > 0 || texts.size >= MAX_ROW_JSON_TEXTS) return built;
  texts.set(key, text);
  return sql.raw(text);
}

/** The Postgres type a list of filter values is cast to: an array of the type's column type. */
export function sqlArrayType(type: FieldType): SQL {
  return sql.raw(`${pgTypeNames[fieldTypeModule(type).storage.pgType]}[]`);
}

/**
 * A Postgres array literal (`{"a","b"}`) for one bound parameter, so that
 * both drivers pass lists the same way.
 */
export function pgArrayLiteral(values: readonly unknown[]): string {
  const items = values.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`));
  return `{${items.join(',')}}`;
}

/**
 * One custom value as jsonb. A value of a type that filters and sorts cast
 * (see customValueExpr) goes through that cast now, so that one Postgres
 * cannot read back (a whole number beyond integer, the year 0) is refused
 * like a built-in column refuses it, instead of failing every later filter
 * and sort by the field.
 */
function customJsonWrite(type: FieldType, value: unknown): SQL {
  const cast = customCast(type);
  if (cast && value !== null && typeof value !== 'object') return sql`to_jsonb(${String(value)}::${cast})`;
  return sql`${JSON.stringify(value ?? null)}::jsonb`;
}

/**
 * Custom fields' values as one assignment of the `custom` column: on insert the
 * object of the values given, on update the row's object with them merged in.
 * A null removes the field's value.
 */
export function customColumnWrite(values: [string, FieldDescription, unknown][], merge: boolean): [string, SQL] {
  const object = sql.join(
    values.map(([name, field, value]) => sql`jsonb_build_object(${name}::text, ${customJsonWrite(field.type, value)})`),
    sql` || `,
  );
  const base = merge ? sql`${column('t', CUSTOM_COLUMN)} || ` : sql``;
  return [CUSTOM_COLUMN, sql`jsonb_strip_nulls(${base}(${object}))`];
}

/** A value as the text a column of its type reads (what the driver sends for a bound parameter). */
function columnText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * `insert into <table> as t (...) select ... from unnest($1::text[], ...) r`:
 * many rows as one array parameter per column, each read back with its
 * column's type. The statement's text depends only on which columns are
 * written, so that its parsing and the driver's binding cost the same for
 * 1 row as for 2,000 (a multi-row VALUES binds a parameter per value: at
 * 2,000 rows, tens of thousands, each planned as an expression).
 *
 * A field some rows do not set is null for them: every writable field's
 * column defaults to null but arrays (written as `{}` when unset, their
 * default) and the custom fields' object (built without the unset ones);
 * `columnar-insert.test.ts` keeps it so. `constants` are the same for every
 * row (who wrote them). Rows come back from `returning` in the order of the
 * arrays: the insert reads its function scan in order. `unseen`: each
 * array `outOfSight`, so that a named one-row insert is planned once, not for
 * its one row each time (decision 0055).
 */
const TEXT_ARRAY = sql.raw('text[]');

export function columnarInsertSql(
  entity: EntityDescription,
  rows: readonly Record<string, unknown>[],
  constants: [string, SQL][],
  unseen = false,
): SQL {
  const fields = allFields(entity);
  const names = [...new Set(rows.flatMap((values) => Object.keys(values).filter((n) => values[n] !== undefined)))];
  /** One text array per parameter: each row's text of a value. */
  const params: (string | null)[][] = [];
  /** A parameter of each row's text of field `name`'s value, read in the statement (`r.pN`) by `read`. */
  const param = (name: string, text: (value: unknown) => string | null, read: (param: SQL) => SQL): SQL => {
    const index = params.push(rows.map((values) => text(values[name]))) - 1;
    return read(sql.raw(`r.p${index}`));
  };
  const targets: [string, SQL][] = [];
  const custom: SQL[] = [];
  for (const name of names) {
    const field = fields[name];
    if (!field) throw new Error(`${entity.name} has no field ${name}`);
    const { storage } = fieldTypeModule(field.type);
    if (field.custom) {
      const cast = customCast(field.type);
      // A scalar of a cast type goes through its cast (as customJsonWrite does); anything else is stored as its JSON.
      const typed = (value: unknown) => cast !== undefined && value != null && typeof value !== 'object';
      const json = param(
        name,
        (v) => (typed(v) ? null : JSON.stringify(v ?? null)),
        (p) => sql`${p}::jsonb`,
      );
      const value = cast
        ? sql`coalesce(${param(
            name,
            (v) => (typed(v) ? String(v) : null),
            (p) => sql`to_jsonb(${p}::${cast})`,
          )}, ${json})`
        : json;
      custom.push(sql`jsonb_build_object(${nameLiteral(name)}::text, ${value})`);
    } else if (storage.currencyColumn) {
      const money = (value: unknown) => value as { amount: number; currency: string } | null | undefined;
      targets.push(
        [
          columnName(name),
          param(
            name,
            (v) => (money(v) ? String(money(v)?.amount) : null),
            (p) => sql`${p}::numeric`,
          ),
        ],
        [
          currencyColumnName(name),
          param(
            name,
            (v) => money(v)?.currency ?? null,
            (p) => p,
          ),
        ],
      );
    } else if (storage.array) {
      const read = (p: SQL) => sql`${p}::text[]`;
      targets.push([columnName(name), param(name, (v) => pgArrayLiteral((v as unknown[] | null) ?? []), read)]);
    } else {
      const type = sql.raw(pgTypeNames[storage.pgType]);
      targets.push([columnName(name), param(name, columnText, (p) => sql`${p}::${type}`)]);
    }
  }
  if (custom.length > 0) targets.push([CUSTOM_COLUMN, sql`jsonb_strip_nulls(${sql.join(custom, sql` || `)})`]);
  targets.push(...constants);
  const from =
    params.length > 0
      ? sql`unnest(${sql.join(
          params.map((texts) =>
            unseen ? outOfSight(pgArrayLiteral(texts), TEXT_ARRAY) : sql`${pgArrayLiteral(texts)}::text[]`,
          ),
          sql`, `,
        )}) as r(${sql.raw(params.map((_, i) => `p${i}`).join(', '))})`
      : sql`generate_series(1, ${rows.length}::int) as r`;
  return sql`insert into ${sql.identifier(entity.table)} as t (${sql.join(
    targets.map(([name]) => sql.identifier(name)),
    sql`, `,
  )}) select ${sql.join(
    targets.map(([, read]) => read),
    sql`, `,
  )} from ${from}`;
}

/** The value of one field as a bound parameter for insert/update (money writes two columns). */
export function writeColumns(name: string, field: FieldDescription, value: unknown): [string, SQL][] {
  const { storage } = fieldTypeModule(field.type);
  if (storage.currencyColumn) {
    const money = value as { amount: number; currency: string } | null;
    return [
      [columnName(name), sql`${money ? String(money.amount) : null}::numeric`],
      [currencyColumnName(name), sql`${money ? money.currency : null}`],
    ];
  }
  if (storage.array) {
    return [[columnName(name), sql`${pgArrayLiteral((value as unknown[] | null) ?? [])}::text[]`]];
  }
  if (value === null || value === undefined) return [[columnName(name), sql`null`]];
  return [[columnName(name), sql`${typeof value === 'number' || typeof value === 'boolean' ? String(value) : value}`]];
}

/**
 * The built-in text fields `q` searches, in description order. Custom fields
 * are not searched: their values live in one jsonb column, which a trigram
 * index over the searched fields could not cover.
 */
export function searchFields(entity: EntityDescription): string[] {
  return Object.entries(entity.fields)
    .filter(([, field]) => field.searchable && !field.custom && textTypes.has(field.type))
    .map(([name]) => name);
}

/**
 * Between two fields of the searched text: a character that text typed into
 * a search box never holds, so that a match never spans two fields (a `q`
 * holding it is searched field by field instead).
 */
export const SEARCH_SEPARATOR = '\u001f';

/**
 * The searched fields in the groups a trigram index each covers: the display
 * field alone (a name), then the others together (legal name, domain, email,
 * city). A match of `q` is a match in any group; similar spellings are looked
 * for in names only, through the display field's own index, whose entries
 * are short: over a group holding emails and cities too, a seven-letter typo
 * shares half its trigrams with tens of thousands of rows at a million
 * contacts that are then read and dropped (decision 0029).
 */
export function searchParts(entity: EntityDescription): string[][] {
  const fields = searchFields(entity);
  const named = fields.filter((field) => field === entity.display);
  const others = fields.filter((field) => field !== entity.display);
  return [named, others].filter((part) => part.length > 0);
}

/**
 * The text of one group of searched fields: one field is its column; several
 * are joined with `||` (which unlike `concat_ws` is immutable, as an index
 * expression must be), with a separator no search box text holds, so that a
 * match never spans two fields. The planner uses an index only when the
 * query writes its expression exactly so: db/schema.ts builds the indexes
 * from here too.
 */
export function searchPartText(fields: readonly string[], columnOf: (field: string) => SQL): SQL {
  if (fields.length === 1) return columnOf(fields[0] as string);
  return sql.join(
    fields.map((field) => sql`coalesce(${columnOf(field)}, '')`),
    sql.raw(` || chr(${SEARCH_SEPARATOR.charCodeAt(0)}) || `),
  );
}

/** The texts `q` is matched against, one per group of `searchParts`. */
export function searchTexts(entity: EntityDescription, columnOf: (field: string) => SQL): SQL[] {
  return searchParts(entity).map((part) => searchPartText(part, columnOf));
}

/** Any searched field of the row matches `pattern` (an `ilike` pattern): one test per group, each read by its index. */
export function searchMatches(entity: EntityDescription, columnOf: (field: string) => SQL, pattern: SQL): SQL {
  const texts = searchTexts(entity, columnOf);
  if (texts.length === 0) return sql`false`;
  return sql`(${sql.join(
    texts.map((text) => sql`(${text}) ilike ${pattern}`),
    sql` or `,
  )})`;
}
