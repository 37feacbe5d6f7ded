import {
  allFields,
  type EntityDescription,
  operationsOf,
  referenceRelationName,
} from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import { filterOps } from '@data-platform/shared/fields/field-types';
import { parseSort } from '@data-platform/shared/query/list-query';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Answer, type ApiClient, adminClient, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Whatever a client puts in a list request, the answer is a list (200) or a
 * refusal naming what is wrong (400); never a server error.
 */

let server: TestServer;
let api: ApiClient;
/** An existing record id per resource, for relation lists. */
const someId: Record<string, number> = {};

const listable = entityList.filter((e) => operationsOf(e).includes('list'));

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  const company = await make.company({ tags: ['a', 'b'], revenue: { amount: 5, currency: 'EUR' }, city: 'Oslo' });
  await make.company({ name: 'Null Co' });
  const contact = await make.contact({ otherEmails: ['x@example.com'] });
  await make.link('contactCompanies', { contactId: contact.id, companyId: company.id, role: 'CEO' });
  const fund = await make.fund({ geographyFocus: ['Europe'], firmId: (await make.firm()).id });
  await make.fundPerformance(fund.id, { paidIn: 10, nav: 4 });
  const deal = await make.deal({ fundId: fund.id, expectedCloseDate: '2025-01-01' });
  await make.link('dealInvestors', {
    dealId: deal.id,
    investorId: (await make.investor()).id,
    commitment: { amount: 1, currency: 'USD' },
  });
  await make.note('companies', company.id, 'Met the founders');
  for (const entity of listable) {
    const first = await api.list(`/api/v1/${entity.name}`, { pageSize: 1, select: 'id' });
    if (first.body.data?.[0]) someId[entity.name] = first.body.data[0].id;
  }
});

afterAll(async () => server?.close());

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

const text = fc.oneof(
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
const fieldOf = (entity: EntityDescription) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fieldNames(entity)) }, { weight: 1, arbitrary: text });

const listOf = (item: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.array(item, { maxLength: 4 }), fc.constantFrom(',', ', ', ',,'))
    .map(([items, separator]) => items.join(separator));

const sortOf = (entity: EntityDescription) =>
  listOf(fc.tuple(fc.constantFrom('', '-', '+', '--'), fieldOf(entity)).map(([dir, field]) => `${dir}${field}`));

const joinOf = (entity: EntityDescription) =>
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

const opOf = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...filterOps) }, { weight: 1, arbitrary: text });

const numberish = fc.oneof(
  fc.integer({ min: -5, max: 2_000 }).map(String),
  fc.constantFrom('1e5', '100000', '100001', '1.5', '', 'abc', '0', '-1', '9'.repeat(30)),
);

/** Query-string pairs of a list request; keys may repeat. */
const queryPairsOf = (entity: EntityDescription) =>
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
  total: z.number(),
  totalExact: z.boolean(),
  nextCursor: z.string().nullable(),
});
const errorShape = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }),
});

/** A list answer or a 400 refusal, each in its shape; fails with what was asked otherwise. */
function expectListOrRefusal(answer: Answer<unknown>, asked: string) {
  if (answer.status === 200) {
    const parsed = listResponseShape.safeParse(answer.body);
    expect(parsed.success, `${asked}\n${JSON.stringify(answer.body).slice(0, 500)}`).toBe(true);
  } else {
    expect(answer.status, `${asked}\n${JSON.stringify(answer.body)}`).toBe(400);
    expect(errorShape.safeParse(answer.body).success, `${asked}\n${JSON.stringify(answer.body)}`).toBe(true);
  }
}

const entityArb = fc.constantFrom(...listable);
const runs = { numRuns: 250 };

describe('list requests never fail on the server', () => {
  it('GET with random select, sort, join, filter, q, page, pageSize and cursor', async () => {
    const request = entityArb.chain((entity) =>
      fc.record({
        entity: fc.constant(entity),
        pairs: queryPairsOf(entity),
        relation: fc.option(fc.constantFrom(...Object.keys(entity.relations ?? {}), 'none'), {
          freq: 3,
          nil: undefined,
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ entity, pairs, relation }) => {
        const params = new URLSearchParams(pairs);
        const base =
          relation && relation !== 'none' && someId[entity.name]
            ? `/api/v1/${entity.name}/${someId[entity.name]}/${relation}`
            : `/api/v1/${entity.name}`;
        const path = `${base}?${params}`;
        expectListOrRefusal(await api.send('GET', path), `GET ${path}`);
      }),
      runs,
    );
  });

  it('POST /query with random bodies and nested where groups', async () => {
    const bodyOf = (entity: EntityDescription) => {
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
    const request = entityArb.chain((entity) => fc.record({ entity: fc.constant(entity), body: bodyOf(entity) }));
    await fc.assert(
      fc.asyncProperty(request, async ({ entity, body }) => {
        const answer = await api.query(`/api/v1/${entity.name}`, body);
        expectListOrRefusal(answer, `POST /api/v1/${entity.name}/query ${JSON.stringify(body)}`);
      }),
      runs,
    );
  });

  it('cursors of the right order with values of any kind', async () => {
    const request = entityArb.chain((entity) => {
      const sortable = Object.entries(allFields(entity))
        .filter(([, f]) => f.sortable)
        .map(([name]) => name);
      return fc.record({
        entity: fc.constant(entity),
        sort: fc
          .uniqueArray(fc.tuple(fc.constantFrom('', '-'), fc.constantFrom(...sortable)), {
            minLength: 1,
            maxLength: 3,
            selector: ([, f]) => f,
          })
          .map((keys) => keys.map(([dir, f]) => `${dir}${f}`).join(',')),
        q: fc.option(fc.constantFrom('a', 'acme', '%'), { nil: undefined }),
        values: fc.array(fc.oneof(text, fc.double(), fc.integer(), fc.constant(null)), { maxLength: 5 }),
        fitValues: fc.boolean(),
      });
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ entity, sort, q, values, fitValues }) => {
        const keys = parseSort(entity, sort, {});
        const signature = keys.map((k) => (k.dir === 'desc' ? `-${k.field}` : k.field)).join(',');
        const count = keys.length;
        const v = fitValues ? Array.from({ length: count }, (_, i) => values[i] ?? null) : values;
        const cursor = Buffer.from(JSON.stringify({ o: signature, v })).toString('base64url');
        const params = new URLSearchParams({ sort, cursor, pageSize: '3', ...(q ? { q } : {}) });
        const path = `/api/v1/${entity.name}?${params}`;
        expectListOrRefusal(await api.send('GET', path), `GET ${path} with cursor values ${JSON.stringify(v)}`);
      }),
      { numRuns: 200 },
    );
  });

  it('real cursors walk to the end under random valid sorts', async () => {
    const request = fc.record({
      sort: fc.constantFrom('name', '-city', 'city,-revenue', '-employees,stage', 'revenue', '-createdAt'),
      pageSize: fc.integer({ min: 1, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ sort, pageSize }) => {
        const seen: Row[] = [];
        let cursor: string | undefined;
        let total = 0;
        do {
          const answer = await api.list('/api/v1/companies', { sort, pageSize, cursor });
          expect(answer.status).toBe(200);
          total = answer.body.total;
          seen.push(...answer.body.data);
          cursor = answer.body.nextCursor ?? undefined;
        } while (cursor && seen.length <= total);
        expect(seen).toHaveLength(total);
        expect(new Set(seen.map((r) => r.id)).size).toBe(total);
      }),
      { numRuns: 20 },
    );
  });
});
