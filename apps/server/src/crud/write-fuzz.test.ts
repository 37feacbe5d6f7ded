import { allFields, type EntityDescription, isWritable, operationsOf } from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBodyOf } from '../testing/arbitraries.ts';
import { type Answer, type ApiClient, adminClient, factories } from '../testing/factories.ts';
import { defineEveryCustomFieldType, sampleValues } from '../testing/sample-values.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { currentDescription } from './custom-fields.ts';

/**
 * Whatever body a client sends to create or update a record of any
 * resource, custom fields of every type included, the answer is the record
 * or a refusal in the error shape; never a server error.
 */

let server: TestServer;
let api: ApiClient;
/** Every resource as requests see it, custom fields included. */
let described: EntityDescription[] = [];
/** One record of each resource, to update. */
const someId: Record<string, number> = {};

/**
 * A record of each resource, made from its description in the registry's
 * order (a referenced resource comes first): required values from samples,
 * references to the records made before, attachments on a company.
 */
async function oneOfEach() {
  for (const entity of described) {
    if (!operationsOf(entity).includes('create')) {
      const first = await api.list(`/api/v1/${entity.name}`, { pageSize: 1, select: 'id' });
      if (first.body.data?.[0]) someId[entity.name] = first.body.data[0].id;
      continue;
    }
    const required = Object.entries(entity.fields).filter(([, field]) => field.required && isWritable(field));
    const body = sampleValues(
      entity,
      required.map(([name]) => name),
      1,
    );
    for (const [name, field] of required) if (field.type === 'reference' && field.to) body[name] = someId[field.to];
    if (entity.attachedTo) {
      body[entity.attachedTo.entityField] = 'companies';
      body[entity.attachedTo.idField] = someId.companies;
    }
    const created = await api.post(`/api/v1/${entity.name}`, body);
    if (created.status !== 201) throw new Error(`Seeding ${entity.name}: ${JSON.stringify(created.body)}`);
    someId[entity.name] = created.body.id;
  }
  // Files are made by uploading, not by the generic create.
  someId.files = (await factories(api).file('companies', someId.companies as number)).id;
}

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  await defineEveryCustomFieldType(api);
  described = await Promise.all(entityList.map((entity) => currentDescription(server.database, entity)));
  await oneOfEach();
});

afterAll(async () => server?.close());

const writableFields = (entity: EntityDescription, update: boolean): Record<string, FieldDescription> =>
  Object.fromEntries(Object.entries(allFields(entity)).filter(([, f]) => isWritable(f) && !(update && f.immutable)));

/** A success with the record, or a client error in the error shape; fails with what was asked otherwise. */
function expectRecordOrRefusal(answer: Answer<unknown>, success: number, asked: string) {
  const told = `${asked} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`;
  if (answer.status === success) {
    expect(answer.body, told).toMatchObject({ id: expect.any(Number) });
    return;
  }
  expect(answer.status, told).toBeGreaterThanOrEqual(400);
  expect(answer.status, told).toBeLessThan(500);
  expect(answer.body, told).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
}

const runs = { numRuns: 150 };

/** JSON text nested `levels` deep: parsed without trouble, but a recursive reader or writer of it overflows. */
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('writes never fail on the server', () => {
  it('every resource and custom field type: a create with any body answers 201 or a refusal', async () => {
    const creatable = described.filter((e) => operationsOf(e).includes('create'));
    const request = fc
      .constantFrom(...creatable)
      .chain((entity) => fc.record({ entity: fc.constant(entity), body: writeBodyOf(writableFields(entity, false)) }));
    await fc.assert(
      fc.asyncProperty(request, async ({ entity, body }) => {
        const answer = await api.post(`/api/v1/${entity.name}`, body);
        expectRecordOrRefusal(answer, 201, `POST /api/v1/${entity.name} ${JSON.stringify(body)}`);
        if (answer.status === 201) {
          const read = await api.get(`/api/v1/${entity.name}/${(answer.body as { id: number }).id}`);
          expect(read.status).toBe(200);
        }
      }),
      runs,
    );
  });

  it('every resource and custom field type: an update with any body and version answers 200 or a refusal', async () => {
    const updatable = described.filter((e) => operationsOf(e).includes('update'));
    expect(updatable.filter((e) => someId[e.name] === undefined).map((e) => e.name)).toEqual([]);
    const request = fc.constantFrom(...updatable).chain((entity) =>
      fc.record({
        entity: fc.constant(entity),
        body: writeBodyOf(writableFields(entity, true)),
        version: fc.oneof(
          { weight: 4, arbitrary: fc.constant('current') },
          { weight: 1, arbitrary: fc.constantFrom('', '0', 'W/"1"', '"x"', '99999999999', '-1', '1, 2') },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ entity, body, version }) => {
        const path = `/api/v1/${entity.name}/${someId[entity.name]}`;
        const current = await api.get(path, { select: 'version' });
        const ifMatch = version === 'current' ? String(current.body.version) : version;
        const answer = await api.patch(path, body, ifMatch);
        expectRecordOrRefusal(answer, 200, `PATCH ${path} If-Match ${ifMatch} ${JSON.stringify(body)}`);
      }),
      runs,
    );
  });

  it('every resource: JSON nested 10,000 deep in any field of a create, an update or a query answers 400', async () => {
    const sendJson = (method: string, path: string, body: string) =>
      api.send(method, path, { body, headers: { 'content-type': 'application/json', 'if-match': '1' } });
    for (const entity of described) {
      const ops = operationsOf(entity);
      const asked: [string, string, string][] = [];
      // Arrays and objects in turn, one nested value a field: each reader sees both kinds across the fields.
      const deep = (i: number) => (i % 2 ? deepObject(10_000) : deepArray(10_000));
      if (ops.includes('list')) {
        ['where', 'filter', 'select', 'sort'].forEach((key, i) => {
          asked.push(['POST', `/api/v1/${entity.name}/query`, `{"${key}":${deep(i)}}`]);
        });
      }
      Object.keys(writableFields(entity, false)).forEach((name, i) => {
        if (ops.includes('create')) asked.push(['POST', `/api/v1/${entity.name}`, `{"${name}":${deep(i)}}`]);
        if (ops.includes('update')) {
          asked.push(['PATCH', `/api/v1/${entity.name}/${someId[entity.name]}`, `{"${name}":${deep(i + 1)}}`]);
        }
      });
      for (const [method, path, body] of asked) {
        const answer = await sendJson(method, path, body);
        expect(answer.status, `${method} ${path} ${body.slice(0, 60)} → ${JSON.stringify(answer.body)}`).toBe(400);
      }
    }
  });
});
