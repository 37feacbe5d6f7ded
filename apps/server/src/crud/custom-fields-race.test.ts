import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, apiClient } from '../testing/factories.ts';
import {
  type ServerData,
  serverData,
  signInAsAdmin,
  startServerProcess,
  stopServerProcesses,
} from '../testing/server-process.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let data: ServerData | undefined;
let first: ApiClient;
let second: ApiClient;

beforeAll(async () => {
  if (!onPostgres) return;
  data = await serverData('postgres');
  const one = await startServerProcess(data, { LOG_LEVEL: 'warn' });
  const two = await startServerProcess(data, { LOG_LEVEL: 'warn' });
  first = apiClient(one.url, { authorization: `Bearer ${await signInAsAdmin(one.url)}` });
  second = apiClient(two.url, { authorization: `Bearer ${await signInAsAdmin(two.url)}` });
}, 180_000);
afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
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
