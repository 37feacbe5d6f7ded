import type { ActivityItem, ActivityPage } from '@data-platform/shared/activity';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, type Factories, factories } from '../testing/factories.ts';
import { importAll } from '../testing/import-jobs.ts';
import { importFile } from '../testing/imports.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * `GET /api/v1/activity`: who did what to which record, when, from the audit
 * events, told only to readers of the record, a keyset page at a time.
 */
let server: TestServer;
let admin: ApiClient;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  make = factories(admin);
});
afterAll(async () => server?.close());

async function activity(client: ApiClient, query: Record<string, string | number> = {}): Promise<ActivityPage> {
  const answer = await client.get<ActivityPage>('/api/v1/activity', query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Every line, following the cursors. */
async function everyLine(client: ApiClient, limit = 100): Promise<ActivityItem[]> {
  const lines: ActivityItem[] = [];
  let before: string | null = null;
  do {
    const page: ActivityPage = await activity(client, { limit, ...(before ? { before } : {}) });
    lines.push(...page.data);
    before = page.nextCursor;
  } while (before);
  return lines;
}

const summary = (line: ActivityItem) => [line.action, line.entity, line.recordName];

describe('GET /api/v1/activity', () => {
  it('tells record changes, imports, notes and files, newest first, naming the records and the actor', async () => {
    const company = await make.company({ name: 'Acme Robotics' });
    const updated = await admin.patch(
      `/api/v1/companies/${company.id}`,
      { legalName: 'Acme Robotics SA', employees: 12 },
      company.version as number,
    );
    expect(updated.status).toBe(200);
    await make.note('companies', company.id, 'Met the founders');
    await make.file('companies', company.id, new TextEncoder().encode('minutes'), 'minutes.txt');
    const gone = await make.company({ name: 'Gone Ltd' });
    expect((await admin.delete(`/api/v1/companies/${gone.id}`)).status).toBe(204);
    await make.fund({ name: 'Fund Nine' });
    const imported = await importFile(server, 'companies', 'a.csv', 'Name\nImported One\nImported Two');
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);

    const lines = (await activity(admin, { limit: 8 })).data;
    expect(lines.map(summary)).toEqual([
      ['imported', 'companies', null],
      ['created', 'funds', 'Fund Nine'],
      ['deleted', 'companies', null],
      ['created', 'companies', null],
      ['fileUploaded', 'companies', 'Acme Robotics'],
      ['noteAdded', 'companies', 'Acme Robotics'],
      ['updated', 'companies', 'Acme Robotics'],
      ['created', 'companies', 'Acme Robotics'],
    ]);
    const [importLine, , deleted, createdThenGone, file, note, update, created] = lines;
    expect(importLine).toMatchObject({ recordId: null, count: 2, recordExists: false });
    expect(deleted).toMatchObject({ recordId: gone.id, recordExists: false, recordName: null });
    expect(createdThenGone).toMatchObject({ recordId: gone.id, recordExists: false });
    expect(file).toMatchObject({ recordId: company.id, fileName: 'minutes.txt', recordExists: true });
    expect(note).toMatchObject({ recordId: company.id, fileName: null });
    expect(update?.fields).toEqual(['legalName', 'employees']);
    expect(created).toMatchObject({ recordId: company.id, fields: [], count: null, recordExists: true });
    expect(created?.actor).toEqual({ id: expect.any(Number), fullName: 'Admin' });
    expect(Date.parse(created?.createdAt ?? '')).not.toBeNaN();
  });

  it('counts what an import job created and updated', async () => {
    const kept = await make.company({ name: 'Kept By Name', employees: 1 });
    const csv = ['Name,Employees', `${String(kept.name)},2`, 'Job One,3', 'Job Two,4'].join('\n');
    const job = await importAll(server, 'companies', 'job.csv', csv, { duplicates: { key: 'name', action: 'update' } });
    expect(job).toMatchObject({ status: 'succeeded', created: 2, updated: 1 });
    const [line] = (await activity(admin, { limit: 1 })).data;
    expect(line).toMatchObject({ action: 'imported', entity: 'companies', count: 3, recordId: null });
  });

  it('pages by keyset: every line once, in order, whatever the page size', async () => {
    for (let i = 0; i < 7; i++) await make.deal({ name: `Paged deal ${i}` });
    const whole = await everyLine(admin);
    const paged = await everyLine(admin, 3);
    expect(paged.map((line) => line.id)).toEqual(whole.map((line) => line.id));
    const ids = whole.map((line) => line.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('refuses a cursor it did not give and a limit out of bounds', async () => {
    for (const query of [{ before: 'bm90IGpzb24' }, { before: Buffer.from('[1,2]').toString('base64url') }]) {
      const answer = await admin.get('/api/v1/activity', query);
      expect(answer.status).toBe(400);
    }
    expect((await admin.get('/api/v1/activity', { limit: 0 })).status).toBe(400);
    expect((await admin.get('/api/v1/activity', { limit: 101 })).status).toBe(400);
    expect((await fetch(`${server.url}/api/v1/activity`)).status).toBe(401);
  });

  it('tells a reader only of the records it may read: no name, no deleted record, no note of another type', async () => {
    const reader = await signInWithPermissions(server, ['deals:read', 'notes:read', 'files:read']);
    const client = withToken(server.url, reader.token);
    const secret = await make.company({ name: 'Secret Company' });
    await make.note('companies', secret.id, 'Hidden note');
    const secretGone = await make.investor({ name: 'Secret Investor' });
    expect((await admin.delete(`/api/v1/investors/${secretGone.id}`)).status).toBe(204);
    await importFile(server, 'companies', 'b.csv', 'Name\nHidden import');
    const deal = await make.deal({ name: 'Visible deal' });
    await make.note('deals', deal.id, 'Seen note');
    const dealGone = await make.deal({ name: 'Deal gone' });
    expect((await admin.delete(`/api/v1/deals/${dealGone.id}`)).status).toBe(204);

    const lines = await everyLine(client);
    expect(new Set(lines.map((line) => line.entity))).toEqual(new Set(['deals']));
    expect(JSON.stringify(lines)).not.toContain('Secret');
    expect(lines.slice(0, 4).map(summary)).toEqual([
      ['deleted', 'deals', null],
      ['created', 'deals', null],
      ['noteAdded', 'deals', 'Visible deal'],
      ['created', 'deals', 'Visible deal'],
    ]);
    // Colleagues are named as the lists name them, without users:read.
    expect(lines[3]?.actor?.fullName).toBe('Admin');

    // Notes without notes:read: the deals' own changes only.
    const dealsOnly = withToken(server.url, (await signInWithPermissions(server, ['deals:read'])).token);
    const theirs = await everyLine(dealsOnly);
    expect(theirs.filter((line) => line.action === 'noteAdded')).toEqual([]);
    expect(theirs.length).toBe(lines.length - 1);

    const nothing = withToken(server.url, (await signInWithPermissions(server, [])).token);
    expect(await activity(nothing)).toEqual({ data: [], nextCursor: null });
  });

  it('names only the fields the reader may read: a removed custom field is not named', async () => {
    const definition = await admin.post<{ id: number; key: string }>('/api/v1/custom-data', {
      entity: 'deals',
      name: 'Origin',
      type: 'text',
    });
    expect(definition.status, JSON.stringify(definition.body)).toBe(201);
    const deal = await make.deal({ name: 'Custom deal' });
    const key = definition.body.key;
    expect((await admin.patch(`/api/v1/deals/${deal.id}`, { [key]: 'Referral', stage: 'Sourced' }, 1)).status).toBe(
      200,
    );
    const named = (await activity(admin, { limit: 1 })).data[0];
    expect([...(named?.fields ?? [])].sort()).toEqual([key, 'stage'].sort());
    const removed = await admin.delete(`/api/v1/custom-data/${definition.body.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect((await activity(admin, { limit: 1 })).data[0]?.fields).toEqual(['stage']);
  });

  it('answers in the same statements however many lines and record types a page holds', async () => {
    const rows = vi.spyOn(server.database, 'rows');
    await activity(admin, { limit: 1 });
    const few = rows.mock.calls.length;
    rows.mockClear();
    await activity(admin, { limit: 100 });
    expect(rows.mock.calls.length).toBe(few);
    rows.mockRestore();
    expect(few).toBeLessThanOrEqual(2);
  });
});
