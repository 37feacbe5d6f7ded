import { z } from 'zod';
import { allFields, type EntityDescription, referenceRelationName } from '../entities/entity.ts';
import { findEntity } from '../entities/registry.ts';
import { type FieldDescription, type FilterOp, filterOps, isSortable, opsByType } from '../fields/field-types.ts';

export { isSortable };

import { filterValueSchema } from '../fields/value-schemas.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
export const MAX_PAGE = 100_000;
export const MAX_Q_LENGTH = 200;
export const MAX_FILTER_DEPTH = 4;
export const MAX_CONDITIONS = 50;

/**
 * How a list's total is obtained, when the caller asks for one (`count=`);
 * without it a list answers `total: null` and counts nothing:
 * - `exact`: counted, in the same statement as the page;
 * - `planned`: the planner's estimate, never a scan;
 * - `estimated`: exact when the planner expects at most `ESTIMATED_COUNT_THRESHOLD`
 *   rows, the estimate above; decided before anything is counted.
 */
export const countModes = ['exact', 'planned', 'estimated'] as const;
export type CountMode = (typeof countModes)[number];
/** `count=estimated` counts exactly when the planner expects at most this many rows. */
export const ESTIMATED_COUNT_THRESHOLD = 10_000;
const countSchema = z.enum(countModes, { error: `Expected one of ${countModes.join(', ')}` });

export interface Condition {
  field: string;
  op: FilterOp;
  /** parsed value; an array for `in`, undefined for isNull/notNull */
  value?: unknown;
}
export type FilterNode = Condition | { and: FilterNode[] } | { or: FilterNode[] };

export interface SortKey {
  field: string;
  dir: 'asc' | 'desc';
}

export interface JoinSpec {
  /** relation name as requested (`states`, `hqCountry`, `contacts`) */
  relation: string;
  /** the resource the relation leads to */
  target: string;
  fields: string[];
  /** Set by the server for a reader the target's `limitedRead` limits: embed only the rows they may see. */
  limitedRows?: boolean;
}

/** A validated list request: every field name is known to the entity description. */
export interface ListQuery {
  select?: string[];
  join: JoinSpec[];
  where?: FilterNode;
  /** sort keys, always ending with `id` as the tie-break */
  sort: SortKey[];
  /** false when the entity's default order was used (search then ranks matches first) */
  sortGiven: boolean;
  page: number;
  pageSize: number;
  q?: string;
  cursor?: string;
  /** The total asked for; none when absent. */
  count?: CountMode;
}

export type FieldErrors = Record<string, string>;

export class QueryError extends Error {
  constructor(readonly fields: FieldErrors) {
    super(Object.values(fields).join('; '));
  }
}

/** Splits `a,b(c,d),e` on the commas that are not inside parentheses. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  return parts.filter((p) => p.length > 0);
}

type RelationTarget = { target: EntityDescription };

/** The entity a relation name leads to, from named relations or reference fields. */
export function relationTarget(entity: EntityDescription, relation: string): RelationTarget | undefined {
  const named = entity.relations?.[relation];
  if (named && Object.hasOwn(entity.relations ?? {}, relation)) {
    if (named.kind === 'hasMany') {
      const target = findEntity(named.to);
      return target ? { target } : undefined;
    }
    const via = findEntity(named.via);
    const to = via?.fields[named.target]?.to;
    const target = to ? findEntity(to) : undefined;
    return target ? { target } : undefined;
  }
  const fields = allFields(entity);
  for (const [name, field] of Object.entries(fields)) {
    if (field.type === 'reference' && field.to && referenceRelationName(name) === relation && name !== relation) {
      const target = findEntity(field.to);
      return target ? { target } : undefined;
    }
  }
  return undefined;
}

function knownField(entity: EntityDescription, name: string): FieldDescription | undefined {
  const fields = allFields(entity);
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

function parseFieldList(entity: EntityDescription, text: string, key: string, errors: FieldErrors): string[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !knownField(entity, n));
  if (unknown.length > 0) errors[key] = `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`;
  return [...new Set(names)];
}

function parseJoin(entity: EntityDescription, text: string, errors: FieldErrors): JoinSpec[] {
  const specs: JoinSpec[] = [];
  const problems: string[] = [];
  for (const part of splitTopLevel(text)) {
    const m = /^([A-Za-z][A-Za-z0-9]*)(?:\(([^()]*)\))?$/.exec(part);
    if (!m) {
      problems.push(`Expected relation(field,field), got ${part.slice(0, 100)}`);
      continue;
    }
    const relation = m[1] as string;
    const found = relationTarget(entity, relation);
    if (!found) {
      problems.push(`Unknown relation ${relation.slice(0, 100)}`);
      continue;
    }
    const fields =
      m[2] === undefined || m[2].trim() === ''
        ? [found.target.display]
        : parseFieldList(found.target, m[2], `join[${relation}]`, errors);
    // A relation named twice is joined once, with the fields of both: joins stay as few as the relations.
    const earlier = specs.find((spec) => spec.relation === relation);
    if (earlier) earlier.fields = [...new Set([...earlier.fields, ...fields])];
    else specs.push({ relation, target: found.target.name, fields });
  }
  if (problems.length > 0) errors.join = problems.join('; ');
  return specs;
}

export function parseSort(entity: EntityDescription, text: string | undefined, errors: FieldErrors): SortKey[] {
  const keys: SortKey[] = [];
  const problems: string[] = [];
  const spec = text?.trim() ? text : entity.list.defaultSort;
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const dir = part.startsWith('-') ? 'desc' : 'asc';
    const field = part.replace(/^[-+]/, '');
    const description = knownField(entity, field);
    if (!description) problems.push(`Unknown field ${field.slice(0, 100)}`);
    else if (!isSortable(description)) problems.push(`Field ${field} cannot be sorted`);
    else if (!keys.some((k) => k.field === field)) keys.push({ field, dir });
  }
  if (problems.length > 0) errors.sort = problems.join('; ');
  const idIndex = keys.findIndex((k) => k.field === 'id');
  if (idIndex >= 0) return keys.slice(0, idIndex + 1);
  keys.push({ field: 'id', dir: keys.at(-1)?.dir ?? 'asc' });
  return keys;
}

/** Validates one condition; values arrive as text (query string) or JSON scalars. */
export function parseCondition(
  entity: EntityDescription,
  field: string,
  op: string,
  raw: unknown,
  key: string,
  errors: FieldErrors,
): Condition | undefined {
  const description = knownField(entity, field);
  if (!description) {
    errors[key] = `Unknown field ${field}`;
    return undefined;
  }
  if (!description.filterable) {
    errors[key] = `Field ${field} cannot be filtered`;
    return undefined;
  }
  if (!(filterOps as readonly string[]).includes(op)) {
    errors[key] = `Unknown operator ${op}; expected one of ${filterOps.join(', ')}`;
    return undefined;
  }
  const filterOp = op as FilterOp;
  if (!opsByType[description.type].includes(filterOp)) {
    errors[key] = `Operator ${op} does not apply to ${field}; use one of ${opsByType[description.type].join(', ')}`;
    return undefined;
  }
  if (filterOp === 'isNull' || filterOp === 'notNull') {
    if (raw !== undefined && raw !== '' && raw !== true && raw !== 'true') {
      errors[key] = `Operator ${op} takes no value`;
      return undefined;
    }
    return { field, op: filterOp };
  }
  const schema = filterValueSchema(description);
  const read = (v: unknown) => {
    const result = schema.safeParse(typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
    if (!result.success) errors[key] = result.error.issues[0]?.message ?? 'Invalid value';
    return result.success ? result.data : undefined;
  };
  if (filterOp === 'in') {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
    if (items.length === 0 || items.length > 1000) {
      errors[key] = 'Expected between 1 and 1000 values';
      return undefined;
    }
    const values = items.map(read);
    return errors[key] ? undefined : { field, op: filterOp, value: values };
  }
  if (Array.isArray(raw)) {
    errors[key] = `Operator ${op} takes one value`;
    return undefined;
  }
  if (filterOp === 'contains' || filterOp === 'startsWith') {
    if (typeof raw !== 'string' || raw.length === 0) {
      errors[key] = 'Expected some text';
      return undefined;
    }
  }
  const value = read(raw);
  return errors[key] ? undefined : { field, op: filterOp, value };
}

const scalar = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);
// The number of values is checked by parseCondition, which names the limit; the body's size bounds it meanwhile.
const filterValue = z.union([scalar, z.array(scalar)]);
const conditionSchema = z.strictObject({
  field: z.string().max(100),
  op: z.string().max(20),
  value: filterValue.optional(),
});
type RawNode = z.infer<typeof conditionSchema> | { and: RawNode[] } | { or: RawNode[] };
const nodeSchema: z.ZodType<RawNode> = z.lazy(() =>
  z.union([
    conditionSchema,
    z.strictObject({ and: z.array(nodeSchema).max(MAX_CONDITIONS) }),
    z.strictObject({ or: z.array(nodeSchema).max(MAX_CONDITIONS) }),
  ]),
);

/**
 * Checks the shape of a `where` tree without recursion, before the recursive
 * schema reads it: a body nested a thousand groups deep overflowed the stack
 * of the schema (a 500) before its depth was ever compared with the limit.
 * What is not a group is left for the schema to judge.
 */
function checkWhereBounds(where: unknown, ctx: z.RefinementCtx): unknown {
  let conditions = 0;
  let groups = 0;
  const pending: [unknown, number][] = [[where, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    const group = node && typeof node === 'object' ? (node as { and?: unknown; or?: unknown }) : {};
    const children = group.and ?? group.or;
    if (!Array.isArray(children)) {
      conditions += 1;
    } else {
      groups += 1;
      if (depth > MAX_FILTER_DEPTH) {
        ctx.addIssue({ code: 'custom', message: `Groups nest at most ${MAX_FILTER_DEPTH} deep` });
        return where;
      }
      for (const child of children.slice(0, MAX_CONDITIONS + 1)) pending.push([child, depth + 1]);
    }
    if (conditions > MAX_CONDITIONS || groups > MAX_CONDITIONS) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_CONDITIONS} conditions and ${MAX_CONDITIONS} groups` });
      return where;
    }
  }
  return where;
}

const stringList = z.union([
  z.string().max(5000),
  z
    .array(z.string().max(200))
    .max(200)
    .transform((a) => a.join(',')),
]);

/** The JSON body of `POST /{resource}/query`: the list parameters plus nested and/or groups. */
export const listBodySchema = z.strictObject({
  select: stringList.optional(),
  join: stringList.optional(),
  filter: z.record(z.string(), z.record(z.string(), filterValue)).optional(),
  where: z.preprocess(checkWhereBounds, nodeSchema).optional(),
  sort: stringList.optional(),
  page: z.number().int().min(1).max(MAX_PAGE).optional(),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  q: z.string().max(MAX_Q_LENGTH).optional(),
  cursor: z.string().max(4000).optional(),
  count: countSchema.optional(),
});
export type ListBody = z.infer<typeof listBodySchema>;

/** The query-string form of the list parameters, before field names are checked. */
export const listQueryStringSchema = z.looseObject({
  select: z.string().max(5000).optional(),
  join: z.string().max(5000).optional(),
  sort: z.string().max(1000).optional(),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  q: z.string().max(MAX_Q_LENGTH).optional(),
  cursor: z.string().max(4000).optional(),
  count: countSchema.optional(),
});

function parseNode(
  entity: EntityDescription,
  node: RawNode,
  path: string,
  errors: FieldErrors,
): FilterNode | undefined {
  if ('and' in node || 'or' in node) {
    const kind = 'and' in node ? 'and' : 'or';
    const children = 'and' in node ? node.and : node.or;
    const parsed = children
      .map((c, i) => parseNode(entity, c, `${path}.${kind}[${i}]`, errors))
      .filter((c): c is FilterNode => c !== undefined);
    return kind === 'and' ? { and: parsed } : { or: parsed };
  }
  return parseCondition(entity, node.field, node.op, node.value ?? undefined, `${path}.${node.field}`, errors);
}

interface CommonParams {
  select?: string;
  join?: string;
  sort?: string;
  page?: number;
  pageSize?: number;
  q?: string;
  cursor?: string;
  count?: CountMode;
}

function buildQuery(entity: EntityDescription, p: CommonParams, conditions: FilterNode[], errors: FieldErrors) {
  const query: ListQuery = {
    select: p.select !== undefined ? parseFieldList(entity, p.select, 'select', errors) : undefined,
    join: p.join ? parseJoin(entity, p.join, errors) : [],
    sort: parseSort(entity, p.sort, errors),
    sortGiven: Boolean(p.sort?.trim()),
    page: p.page ?? 1,
    pageSize: p.pageSize ?? DEFAULT_PAGE_SIZE,
    q: p.q?.trim() ? p.q.trim() : undefined,
    cursor: p.cursor || undefined,
    count: p.count,
  };
  if (conditions.length > MAX_CONDITIONS) errors.filter = `At most ${MAX_CONDITIONS} conditions`;
  if (conditions.length === 1) query.where = conditions[0];
  else if (conditions.length > 1) query.where = { and: conditions };
  if (Object.keys(errors).length > 0) throw new QueryError(errors);
  return query;
}

function zodErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) fields[issue.path.join('.') || 'query'] ??= issue.message;
  return fields;
}

/**
 * Reads `GET /{resource}` query parameters. Filters come as `filter[field][op]=value`.
 * @throws QueryError naming each bad parameter
 */
export function parseListQueryString(entity: EntityDescription, raw: Record<string, unknown>): ListQuery {
  const parsed = listQueryStringSchema.safeParse(raw);
  if (!parsed.success) throw new QueryError(zodErrors(parsed.error));
  const errors: FieldErrors = {};
  const conditions: FilterNode[] = [];
  const known = new Set(['select', 'join', 'sort', 'page', 'pageSize', 'q', 'cursor', 'count']);
  for (const [key, value] of Object.entries(raw)) {
    if (known.has(key)) continue;
    const m = /^filter\[([^[\]]+)\](?:\[([^[\]]+)\])?$/.exec(key);
    if (!m) {
      errors[key.slice(0, 100)] = `Unknown parameter ${key.slice(0, 100)}`;
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== 'string') {
        errors[key] = 'Expected text';
        continue;
      }
      const c = parseCondition(entity, m[1] as string, m[2] ?? 'eq', v, key, errors);
      if (c) conditions.push(c);
    }
  }
  return buildQuery(entity, parsed.data, conditions, errors);
}

/**
 * Reads the JSON body of `POST /{resource}/query`.
 * @throws QueryError naming each bad parameter
 */
export function parseListBody(entity: EntityDescription, raw: unknown): ListQuery {
  const parsed = listBodySchema.safeParse(raw ?? {});
  if (!parsed.success) throw new QueryError(zodErrors(parsed.error));
  const body = parsed.data;
  const errors: FieldErrors = {};
  const conditions: FilterNode[] = [];
  for (const [field, ops] of Object.entries(body.filter ?? {})) {
    for (const [op, value] of Object.entries(ops)) {
      const c = parseCondition(entity, field, op, value ?? undefined, `filter[${field}][${op}]`, errors);
      if (c) conditions.push(c);
    }
  }
  if (body.where) {
    const node = parseNode(entity, body.where, 'where', errors);
    if (node) conditions.push(node);
  }
  return buildQuery(entity, body, conditions, errors);
}

/** Parameters for `GET /{resource}/{id}`. */
export const getQueryStringSchema = z.strictObject({
  select: z.string().max(5000).optional(),
  join: z.string().max(5000).optional(),
});

export function parseGetQuery(entity: EntityDescription, raw: unknown): Pick<ListQuery, 'select' | 'join'> {
  const parsed = getQueryStringSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new QueryError(zodErrors(parsed.error));
  const errors: FieldErrors = {};
  const result = {
    select: parsed.data.select !== undefined ? parseFieldList(entity, parsed.data.select, 'select', errors) : undefined,
    join: parsed.data.join ? parseJoin(entity, parsed.data.join, errors) : [],
  };
  if (Object.keys(errors).length > 0) throw new QueryError(errors);
  return result;
}

/**
 * The list answer. `total` is null unless a count was asked for (`count=`);
 * `totalExact` says whether it was counted (true) or is the planner's
 * estimate (false), and is null with no total.
 */
export interface ListResponse<Row = Record<string, unknown>> {
  data: Row[];
  page: number;
  pageSize: number;
  total: number | null;
  totalExact: boolean | null;
  nextCursor: string | null;
}
