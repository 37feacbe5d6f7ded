import { allFields, type EntityDescription, operationsOf } from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import { parseSort } from '@data-platform/shared/query/list-query';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectListOrRefusal, queryBodyOf, queryPairsOf, text } from '../testing/arbitraries.ts';
import { type ApiClient, adminClient, factories, type Row } from '../testing/factories.ts';
import { defineEveryCustomFieldType } from '../testing/sample-values.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { currentDescription } from './custom-fields.ts';

/**
 * Whatever a client puts in a list request, the answer is a list (200) or a
 * refusal naming what is wrong (400); never a server error. Every resource,
 * with a custom field of every type on those that take them.
 */

let server: TestServer;
let api: ApiClient;
/** An existing record id per resource, for relation lists. */
const someId: Record<string, number> = {};

/** Every listable resource as requests see it, custom fields included (known once they are defined). */
let listable: EntityDescription[] = [];

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  await defineEveryCustomFieldType(api);
  listable = await Promise.all(
    entityList.filter((e) => operationsOf(e).includes('list')).map((e) => currentDescription(server.database, e)),
  );
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

const entityArb = () => fc.constantFrom(...listable);
const runs = { numRuns: 150 };

describe('list requests never fail on the server', () => {
  it('GET with random select, sort, join, filter, q, page, pageSize and cursor', async () => {
    const request = entityArb().chain((entity) =>
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
    const request = entityArb().chain((entity) =>
      fc.record({ entity: fc.constant(entity), body: queryBodyOf(entity) }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ entity, body }) => {
        const answer = await api.query(`/api/v1/${entity.name}`, body);
        expectListOrRefusal(answer, `POST /api/v1/${entity.name}/query ${JSON.stringify(body)}`);
      }),
      runs,
    );
  });

  it('cursors of the right order with values of any kind', async () => {
    const request = entityArb().chain((entity) => {
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
      { numRuns: 150 },
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
          const answer = await api.list('/api/v1/companies', { sort, pageSize, cursor, count: 'exact' });
          expect(answer.status).toBe(200);
          total = Number(answer.body.total);
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
