import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { type FieldDescription, filterOps, numericTypes } from '@data-platform/shared/fields/field-types';
import fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import type { Answer } from './factories.ts';

/**
 * fast-check arbitraries for requests a client could send to the generic
 * routes of any entity description (custom fields included, when the
 * description carries them): mostly close to valid, sometimes anything.
 */

const awkward = fc.constantFrom(
  '',
  ' ',
  '%',
  '_',
  '\\',
  "'",
  '"',
  '\0',
  'a\0b',
  '💥',
  '\uD800',
  'é',
  '1e400',
  'NaN',
  'Infinity',
  '-0',
  '0x1F',
  '2024-02-30',
  '2024-01-01',
  '2024-01-01T25:00:00Z',
  '2024-06-30T12:00:00.123456+02:00',
  '0001-01-01',
  '99999-01-01',
  '9999999999999999999999',
  '-1',
  '1.5',
  'true',
  'null',
  ',',
  ',,',
  'a,b',
  '1,2,3',
  '()',
  ')(',
  '((',
  '__proto__',
  'constructor',
  'USD',
  'Seed',
  'x'.repeat(600),
);

/** Text of every awkward kind: SQL and LIKE metacharacters, NUL, lone surrogates, numbers and dates that are not. */
export const text = fc.oneof(
  { weight: 3, arbitrary: awkward },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

function fieldNames(entity: EntityDescription): string[] {
  return Object.keys(allFields(entity));
}

function relationNames(entity: EntityDescription): string[] {
  const references = Object.entries(allFields(entity))
    .filter(([name, f]) => f.type === 'reference' && f.to && name.endsWith('Id'))
    .map(([name]) => referenceRelationName(name));
  return [...Object.keys(entity.relations ?? {}), ...references];
}

/** A name that is usually a real field of the entity, sometimes anything. */
export const fieldOf = (entity: EntityDescription) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fieldNames(entity)) }, { weight: 1, arbitrary: text });

export const listOf = (item: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.array(item, { maxLength: 4 }), fc.constantFrom(',', ', ', ',,'))
    .map(([items, separator]) => items.join(separator));

export const sortOf = (entity: EntityDescription) =>
  listOf(fc.tuple(fc.constantFrom('', '-', '+', '--'), fieldOf(entity)).map(([dir, field]) => `${dir}${field}`));

export const joinOf = (entity: EntityDescription) =>
  listOf(
    fc
      .tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('x', ...relationNames(entity)) },
          { weight: 1, arbitrary: text },
        ),
        fc.option(listOf(fc.oneof(fc.constantFrom('id', 'name', 'fullName', 'asOfDate', 'role'), text)), {
          nil: undefined,
        }),
        fc.constantFrom('', ')', '('),
      )
      .map(([relation, fields, extra]) => (fields === undefined ? relation : `${relation}(${fields})${extra}`)),
  );

export const opOf = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...filterOps) }, { weight: 1, arbitrary: text });

const numberish = fc.oneof(
  fc.integer({ min: -5, max: 2_000 }).map(String),
  fc.constantFrom('1e5', '100000', '100001', '1.5', '', 'abc', '0', '-1', '9'.repeat(30)),
);

/** Query-string pairs of a list request; keys may repeat. */
export const queryPairsOf = (entity: EntityDescription) =>
  fc
    .record(
      {
        select: listOf(fieldOf(entity)),
        sort: sortOf(entity),
        join: joinOf(entity),
        q: text,
        page: numberish,
        pageSize: numberish,
        cursor: text,
        filters: fc.array(
          fc
            .tuple(fieldOf(entity), fc.option(opOf, { nil: undefined }), text)
            .map(([field, op, value]): [string, string] => [
              op === undefined ? `filter[${field}]` : `filter[${field}][${op}]`,
              value,
            ]),
          { maxLength: 4 },
        ),
        other: fc.array(fc.tuple(text, text), { maxLength: 1 }),
      },
      { requiredKeys: [] },
    )
    .map(({ filters, other, ...rest }): [string, string][] => [
      ...Object.entries(rest),
      ...(filters ?? []),
      ...(other ?? []),
    ]);

const listResponseShape = z.object({
  data: z.array(z.object({ id: z.number() }).loose()),
  page: z.number(),
  pageSize: z.number(),
  total: z.number().nullable(),
  totalExact: z.boolean().nullable(),
  nextCursor: z.string().nullable(),
});
const errorShape = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    // A stable code per refused field, beside its message (http/errors.ts).
    issues: z.record(z.string(), z.looseObject({ code: z.string() })).optional(),
  }),
});

/** A list answer or a 400 refusal, each in its shape; fails with what was asked otherwise. */
export function expectListOrRefusal(answer: Answer<unknown>, asked: string) {
  if (answer.status === 200) {
    const parsed = listResponseShape.safeParse(answer.body);
    expect(parsed.success, `${asked}\n${JSON.stringify(answer.body).slice(0, 500)}`).toBe(true);
  } else {
    expect(answer.status, `${asked}\n${JSON.stringify(answer.body)}`).toBe(400);
    expect(errorShape.safeParse(answer.body).success, `${asked}\n${JSON.stringify(answer.body)}`).toBe(true);
  }
}

/** A `POST /{resource}/query` body: real field names and operators mostly, nested groups, anything else sometimes. */
export const queryBodyOf = (entity: EntityDescription) => {
  const scalar = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
  const condition = fc.record(
    { field: fieldOf(entity), op: opOf, value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })) },
    { requiredKeys: ['field', 'op'] },
  );
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      condition,
      fc.record({ and: fc.array(tie('node'), { maxLength: 3 }) }),
      fc.record({ or: fc.array(tie('node'), { maxLength: 3 }) }),
    ),
  }));
  const stringOrList = (arb: fc.Arbitrary<string>) => fc.oneof(arb, fc.array(arb, { maxLength: 3 }));
  return fc.record(
    {
      select: stringOrList(listOf(fieldOf(entity))),
      join: stringOrList(joinOf(entity)),
      sort: stringOrList(sortOf(entity)),
      where: node,
      filter: fc.dictionary(fieldOf(entity), fc.dictionary(opOf, scalar, { maxKeys: 2 }), { maxKeys: 2 }),
      page: fc.oneof(fc.integer({ min: -2, max: 200_000 }), fc.double(), text),
      pageSize: fc.oneof(fc.integer({ min: -2, max: 2_000 }), fc.double(), text),
      q: text,
      cursor: text,
      extra: scalar,
    },
    { requiredKeys: [] },
  );
};

/** A value that is often close to what the field takes, sometimes anything JSON can say. */
function randomValue(field: FieldDescription): fc.Arbitrary<unknown> {
  const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1e308, 1.5));
  const shortText = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', ' ', '\u0000', 'x'.repeat(400), '💥'));
  const typed: Partial<Record<FieldDescription['type'], fc.Arbitrary<unknown>>> = {
    reference: fc.oneof(fc.integer({ min: 1, max: 6 }), number),
    money: fc.record({ amount: number, currency: fc.constantFrom('USD', 'EUR', 'ZZZ', 'usd', '') }),
    date: fc.constantFrom('2024-01-31', '2024-02-30', '0000-01-01', '9999-12-31', 'soon'),
    datetime: fc.constantFrom('2024-01-31T10:00:00Z', 'now'),
    select: fc.constantFrom(...(field.options ?? ['x']), 'nope'),
    multiSelect: fc.array(fc.constantFrom(...(field.options ?? ['x']), 'nope'), { maxLength: 3 }),
    tags: fc.array(shortText, { maxLength: 3 }),
    emails: fc.array(fc.constantFrom('a@example.com', 'nope', 'A@EXAMPLE.COM'), { maxLength: 3 }),
    email: fc.constantFrom('a@example.com', 'b@example.com', 'nope', ''),
    url: fc.constantFrom('https://example.com', 'ftp://x', 'javascript:alert(1)', 'https://example.com/\u0000'),
    currency: fc.constantFrom('USD', 'EUR', 'ZZZ', 'usd'),
    boolean: fc.boolean(),
  };
  const close = typed[field.type] ?? (numericTypes.has(field.type) ? number : shortText);
  return fc.oneof({ weight: 4, arbitrary: close }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
}

/** Some of the writable fields with random values, sometimes with a property that is not writable. */
export const writeBodyOf = (fields: Record<string, FieldDescription>) => {
  const stranger = fc.constantFrom('id', 'version', 'createdById', 'bogus', '__proto__');
  return fc
    .tuple(fc.subarray(Object.keys(fields)), fc.option(fc.tuple(stranger, fc.jsonValue()), { freq: 4, nil: undefined }))
    .chain(([chosen, extra]) =>
      fc.tuple(...chosen.map((name) => randomValue(fields[name] as FieldDescription))).map((values) => ({
        ...(extra ? { [extra[0]]: extra[1] } : {}),
        ...Object.fromEntries(chosen.map((name, i) => [name, values[i]])),
      })),
    );
};
