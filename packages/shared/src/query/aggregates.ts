import { z } from 'zod';
import { allFields, type EntityDescription } from '../entities/entity.ts';
import { aggregatableFields, groupableFields, MAX_AGGREGATE_FIELDS } from './aggregate-fields.ts';
import { type FieldErrors, type FilterNode, MAX_Q_LENGTH, parseListQueryString, QueryError } from './list-query.ts';

/**
 * `GET /{resource}/aggregates`: the totals of a whole filtered list (not of
 * the rows a client has loaded), optionally per option of one picklist.
 *
 * Numbers come as decimal strings, exactly as the database computes them
 * (sums of numeric values have no float drift; averages keep Postgres's
 * numeric precision, trailing zeros trimmed). Money and amounts with a
 * currency field are totalled per currency and never summed across them.
 */

/** The query string: the list's filters and search, plus what to total and group by. */
export const aggregatesQueryStringSchema = z.looseObject({
  fields: z
    .string()
    .max(5000)
    .optional()
    .describe('Comma-separated fields to total (numbers and money); all the reader may read when absent'),
  groupBy: z.string().max(100).optional().describe('A picklist field: subtotals per option, in option order'),
  q: z.string().max(MAX_Q_LENGTH).optional(),
});

/** A validated totals request. */
export interface AggregatesQuery {
  fields: string[];
  groupBy?: string;
  where?: FilterNode;
  q?: string;
}

/**
 * Reads the query string against the reader's description (an unreadable
 * field is unknown). Filters and search are read by the list's own parser.
 * @throws QueryError naming each bad parameter
 */
export function parseAggregatesQuery(entity: EntityDescription, raw: Record<string, unknown>): AggregatesQuery {
  const errors: FieldErrors = {};
  const { fields: fieldsText, groupBy: groupText, ...rest } = raw;
  for (const key of Object.keys(rest)) {
    if (key !== 'q' && !/^filter\[[^[\]]+\](?:\[[^[\]]+\])?$/.test(key)) {
      errors[key.slice(0, 100)] = `Unknown parameter ${key.slice(0, 100)}`;
    }
  }
  const known = allFields(entity);
  const totalled = new Set(aggregatableFields(entity));
  let fields = aggregatableFields(entity);
  if (fieldsText !== undefined) {
    if (typeof fieldsText !== 'string') errors.fields = 'Expected text';
    else {
      const names = [
        ...new Set(
          fieldsText
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = names.filter((n) => !Object.hasOwn(known, n));
      const other = names.filter((n) => Object.hasOwn(known, n) && !totalled.has(n));
      if (unknown.length > 0) errors.fields = `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`;
      else if (other.length > 0) {
        errors.fields = `${other.join(', ')} cannot be totalled; fields with totals: ${[...totalled].join(', ') || 'none'}`;
      } else if (names.length > MAX_AGGREGATE_FIELDS) errors.fields = `At most ${MAX_AGGREGATE_FIELDS} fields`;
      fields = names;
    }
  }
  let groupBy: string | undefined;
  if (groupText !== undefined && groupText !== '') {
    const groupable = groupableFields(entity);
    if (typeof groupText !== 'string') errors.groupBy = 'Expected text';
    else if (!Object.hasOwn(known, groupText)) errors.groupBy = `Unknown field ${groupText.slice(0, 100)}`;
    else if (!groupable.includes(groupText)) {
      errors.groupBy = `${groupText} is not a picklist; group by one of ${groupable.join(', ') || 'none'}`;
    } else groupBy = groupText;
  }
  let filtered: Pick<AggregatesQuery, 'where' | 'q'> = {};
  try {
    const list = parseListQueryString(entity, rest);
    filtered = { where: list.where, q: list.q };
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    for (const [key, message] of Object.entries(error.fields)) errors[key] ??= message;
  }
  if (Object.keys(errors).length > 0) throw new QueryError(errors);
  return { fields, groupBy, ...filtered };
}

const decimal = z.string().nullable().describe('An exact decimal as text; null when no row has a value');

/** Count, sum, average, min and max of the rows that have a value. */
const statsSchema = z.object({
  count: z.number().int().describe('Rows with a value'),
  sum: decimal,
  avg: decimal,
  min: decimal,
  max: decimal,
});

/** One field's totals: numbers in one set; money per currency, never summed across currencies. */
export const fieldTotalsSchema = z.discriminatedUnion('kind', [
  statsSchema.extend({ kind: z.literal('number') }),
  z.object({
    kind: z.literal('money'),
    count: z.number().int().describe('Rows with a value, all currencies'),
    currencies: z
      .array(statsSchema.extend({ currency: z.string().nullable() }))
      .describe('One set per currency, by currency code'),
  }),
]);

export const aggregatesResponseSchema = z.object({
  count: z.number().int().describe('Rows of the filtered list'),
  fields: z.record(z.string(), fieldTotalsSchema),
  groupBy: z.string().nullable(),
  groups: z
    .array(
      z.object({
        value: z.string().nullable().describe('The option; null for rows without one (last)'),
        count: z.number().int(),
        fields: z.record(z.string(), fieldTotalsSchema),
      }),
    )
    .nullable()
    .describe('Subtotals per option of groupBy, in the options order; null without groupBy'),
});

export type Stats = z.infer<typeof statsSchema>;
export type FieldTotals = z.infer<typeof fieldTotalsSchema>;
export type AggregatesResponse = z.infer<typeof aggregatesResponseSchema>;
