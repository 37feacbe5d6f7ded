import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountServer, invitedUser, roleIdOf, type TestUser } from '../testing/accounts.ts';
import {
  type Answer,
  type ApiClient,
  adminClient,
  errorOf,
  type Factories,
  factories,
  type Row,
  unique,
} from '../testing/factories.ts';
import { outboxMailbox } from '../testing/mail.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Custom fields (the spec's "custom data"): an administrator defines them,
 * records carry their values beside the built-in fields, lists filter and
 * sort by them, and deleting one forgets its values. Over HTTP, against a
 * real database; mail goes to the outbox (no SMTP_URL).
 */

const PUBLIC_URL = 'https://data.example.test';
let server: TestServer;
let admin: ApiClient;
let make: Factories;
let accounts: AccountServer;

/** The custom fields of companies most tests use, by what they hold. */
const company = { status: '', budget: '', signedOn: '', headcount: '', labels: '' };
const definitions: Record<keyof typeof company, Row> = {} as Record<keyof typeof company, Row>;
/** A required text field of deals: every deal made here must give it. */
let codeName: Row;

/** The choices of the custom select field, in their defined order (which is how it sorts). */
const STATUS_OPTIONS: readonly string[] = ['Prospect', 'Active', 'Churned'];

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL });
  admin = adminClient(server);
  make = factories(admin);
  accounts = { url: server.url, publicUrl: PUBLIC_URL, admin, mailbox: outboxMailbox(admin) };
  definitions.status = await define({
    entity: 'companies',
    name: 'Relationship',
    type: 'select',
    options: [...STATUS_OPTIONS],
    position: 1,
  });
  definitions.budget = await define({ entity: 'companies', name: 'Budget', type: 'money', position: 2 });
  definitions.signedOn = await define({ entity: 'companies', name: 'Signed on', type: 'date', position: 3 });
  definitions.headcount = await define({ entity: 'companies', name: 'Headcount', type: 'integer', position: 4 });
  definitions.labels = await define({ entity: 'companies', name: 'Labels', type: 'tags', position: 5 });
  codeName = await define({ entity: 'deals', name: 'Code name', type: 'text', required: true });
  for (const name of Object.keys(company) as (keyof typeof company)[]) {
    company[name] = definitions[name].key as string;
  }
});

afterAll(async () => server?.close());

/** POST /custom-data as the administrator; fails on anything but 201. */
async function define(values: Record<string, unknown>, api: ApiClient = admin): Promise<Row> {
  const answer = await api.post('/api/v1/custom-data', values);
  if (answer.status !== 201)
    throw new Error(`Defining a field answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Asserts a 400 validation_failed answer and returns its per-field messages. */
function invalidFields(answer: Answer<unknown>): Record<string, string> {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  const error = errorOf(answer);
  expect(error.code).toBe('validation_failed');
  return error.fields ?? {};
}

function expectForbidden(answer: Answer<unknown>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expect(errorOf(answer)).toMatchObject({ code: 'forbidden', message: expect.stringContaining('customFields:manage') });
}

describe('defining custom fields', () => {
  it('an administrator defines fields of several types; each gets the key cf<id>', async () => {
    for (const definition of Object.values(definitions)) {
      expect(definition.key).toBe(`cf${definition.id}`);
      expect(definition.version).toBe(1);
    }
    expect(definitions.status).toMatchObject({
      entity: 'companies',
      name: 'Relationship',
      type: 'select',
      options: ['Prospect', 'Active', 'Churned'],
      groupId: null,
    });
    expect(definitions.budget).toMatchObject({ type: 'money', options: [] });
    expect(codeName).toMatchObject({ entity: 'deals', type: 'text', required: true, key: `cf${codeName.id}` });
  });

  it('GET /custom-data lists the definitions of a record type, in position order; /entityFieldTypes is the same list', async () => {
    const listed = await admin.list('/api/v1/custom-data', {
      'filter[entity][eq]': 'companies',
      'filter[id][in]': Object.values(definitions)
        .map((d) => d.id)
        .join(','),
      sort: 'position',
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((d) => [d.name, d.key, d.type])).toEqual([
      ['Relationship', company.status, 'select'],
      ['Budget', company.budget, 'money'],
      ['Signed on', company.signedOn, 'date'],
      ['Headcount', company.headcount, 'integer'],
      ['Labels', company.labels, 'tags'],
    ]);
    const same = await admin.list('/api/v1/entityFieldTypes', {
      'filter[entity][eq]': 'companies',
      'filter[id][in]': Object.values(definitions)
        .map((d) => d.id)
        .join(','),
      sort: 'position',
    });
    expect(same.body.data).toEqual(listed.body.data);
    const deals = await admin.list('/api/v1/custom-data', { 'filter[entity][eq]': 'deals' });
    expect(deals.body.data.map((d) => [d.name, d.key, d.required])).toEqual([['Code name', codeName.key, true]]);
    const one = await admin.get(`/api/v1/custom-data/${definitions.budget.id}`);
    expect(one.body).toEqual(definitions.budget);
  });

  it('two fields of one record type cannot share a name', async () => {
    const answer = await admin.post('/api/v1/custom-data', { entity: 'companies', name: 'Budget', type: 'decimal' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    const elsewhere = await define({ entity: 'funds', name: 'Budget', type: 'decimal' });
    expect(elsewhere.key).toBe(`cf${elsewhere.id}`);
  });
});

describe('custom values on records', () => {
  const values = () => ({
    [company.status]: 'Active',
    [company.budget]: { amount: 1500.5, currency: 'EUR' },
    [company.signedOn]: '2024-03-01',
    [company.headcount]: 12,
    [company.labels]: ['warm', 'b2b'],
  });

  it('a company created with custom values answers them, and GET reads them back the same', async () => {
    const created = await admin.post('/api/v1/companies', { name: unique('Custom'), city: 'Lyon', ...values() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ city: 'Lyon', version: 1, ...values() });
    const read = await admin.get(`/api/v1/companies/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const selected = await admin.get(`/api/v1/companies/${created.body.id}`, { select: `name,${company.budget}` });
    expect(selected.body).toEqual({
      id: created.body.id,
      name: created.body.name,
      [company.budget]: { amount: 1500.5, currency: 'EUR' },
    });
  });

  it('a company without custom values reads null for each of them', async () => {
    const plain = await make.company();
    for (const key of Object.values(company)) expect(plain).toHaveProperty(key, null);
    const read = await admin.get(`/api/v1/companies/${plain.id}`);
    for (const key of Object.values(company)) expect(read.body).toHaveProperty(key, null);
  });

  it('PATCH changes one custom value and leaves the others and the built-in fields alone', async () => {
    const created = await make.company({ city: 'Lyon', ...values() });
    const updated = await admin.patch(`/api/v1/companies/${created.id}`, { [company.headcount]: 14 }, 1);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ ...values(), [company.headcount]: 14, city: 'Lyon', version: 2 });
    const both = await admin.patch(`/api/v1/companies/${created.id}`, { city: 'Nice', [company.status]: 'Churned' }, 2);
    expect(both.body).toMatchObject({
      ...values(),
      [company.headcount]: 14,
      [company.status]: 'Churned',
      city: 'Nice',
    });
    expect((await admin.get(`/api/v1/companies/${created.id}`)).body).toEqual(both.body);
  });

  it('PATCH with null removes a value: it reads null and the record no longer matches notNull', async () => {
    const created = await make.company({ tags: [unique('clear').replace(/ /g, '')], ...values() });
    const cleared = await admin.patch(
      `/api/v1/companies/${created.id}`,
      { [company.budget]: null, [company.labels]: null },
      1,
    );
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body).toMatchObject({ ...values(), [company.budget]: null, [company.labels]: null });
    expect((await admin.get(`/api/v1/companies/${created.id}`)).body).toEqual(cleared.body);
    const scope = { 'filter[tags][contains]': (created.tags as string[])[0], select: 'name' };
    const withBudget = await admin.list('/api/v1/companies', { ...scope, [`filter[${company.budget}][notNull]`]: '' });
    expect(withBudget.body.data).toEqual([]);
    const without = await admin.list('/api/v1/companies', { ...scope, [`filter[${company.budget}][isNull]`]: '' });
    expect(without.body.data.map((r) => r.id)).toEqual([created.id]);
  });

  it('a stale version still answers 412 and changes nothing', async () => {
    const created = await make.company(values());
    await admin.patch(`/api/v1/companies/${created.id}`, { [company.headcount]: 1 }, 1);
    const stale = await admin.patch(`/api/v1/companies/${created.id}`, { [company.headcount]: 2 }, 1);
    expect(stale.status).toBe(412);
    expect((await admin.get(`/api/v1/companies/${created.id}`)).body).toMatchObject({ [company.headcount]: 1 });
  });

  it('custom fields of one record type are unknown on another', async () => {
    const answer = await admin.post('/api/v1/funds', {
      name: unique('Fund'),
      currency: 'USD',
      [company.status]: 'Active',
    });
    expect(invalidFields(answer)).toEqual({ [company.status]: 'Unknown field' });
  });
});

describe('validation of custom values and definitions', () => {
  it('a choice that is not an option, a string for an integer and an unknown key answer 400 naming the key', async () => {
    const name = unique('Invalid');
    expect(
      Object.keys(invalidFields(await admin.post('/api/v1/companies', { name, [company.status]: 'Bogus' }))),
    ).toEqual([company.status]);
    expect(
      Object.keys(invalidFields(await admin.post('/api/v1/companies', { name, [company.headcount]: '12' }))),
    ).toEqual([company.headcount]);
    expect(
      Object.keys(invalidFields(await admin.post('/api/v1/companies', { name, [company.headcount]: 1.5 }))),
    ).toEqual([company.headcount]);
    expect(
      Object.keys(invalidFields(await admin.post('/api/v1/companies', { name, [company.signedOn]: '01/03/2024' }))),
    ).toEqual([company.signedOn]);
    expect(invalidFields(await admin.post('/api/v1/companies', { name, cf999999: 'x' }))).toEqual({
      cf999999: 'Unknown field',
    });
    const money = invalidFields(await admin.post('/api/v1/companies', { name, [company.budget]: 12 }));
    expect(Object.keys(money)).toEqual([company.budget]);
    const listed = await admin.list('/api/v1/companies', { 'filter[name][eq]': name });
    expect(listed.body.data).toEqual([]);
  });

  it('a number or date the database cannot hold is refused like a built-in one, and lists by the field keep working', async () => {
    const tag = unique('range').replace(/ /g, '');
    const kept = await make.company({ tags: [tag], [company.headcount]: 7, [company.signedOn]: '2024-02-29' });
    const builtIn = await admin.post('/api/v1/companies', { name: unique('Big'), employees: 3_000_000_000 });
    expect(builtIn.status).toBe(400);
    for (const values of [
      { [company.headcount]: 3_000_000_000 },
      { [company.headcount]: -3_000_000_000 },
      { [company.signedOn]: '0000-01-01' },
    ]) {
      const created = await admin.post('/api/v1/companies', { name: unique('Out of range'), tags: [tag], ...values });
      expect(created.status, JSON.stringify(created.body)).toBe(400);
      expect(errorOf(created).code).toBe(errorOf(builtIn).code);
      const updated = await admin.patch(`/api/v1/companies/${kept.id}`, values, 1);
      expect(updated.status, JSON.stringify(updated.body)).toBe(400);
    }
    for (const query of [
      { [`filter[${company.headcount}][gte]`]: 1 },
      { [`filter[${company.signedOn}][lte]`]: '2030-01-01' },
      { sort: `-${company.headcount}` },
      { sort: company.signedOn },
    ]) {
      const listed = await admin.list('/api/v1/companies', { 'filter[tags][contains]': tag, select: 'name', ...query });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.data.map((r) => r.id)).toEqual([kept.id]);
    }
    expect((await admin.get(`/api/v1/companies/${kept.id}`)).body).toMatchObject({
      version: 1,
      [company.headcount]: 7,
      [company.signedOn]: '2024-02-29',
    });
  });

  it('PATCH refuses wrong custom values the same way and leaves the record as it was', async () => {
    const created = await make.company({ [company.status]: 'Prospect' });
    expect(
      Object.keys(
        invalidFields(await admin.patch(`/api/v1/companies/${created.id}`, { [company.status]: 'Bogus' }, 1)),
      ),
    ).toEqual([company.status]);
    expect(
      invalidFields(
        await admin.patch(`/api/v1/companies/${created.id}`, { cf999999: 1, [company.status]: 'Active' }, 1),
      ),
    ).toEqual({ cf999999: 'Unknown field' });
    expect((await admin.get(`/api/v1/companies/${created.id}`)).body).toMatchObject({
      version: 1,
      [company.status]: 'Prospect',
    });
  });

  it('a select or multi-select without choices answers 400 on options', async () => {
    for (const type of ['select', 'multiSelect']) {
      const missing = await admin.post('/api/v1/custom-data', { entity: 'companies', name: unique('Pick'), type });
      expect(invalidFields(missing)).toHaveProperty('options');
      const empty = await admin.post('/api/v1/custom-data', {
        entity: 'companies',
        name: unique('Pick'),
        type,
        options: [],
      });
      expect(invalidFields(empty)).toHaveProperty('options');
    }
    const type = await admin.post('/api/v1/custom-data', {
      entity: 'companies',
      name: unique('Odd'),
      type: 'reference',
    });
    expect(invalidFields(type)).toHaveProperty('type');
    const entity = await admin.post('/api/v1/custom-data', { entity: 'notes', name: unique('Odd'), type: 'text' });
    expect(invalidFields(entity)).toHaveProperty('entity');
  });

  it('a required custom field must be given on create and cannot be cleared', async () => {
    const missing = await admin.post('/api/v1/deals', { name: unique('Deal') });
    expect(Object.keys(invalidFields(missing))).toContain(codeName.key);
    const blank = await admin.post('/api/v1/deals', { name: unique('Deal'), [codeName.key as string]: '  ' });
    expect(Object.keys(invalidFields(blank))).toContain(codeName.key);
    const deal = await admin.post('/api/v1/deals', { name: unique('Deal'), [codeName.key as string]: 'Bluebird' });
    expect(deal.status, JSON.stringify(deal.body)).toBe(201);
    expect(deal.body).toHaveProperty(codeName.key as string, 'Bluebird');
    const cleared = await admin.patch(`/api/v1/deals/${deal.body.id}`, { [codeName.key as string]: null }, 1);
    expect(Object.keys(invalidFields(cleared))).toEqual([codeName.key]);
    const renamed = await admin.patch(`/api/v1/deals/${deal.body.id}`, { name: 'Renamed deal' }, 1);
    expect(renamed.body).toMatchObject({ name: 'Renamed deal', [codeName.key as string]: 'Bluebird' });
  });
});

describe('lists by custom fields', () => {
  const TAG = 'cf-list';
  interface Input {
    name: string;
    status: string | null;
    budget: number | null;
    signedOn: string | null;
    headcount: number | null;
    labels: string[] | null;
  }
  const inputs: Input[] = [
    { name: 'Alder', status: 'Prospect', budget: 100, signedOn: '2023-01-15', headcount: 5, labels: ['warm'] },
    {
      name: 'Birch',
      status: 'Active',
      budget: 2500,
      signedOn: '2024-06-30',
      headcount: 50,
      labels: ['warm', 'enterprise'],
    },
    { name: 'Cedar', status: 'Churned', budget: null, signedOn: '2022-11-01', headcount: null, labels: [] },
    { name: 'Dogwood', status: null, budget: 999.99, signedOn: null, headcount: 0, labels: ['cold'] },
    { name: 'Elm', status: 'Active', budget: 2500, signedOn: '2024-06-30', headcount: 50, labels: null },
    { name: 'Fir', status: 'Prospect', budget: 10_000, signedOn: '2025-01-01', headcount: 500, labels: ['enterprise'] },
    { name: 'Ginkgo', status: null, budget: null, signedOn: null, headcount: null, labels: null },
    { name: 'Hazel', status: 'Churned', budget: 1000, signedOn: '2024-01-01', headcount: 100, labels: ['cold'] },
    { name: 'Ivy', status: 'Active', budget: 2500.01, signedOn: '2024-12-31', headcount: -3, labels: ['warm'] },
    { name: 'Juniper', status: 'Prospect', budget: 0, signedOn: '2023-01-15', headcount: 5, labels: null },
    { name: 'Kapok', status: null, budget: 42, signedOn: '2021-07-04', headcount: 7, labels: ['b2b'] },
    { name: 'Larch', status: 'Active', budget: null, signedOn: '2024-06-30', headcount: null, labels: ['warm'] },
  ];
  const idOf: Record<string, number> = {};

  beforeAll(async () => {
    for (const input of inputs) {
      const values: Record<string, unknown> = { name: input.name, tags: [TAG] };
      if (input.status !== null) values[company.status] = input.status;
      if (input.budget !== null) values[company.budget] = { amount: input.budget, currency: 'USD' };
      if (input.signedOn !== null) values[company.signedOn] = input.signedOn;
      if (input.headcount !== null) values[company.headcount] = input.headcount;
      if (input.labels !== null) values[company.labels] = input.labels;
      const row = await make.company(values);
      idOf[input.name] = row.id;
    }
  });

  /** Names of the list's companies matching `query`, in the order the API answers. */
  async function names(query: Record<string, string | number>): Promise<string[]> {
    const answer = await admin.list('/api/v1/companies', {
      'filter[tags][contains]': TAG,
      select: 'name',
      pageSize: 100,
      ...query,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.map((r) => r.name as string);
  }

  /**
   * The names in the order the API promises: by the key (a choice by its place among the options, not
   * alphabetically), empty values last ascending and first descending, ties by id.
   */
  function expectedOrder(field: 'status' | 'budget' | 'signedOn' | 'headcount', desc: boolean): string[] {
    const key = (input: Input) => {
      const value = input[field];
      return field === 'status' && value !== null ? STATUS_OPTIONS.indexOf(value as string) : value;
    };
    return [...inputs]
      .sort((a, b) => {
        const x = key(a);
        const y = key(b);
        if (x !== y) {
          if (x === null) return desc ? -1 : 1;
          if (y === null) return desc ? 1 : -1;
          return (x < y ? -1 : 1) * (desc ? -1 : 1);
        }
        return ((idOf[a.name] as number) - (idOf[b.name] as number)) * (desc ? -1 : 1);
      })
      .map((input) => input.name);
  }

  const matching = (test: (input: Input) => boolean) => inputs.filter(test).map((input) => input.name);

  it('select names custom fields like built-in ones', async () => {
    const answer = await admin.list('/api/v1/companies', {
      'filter[tags][contains]': TAG,
      select: `name,${company.status}`,
      sort: 'name',
      pageSize: 3,
    });
    expect(answer.body.data).toEqual([
      { id: idOf.Alder, name: 'Alder', [company.status]: 'Prospect' },
      { id: idOf.Birch, name: 'Birch', [company.status]: 'Active' },
      { id: idOf.Cedar, name: 'Cedar', [company.status]: 'Churned' },
    ]);
  });

  it('eq and in on a select', async () => {
    expect(await names({ [`filter[${company.status}][eq]`]: 'Active', sort: 'name' })).toEqual(
      matching((i) => i.status === 'Active'),
    );
    expect(await names({ [`filter[${company.status}][in]`]: 'Prospect,Churned', sort: 'name' })).toEqual(
      matching((i) => i.status === 'Prospect' || i.status === 'Churned'),
    );
    expect(await names({ [`filter[${company.status}][ne]`]: 'Active', sort: 'name' })).toEqual(
      matching((i) => i.status !== 'Active'),
    );
    const wrong = await admin.list('/api/v1/companies', { [`filter[${company.status}][eq]`]: 'Bogus' });
    expect(invalidFields(wrong)).toHaveProperty([`filter[${company.status}][eq]`]);
  });

  it('ranges on money (by amount), date and integer', async () => {
    expect(
      await names({ [`filter[${company.budget}][gte]`]: 1000, [`filter[${company.budget}][lte]`]: 2500, sort: 'name' }),
    ).toEqual(matching((i) => i.budget !== null && i.budget >= 1000 && i.budget <= 2500));
    expect(
      await names({
        [`filter[${company.signedOn}][gte]`]: '2024-01-01',
        [`filter[${company.signedOn}][lte]`]: '2024-12-31',
        sort: 'name',
      }),
    ).toEqual(matching((i) => i.signedOn !== null && i.signedOn >= '2024-01-01' && i.signedOn <= '2024-12-31'));
    expect(
      await names({
        [`filter[${company.headcount}][gte]`]: 5,
        [`filter[${company.headcount}][lte]`]: 100,
        sort: 'name',
      }),
    ).toEqual(matching((i) => i.headcount !== null && i.headcount >= 5 && i.headcount <= 100));
    expect(await names({ [`filter[${company.headcount}][lt]`]: 5, sort: 'name' })).toEqual(
      matching((i) => i.headcount !== null && i.headcount < 5),
    );
    expect(await names({ [`filter[${company.headcount}][eq]`]: 0 })).toEqual(['Dogwood']);
    expect(await names({ [`filter[${company.budget}][eq]`]: 0 })).toEqual(['Juniper']);
    expect(await names({ [`filter[${company.headcount}][in]`]: '5,7', sort: 'name' })).toEqual([
      'Alder',
      'Juniper',
      'Kapok',
    ]);
  });

  it('contains, in and emptiness on tags', async () => {
    expect(await names({ [`filter[${company.labels}][contains]`]: 'warm', sort: 'name' })).toEqual(
      matching((i) => Boolean(i.labels?.includes('warm'))),
    );
    expect(await names({ [`filter[${company.labels}][in]`]: 'cold,enterprise', sort: 'name' })).toEqual(
      matching((i) => Boolean(i.labels?.some((l) => l === 'cold' || l === 'enterprise'))),
    );
    expect(await names({ [`filter[${company.labels}][isNull]`]: '', sort: 'name' })).toEqual(
      matching((i) => !i.labels?.length),
    );
    expect(await names({ [`filter[${company.labels}][notNull]`]: '', sort: 'name' })).toEqual(
      matching((i) => Boolean(i.labels?.length)),
    );
  });

  it('isNull and notNull on scalar custom fields', async () => {
    for (const field of ['status', 'budget', 'signedOn', 'headcount'] as const) {
      expect(await names({ [`filter[${company[field]}][isNull]`]: '', sort: 'name' })).toEqual(
        matching((i) => i[field] === null),
      );
      expect(await names({ [`filter[${company[field]}][notNull]`]: 'true', sort: 'name' })).toEqual(
        matching((i) => i[field] !== null),
      );
    }
  });

  it.each(['status', 'budget', 'signedOn', 'headcount'] as const)(
    'sort by the %s field, both ways: empty values last ascending, first descending',
    async (field) => {
      expect(await names({ sort: company[field] })).toEqual(expectedOrder(field, false));
      expect(await names({ sort: `-${company[field]}` })).toEqual(expectedOrder(field, true));
    },
  );

  it('tags cannot be sorted by', async () => {
    const answer = await admin.list('/api/v1/companies', { sort: company.labels });
    expect(invalidFields(answer)).toHaveProperty('sort');
  });

  it.each([
    ['headcount', false, 3],
    ['budget', true, 4],
    ['signedOn', false, 5],
    ['status', true, 2],
  ] as const)(
    'cursor paging sorted by %s (desc %s), %i a page: every row once, in order',
    async (field, desc, pageSize) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const answer = await admin.list('/api/v1/companies', {
          'filter[tags][contains]': TAG,
          select: 'name',
          sort: `${desc ? '-' : ''}${company[field]}`,
          pageSize,
          cursor,
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        if (answer.body.nextCursor) expect(answer.body.data).toHaveLength(pageSize);
        seen.push(...answer.body.data.map((r) => r.name as string));
        cursor = answer.body.nextCursor ?? undefined;
        pages += 1;
      } while (cursor && pages < 20);
      expect(seen).toEqual(expectedOrder(field, desc));
      expect(pages).toBe(Math.ceil(inputs.length / pageSize));
    },
  );

  it('POST /companies/query filters by custom fields inside and/or groups', async () => {
    const answer = await admin.query('/api/v1/companies', {
      select: ['name', company.headcount],
      sort: `-${company.headcount}`,
      count: 'exact',
      filter: { tags: { contains: TAG } },
      where: {
        or: [
          { field: company.status, op: 'eq', value: 'Churned' },
          {
            and: [
              { field: company.budget, op: 'gte', value: 2500 },
              { field: company.signedOn, op: 'lt', value: '2024-12-31' },
            ],
          },
        ],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // Descending: Cedar, with no headcount, first; Birch and Elm tie, the later made first.
    expect(answer.body.data).toEqual([
      { id: idOf.Cedar, name: 'Cedar', [company.headcount]: null },
      { id: idOf.Hazel, name: 'Hazel', [company.headcount]: 100 },
      { id: idOf.Elm, name: 'Elm', [company.headcount]: 50 },
      { id: idOf.Birch, name: 'Birch', [company.headcount]: 50 },
    ]);
    expect(answer.body.total).toBe(4);
  });
});

describe('changing a definition', () => {
  it('renaming keeps the key, so values and filters by it still work', async () => {
    const field = await define({ entity: 'companies', name: unique('Tier'), type: 'text' });
    const key = field.key as string;
    const record = await make.company({ [key]: 'Gold' });
    const renamed = await admin.patch(`/api/v1/custom-data/${field.id}`, { name: unique('Level') }, 1);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ key, version: 2, type: 'text', entity: 'companies' });
    expect(renamed.body.name).not.toBe(field.name);
    expect((await admin.get(`/api/v1/companies/${record.id}`)).body).toHaveProperty(key, 'Gold');
    const listed = await admin.list('/api/v1/companies', { [`filter[${key}][eq]`]: 'Gold', select: 'name' });
    expect(listed.body.data.map((r) => r.id)).toEqual([record.id]);
  });

  it('the type and the record type cannot be changed', async () => {
    const field = await define({ entity: 'companies', name: unique('Score'), type: 'integer' });
    const type = await admin.patch(`/api/v1/custom-data/${field.id}`, { type: 'text' }, 1);
    expect(invalidFields(type)).toEqual({ type: 'Unknown field' });
    const entity = await admin.patch(`/api/v1/custom-data/${field.id}`, { entity: 'funds' }, 1);
    expect(invalidFields(entity)).toEqual({ entity: 'Unknown field' });
    const key = await admin.patch(`/api/v1/custom-data/${field.id}`, { key: 'cf1' }, 1);
    expect(invalidFields(key)).toHaveProperty('key');
    expect((await admin.get(`/api/v1/custom-data/${field.id}`)).body).toEqual(field);
    expect(
      Object.keys(invalidFields(await admin.post('/api/v1/companies', { name: 'x', [field.key as string]: 'a' }))),
    ).toEqual([field.key]);
  });

  it('new choices of a select are accepted at once, and emptying them is refused', async () => {
    const field = await define({ entity: 'companies', name: unique('Source'), type: 'select', options: ['Referral'] });
    const key = field.key as string;
    expect(Object.keys(invalidFields(await admin.post('/api/v1/companies', { name: 'x', [key]: 'Event' })))).toEqual([
      key,
    ]);
    const widened = await admin.patch(`/api/v1/custom-data/${field.id}`, { options: ['Referral', 'Event'] }, 1);
    expect(widened.status, JSON.stringify(widened.body)).toBe(200);
    const record = await make.company({ [key]: 'Event' });
    expect(record).toHaveProperty(key, 'Event');
    const emptied = await admin.patch(`/api/v1/custom-data/${field.id}`, { options: [] }, 2);
    expect(invalidFields(emptied)).toHaveProperty('options');
  });

  it('making a field required makes it required on create', async () => {
    const field = await define({ entity: 'companies', name: unique('Owner'), type: 'text' });
    const key = field.key as string;
    const before = await make.company();
    const required = await admin.patch(`/api/v1/custom-data/${field.id}`, { required: true }, 1);
    expect(required.status, JSON.stringify(required.body)).toBe(200);
    try {
      expect(Object.keys(invalidFields(await admin.post('/api/v1/companies', { name: unique('Company') })))).toEqual([
        key,
      ]);
      expect(await make.company({ [key]: 'Ada' })).toHaveProperty(key, 'Ada');
      // Records made before still read, list and sort, with the value empty.
      expect((await admin.get(`/api/v1/companies/${before.id}`)).body).toHaveProperty(key, null);
      const sorted = await admin.list('/api/v1/companies', { sort: key, select: `name,${key}`, pageSize: 1000 });
      expect(sorted.status, JSON.stringify(sorted.body)).toBe(200);
      expect(sorted.body.data[0]).toHaveProperty(key, 'Ada');
      expect(sorted.body.data.at(-1)).toHaveProperty(key, null);
    } finally {
      // Other tests make companies without this field.
      expect((await admin.delete(`/api/v1/custom-data/${field.id}`)).status).toBe(204);
    }
  });
});

describe('deleting a definition', () => {
  it("forgets the field's values, its key is unknown afterwards, and a new field starts empty", async () => {
    const field = await define({ entity: 'companies', name: unique('Temporary'), type: 'text' });
    const key = field.key as string;
    const record = await make.company({ [key]: 'soon gone', [company.headcount]: 3 });
    const gone = await admin.delete(`/api/v1/custom-data/${field.id}`, 1);
    expect(gone.status, JSON.stringify(gone.body)).toBe(204);
    expect((await admin.get(`/api/v1/custom-data/${field.id}`)).status).toBe(404);

    const read = await admin.get(`/api/v1/companies/${record.id}`);
    expect(read.body).not.toHaveProperty(key);
    expect(read.body).toHaveProperty(company.headcount, 3);
    // Keys are never reused, so the stored values are what a user cannot see: they must be gone too.
    const [stored] = await server.database.rows<{ custom: unknown }>(
      sql`select custom from companies where id = ${record.id}`,
    );
    const custom = typeof stored?.custom === 'string' ? JSON.parse(stored.custom) : stored?.custom;
    expect(custom).toEqual({ [company.headcount]: 3 });

    const filter = await admin.list('/api/v1/companies', { [`filter[${key}][eq]`]: 'soon gone' });
    expect(invalidFields(filter)).toHaveProperty([`filter[${key}][eq]`]);
    const sort = await admin.list('/api/v1/companies', { sort: key });
    expect(invalidFields(sort)).toHaveProperty('sort');
    const write = await admin.patch(`/api/v1/companies/${record.id}`, { [key]: 'back' }, 1);
    expect(invalidFields(write)).toEqual({ [key]: 'Unknown field' });

    const next = await define({ entity: 'companies', name: field.name, type: 'text' });
    expect(next.key).not.toBe(key);
    const again = await admin.get(`/api/v1/companies/${record.id}`);
    expect(again.body).toHaveProperty(next.key as string, null);
    expect(again.body).not.toHaveProperty(key);
  });
});

describe('permissions', () => {
  let editor: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    editor = await invitedUser(accounts, await roleIdOf(admin, 'Editor'));
    viewer = await invitedUser(accounts, await roleIdOf(admin, 'Viewer'));
  });

  it('an Editor and a Viewer read the definitions and groups', async () => {
    for (const user of [editor, viewer]) {
      const listed = await user.api.list('/api/v1/custom-data', { 'filter[entity][eq]': 'companies', pageSize: 100 });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.data.map((d) => d.key)).toEqual(expect.arrayContaining(Object.values(company)));
      expect((await user.api.get(`/api/v1/custom-data/${definitions.status.id}`)).body).toEqual(definitions.status);
      expect((await user.api.list('/api/v1/customFieldGroups')).status).toBe(200);
    }
  });

  it('an Editor and a Viewer get 403 on creating, changing and deleting definitions and groups', async () => {
    const group = await admin.post('/api/v1/customFieldGroups', { entity: 'companies', name: unique('Group') });
    expect(group.status).toBe(201);
    for (const user of [editor, viewer]) {
      const { api } = user;
      expectForbidden(await api.post('/api/v1/custom-data', { entity: 'companies', name: unique('No'), type: 'text' }));
      expectForbidden(
        await api.post('/api/v1/entityFieldTypes', { entity: 'companies', name: unique('No'), type: 'text' }),
      );
      expectForbidden(await api.patch(`/api/v1/custom-data/${definitions.status.id}`, { name: 'Hijacked' }, 1));
      expectForbidden(await api.delete(`/api/v1/custom-data/${definitions.status.id}`));
      expectForbidden(await api.post('/api/v1/customFieldGroups', { entity: 'companies', name: unique('No') }));
      expectForbidden(await api.patch(`/api/v1/customFieldGroups/${group.body.id}`, { name: 'Hijacked' }, 1));
      expectForbidden(await api.delete(`/api/v1/customFieldGroups/${group.body.id}`));
    }
    expect((await admin.get(`/api/v1/custom-data/${definitions.status.id}`)).body).toEqual(definitions.status);
    expect((await admin.get(`/api/v1/customFieldGroups/${group.body.id}`)).body).toEqual(group.body);
  });

  it('an Editor writes custom values on companies; a Viewer reads them', async () => {
    const created = await editor.api.post('/api/v1/companies', {
      name: unique('Edited'),
      [company.status]: 'Prospect',
      [company.budget]: { amount: 10, currency: 'GBP' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const updated = await editor.api.patch(`/api/v1/companies/${created.body.id}`, { [company.status]: 'Active' }, 1);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({
      [company.status]: 'Active',
      [company.budget]: { amount: 10, currency: 'GBP' },
    });
    expect((await viewer.api.get(`/api/v1/companies/${created.body.id}`)).body).toEqual(updated.body);
  });
});

describe('groups', () => {
  it('a field put in a group stays, ungrouped, when the group is deleted', async () => {
    const group = await admin.post('/api/v1/customFieldGroups', {
      entity: 'companies',
      name: unique('Finance'),
      position: 1,
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    expect(group.body).toMatchObject({ entity: 'companies', position: 1, version: 1 });
    const field = await define({ entity: 'companies', name: unique('ARR'), type: 'decimal', groupId: group.body.id });
    expect(field.groupId).toBe(group.body.id);
    const inGroup = await admin.list('/api/v1/custom-data', { 'filter[groupId][eq]': group.body.id });
    expect(inGroup.body.data.map((d) => d.id)).toEqual([field.id]);
    const record = await make.company({ [field.key as string]: 1.25 });

    const gone = await admin.delete(`/api/v1/customFieldGroups/${group.body.id}`);
    expect(gone.status, JSON.stringify(gone.body)).toBe(204);
    const after = await admin.get(`/api/v1/custom-data/${field.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ groupId: null, key: field.key, name: field.name });
    expect((await admin.get(`/api/v1/companies/${record.id}`)).body).toHaveProperty(field.key as string, 1.25);
  });

  it('a field cannot be put in a group that does not exist', async () => {
    const answer = await admin.post('/api/v1/custom-data', {
      entity: 'companies',
      name: unique('Orphan'),
      type: 'text',
      groupId: 999_999,
    });
    expect(invalidFields(answer)).toHaveProperty('groupId');
  });

  it('two groups of one record type cannot share a name', async () => {
    const name = unique('Section');
    expect((await admin.post('/api/v1/customFieldGroups', { entity: 'companies', name })).status).toBe(201);
    expect((await admin.post('/api/v1/customFieldGroups', { entity: 'companies', name })).status).toBe(409);
    expect((await admin.post('/api/v1/customFieldGroups', { entity: 'funds', name })).status).toBe(201);
  });
});
