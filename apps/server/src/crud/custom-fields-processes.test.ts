import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, apiClient, errorOf } from '../testing/factories.ts';
import { type ServerData, signInAsAdmin, startReplicas, stopServerProcesses } from '../testing/server-process.ts';

/**
 * Two server processes over one PostgreSQL (several instances behind a load
 * balancer): a custom field defined, changed or deleted through one is used
 * at once through the other, which had already read the definitions. PGlite
 * is one process's embedded database: two processes cannot share it, so
 * this file runs only with TEST_DATABASE_URL.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let data: ServerData | undefined;
/** The process that defines the fields. */
let first: ApiClient;
/** The process that uses them. */
let second: ApiClient;

beforeAll(async () => {
  if (!onPostgres) return;
  const replicas = await startReplicas();
  data = replicas.data;
  const [one, two] = [replicas.first, replicas.second];
  expect(two.url).not.toBe(one.url);
  first = apiClient(one.url, { authorization: `Bearer ${await signInAsAdmin(one.url)}` });
  second = apiClient(two.url, { authorization: `Bearer ${await signInAsAdmin(two.url)}` });
}, 180_000);

afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
});

describe.skipIf(!onPostgres)('a custom field across two server processes on one PostgreSQL', () => {
  it('defined on one, it is written, read, filtered, sorted and exported on the other; changed and deleted, too', async () => {
    // The second process reads companies with their custom fields (none yet) before the field exists.
    const before = await second.post('/api/v1/companies', { name: 'Before the field' });
    expect(before.status, JSON.stringify(before.body)).toBe(201);
    expect(Object.keys(before.body).filter((key) => /^cf\d+$/.test(key))).toEqual([]);

    const defined = await first.post('/api/v1/custom-data', {
      entity: 'companies',
      name: 'Sourcing channel',
      type: 'select',
      options: ['Referral', 'Inbound'],
    });
    expect(defined.status, JSON.stringify(defined.body)).toBe(201);
    const key = defined.body.key as string;
    const id = defined.body.id;

    const referral = await second.post('/api/v1/companies', { name: 'Acme', [key]: 'Referral' });
    expect(referral.status, JSON.stringify(referral.body)).toBe(201);
    expect(referral.body).toMatchObject({ name: 'Acme', [key]: 'Referral' });
    const inbound = await second.post('/api/v1/companies', { name: 'Globex', [key]: 'Inbound' });
    expect(inbound.status, JSON.stringify(inbound.body)).toBe(201);
    const refused = await second.post('/api/v1/companies', { name: 'Initech', [key]: 'Event' });
    expect(refused.status).toBe(400);
    expect(Object.keys(errorOf(refused).fields ?? {})).toEqual([key]);

    expect((await second.get(`/api/v1/companies/${before.body.id}`)).body).toHaveProperty(key, null);
    const filtered = await second.list('/api/v1/companies', { [`filter[${key}][eq]`]: 'Inbound', select: 'name' });
    expect(filtered.body.data).toEqual([{ id: inbound.body.id, name: 'Globex' }]);
    const sorted = await second.list('/api/v1/companies', { sort: `-${key}`, select: `name,${key}` });
    // A choice sorts by its place among the options (Referral, then Inbound), empty first when descending.
    expect(sorted.body.data.map((row) => row.name)).toEqual(['Before the field', 'Globex', 'Acme']);
    const exported = await second.send<string>('GET', `/api/v1/companies/export?select=name,${key}&sort=name`);
    expect(exported.status).toBe(200);
    expect((parse(exported.body, { bom: true }) as string[][]).map((row) => row.slice(1))).toEqual([
      ['Name', 'Sourcing channel'],
      ['Acme', 'Referral'],
      ['Before the field', ''],
      ['Globex', 'Inbound'],
    ]);

    // A new choice and a new name, made on the first process, hold on the second.
    const widened = await first.patch(
      `/api/v1/custom-data/${id}`,
      { name: 'Channel', options: ['Referral', 'Inbound', 'Event'] },
      1,
    );
    expect(widened.status, JSON.stringify(widened.body)).toBe(200);
    const event = await second.post('/api/v1/companies', { name: 'Initech', [key]: 'Event' });
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    const renamed = await second.send<string>('GET', `/api/v1/companies/export?select=name,${key}&sort=name`);
    expect((parse(renamed.body, { bom: true }) as string[][])[0]).toEqual(['ID', 'Name', 'Channel']);

    // Deleted on the first process, the field is unknown on the second.
    expect((await first.delete(`/api/v1/custom-data/${id}`, 2)).status).toBe(204);
    const write = await second.patch(`/api/v1/companies/${referral.body.id}`, { [key]: 'Inbound' }, 1);
    expect(write.status).toBe(400);
    expect(errorOf(write).fields).toEqual({ [key]: 'Unknown field' });
    expect((await second.get(`/api/v1/companies/${referral.body.id}`)).body).not.toHaveProperty(key);
    expect((await second.list('/api/v1/companies', { sort: key })).status).toBe(400);
  });
});

describe.skipIf(!onPostgres)('definitions changed in overlapping transactions', () => {
  it('a change committed after a later one is still seen by the other process', async () => {
    const a = await first.post('/api/v1/custom-data', {
      entity: 'companies',
      name: 'A',
      type: 'select',
      options: ['x'],
    });
    const b = await first.post('/api/v1/custom-data', { entity: 'companies', name: 'B', type: 'text' });
    expect((await second.list('/api/v1/companies')).status).toBe(200);
    // Someone holds definition A's row: the change to A starts (its now()) but waits.
    const holder = new pg.Client({ connectionString: data?.databaseUrl });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from entity_field_types where id = $1 for update', [a.body.id]);
    const widening = first.patch(`/api/v1/custom-data/${a.body.id}`, { options: ['x', 'y'] }, 1);
    await vi.waitFor(
      async () => {
        const { rows } = await holder.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        expect(rows[0]?.n).toBe(1);
      },
      { timeout: 30_000, interval: 20 },
    );
    // A later change to B commits first; the second process reads the definitions after it.
    expect((await first.patch(`/api/v1/custom-data/${b.body.id}`, { name: 'B2' }, 1)).status).toBe(200);
    expect((await second.list('/api/v1/companies')).status).toBe(200);
    await holder.query('commit');
    await holder.end();
    expect((await widening).status).toBe(200);
    const created = await second.post('/api/v1/companies', { name: 'Uses y', [a.body.key as string]: 'y' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
});
