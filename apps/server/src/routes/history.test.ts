import { access } from 'node:fs/promises';
import path from 'node:path';
import { companies } from '@data-platform/shared/entities/companies';
import type { HistoryEntry, HistoryPage, RestoredRecord } from '@data-platform/shared/history';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, systemActor } from '../auth/actor.ts';
import { updateRecord } from '../crud/records.ts';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, errorOf, type Factories, factories, type Row } from '../testing/factories.ts';
import { expectHistoryTellsRecord } from '../testing/history-fold.ts';
import { importAll } from '../testing/import-jobs.ts';
import { importFile } from '../testing/imports.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Record history: written with every change in its transaction, read with the record's rights, restored. */

let server: TestServer;
let api: ApiClient;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  make = factories(api);
});

afterAll(async () => server?.close());

async function historyOf(resource: string, id: number, client: ApiClient = api, query = ''): Promise<HistoryEntry[]> {
  const answer = await client.get<HistoryPage>(`/api/v1/${resource}/${id}/history${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

const changesOf = (entry: HistoryEntry | undefined) =>
  Object.fromEntries((entry?.changes ?? []).map((c) => [c.field, [c.old, c.new]]));

async function historyRows(entity: string, id: number): Promise<number> {
  const rows = await server.database.rows(
    sql`select id from record_history where entity = ${entity} and record_id = ${id}`,
  );
  return rows.length;
}

describe('record history', () => {
  it('keeps each field old and new value, custom fields included, newest first, paged by cursor', async () => {
    const field = await api.post('/api/v1/custom-data', {
      entity: 'companies',
      name: `Source ${Date.now()}`,
      type: 'select',
      options: ['Referral', 'Conference'],
    });
    expect(field.status).toBe(201);
    const key = String(field.body.key);
    const company = await make.company({ name: 'Acme history', [key]: 'Referral' });
    const updated = await api.patch(
      `/api/v1/companies/${company.id}`,
      { name: 'Acme renamed', [key]: 'Conference' },
      1,
    );
    expect(updated.status).toBe(200);
    const [latest, first] = await historyOf('companies', company.id);
    expect(latest?.action).toBe('updated');
    expect(latest?.actor?.id).toBeGreaterThan(0);
    expect(changesOf(latest)).toEqual({ name: ['Acme history', 'Acme renamed'], [key]: ['Referral', 'Conference'] });
    expect(first?.action).toBe('created');
    expect(changesOf(first).name).toEqual([null, 'Acme history']);
    // An update that changes no value is not a change.
    await api.patch(`/api/v1/companies/${company.id}`, { name: 'Acme renamed' }, 2);
    expect(await historyOf('companies', company.id)).toHaveLength(2);

    const page = await api.get<HistoryPage>(`/api/v1/companies/${company.id}/history?limit=1`);
    expect(page.body.data.map((e) => e.id)).toEqual([latest?.id]);
    const next = await api.get<HistoryPage>(
      `/api/v1/companies/${company.id}/history?limit=1&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.data.map((e) => e.id)).toEqual([first?.id]);
    expect(next.body.nextCursor).toBeNull();
    const bad = await api.get(`/api/v1/companies/${company.id}/history?cursor=nonsense`);
    expect(bad.status).toBe(400);
  });

  it('leaves no history row when an update fails or is stale (412)', async () => {
    const company = await make.company();
    const before = await historyRows('companies', company.id);
    const stale = await api.patch(`/api/v1/companies/${company.id}`, { name: 'Too late' }, 7);
    expect(stale.status).toBe(412);
    // The statement fails inside the database (its writer does not exist): no row changed, no entry.
    const ghost: Actor = { ...systemActor, userId: 999_999_999 };
    await expect(updateRecord(server.database, companies, company.id, 1, { name: 'Broken' }, ghost)).rejects.toThrow();
    expect(await historyRows('companies', company.id)).toBe(before);
    expect((await api.get<Row>(`/api/v1/companies/${company.id}`)).body.name).toBe(company.name);
  });

  it('tells notes, files and links added and removed on the record, and imports', async () => {
    const company = await make.company();
    const contact = await make.contact();
    const link = await make.link('contactCompanies', { contactId: contact.id, companyId: company.id, role: 'CEO' });
    const note = await make.note('companies', company.id, 'Met at the fair');
    const file = await make.file('companies', company.id, new TextEncoder().encode('deck'), 'deck.txt');
    expect((await api.delete(`/api/v1/contactCompanies/${link.id}`)).status).toBe(204);
    const entries = await historyOf('companies', company.id);
    const about = (entity: string, action: string) =>
      entries.find((e) => e.subject?.entity === entity && e.action === action);
    expect(about('notes', 'created')?.changes.find((c) => c.field === 'body')?.new).toBe('Met at the fair');
    expect(about('notes', 'created')?.subject?.id).toBe(note.id);
    expect(about('files', 'created')?.changes.find((c) => c.field === 'name')?.new).toBe('deck.txt');
    expect(about('files', 'created')?.subject?.id).toBe(file.id);
    expect(about('contactCompanies', 'created')?.linked).toMatchObject({ entity: 'contacts', id: contact.id });
    expect(about('contactCompanies', 'created')?.linked?.name).toContain('Ada');
    expect(about('contactCompanies', 'deleted')?.linked).toMatchObject({ entity: 'contacts', id: contact.id });
    // The contact's timeline tells the same link from its side.
    const contactEntries = await historyOf('contacts', contact.id);
    expect(contactEntries.find((e) => e.subject?.entity === 'contactCompanies')?.linked).toMatchObject({
      entity: 'companies',
      id: company.id,
    });

    const name = `Imported ${Date.now()}`;
    const imported = await importFile(server, 'companies', 'c.csv', `Name\n${name}\n`);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const found = await api.list('/api/v1/companies', { 'filter[name][eq]': name });
    const id = found.body.data[0]?.id as number;
    const [created] = await historyOf('companies', id);
    expect(created?.action).toBe('created');
    expect(changesOf(created).name).toEqual([null, name]);
  });

  it('follows the record rights: 403 without the right, 404 when not readable, unreadable fields left out', async () => {
    const fund = await make.fund();
    const deal = await make.deal({ stage: undefined });
    expect((await api.patch(`/api/v1/deals/${deal.id}`, { fundId: fund.id, source: 'Referral' }, 1)).status).toBe(200);
    const noDeals = await signInWithPermissions(server, ['companies:read']);
    const viewer = withToken(server.url, noDeals.token);
    const refused = await viewer.get(`/api/v1/deals/${deal.id}/history`);
    expect([403, 404]).toContain(refused.status);
    const dealsOnly = withToken(server.url, (await signInWithPermissions(server, ['deals:read'])).token);
    const [latest] = await historyOf('deals', deal.id, dealsOnly);
    expect(latest?.changes.map((c) => c.field)).toEqual(['source']);
    const [full] = await historyOf('deals', deal.id);
    expect(full?.changes.map((c) => c.field).sort()).toEqual(['fundId', 'source']);
    expect((await dealsOnly.get('/api/v1/deals/999999999/history')).status).toBe(404);
    // Notes are told only to readers of notes.
    await make.note('deals', deal.id, 'Private note');
    expect((await historyOf('deals', deal.id, dealsOnly)).some((e) => e.subject?.entity === 'notes')).toBe(false);
    expect((await historyOf('deals', deal.id)).some((e) => e.subject?.entity === 'notes')).toBe(true);
  });
});

describe("an imported record's created entry (decision 0040)", () => {
  const elided = async (entity: string, id: number) =>
    server.database.rows<{ changes: unknown; changes_elided: boolean }>(
      sql`select changes, changes_elided from record_history
        where entity = ${entity} and record_id = ${id} and action = 'created' and subject_entity is null`,
    );
  const importedCompany = async (name: string, city: string, description: string) => {
    const imported = await importFile(
      server,
      'companies',
      'c.csv',
      `Name,City,Description\n${name},${city},${description}\n`,
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const found = await api.list('/api/v1/companies', { 'filter[name][eq]': name });
    return found.body.data[0] as Row & { id: number; version: number };
  };

  it('keeps no values, yet tells the first ones after later changes, a deletion and a restore', async () => {
    const name = `Told ${Date.now()}`;
    const company = await importedCompany(name, 'Lyon', 'First words');
    expect(await elided('companies', company.id)).toEqual([{ changes: {}, changes_elided: true }]);
    const created = async () => (await historyOf('companies', company.id)).find((e) => e.action === 'created');
    expect(changesOf(await created())).toEqual({
      name: [null, name],
      city: [null, 'Lyon'],
      description: [null, 'First words'],
    });

    // Changed twice, a value emptied and one set that was empty: the entry still tells the first values.
    const patch = (body: Record<string, unknown>, version: number) =>
      api.patch(`/api/v1/companies/${company.id}`, body, version);
    expect((await patch({ name: `${name} renamed`, city: 'Paris' }, 1)).status).toBe(200);
    expect((await patch({ city: 'Nice', description: null, website: 'https://told.example' }, 2)).status).toBe(200);
    expect(changesOf(await created())).toEqual({
      name: [null, name],
      city: [null, 'Lyon'],
      description: [null, 'First words'],
    });
    await expectHistoryTellsRecord(api, 'companies', company.id);

    // Deleted: told from the deletion's values backward. Restored: from the record again.
    expect((await api.delete(`/api/v1/companies/${company.id}`)).status).toBe(204);
    expect(changesOf(await created())).toMatchObject({ city: [null, 'Lyon'], description: [null, 'First words'] });
    const restored = await api.post<RestoredRecord>(`/api/v1/companies/${company.id}/restore`, {});
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await patch({ city: 'Brest' }, restored.body.record.version as number)).status).toBe(200);
    expect(changesOf(await created())).toEqual({
      name: [null, name],
      city: [null, 'Lyon'],
      description: [null, 'First words'],
    });
    await expectHistoryTellsRecord(api, 'companies', company.id);
  });

  it('restores a field from it as from any created entry', async () => {
    const company = await importedCompany(`Restorable ${Date.now()}`, 'Metz', 'Kept');
    const entry = (await historyOf('companies', company.id)).find((e) => e.action === 'created');
    const restored = await api.send<Row>('POST', `/api/v1/companies/${company.id}/history/${entry?.id}/restore`, {
      body: { field: 'city' },
      headers: { 'if-match': String(company.version) },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.city).toBeNull();
    const unchanged = await api.send('POST', `/api/v1/companies/${company.id}/history/${entry?.id}/restore`, {
      body: { field: 'website' },
      headers: { 'if-match': String(restored.body.version) },
    });
    expect(unchanged.status).toBe(400);
  });

  it("keeps its values before a merge moves the merged record's timeline into the survivor's", async () => {
    const stamp = Date.now();
    const survivor = await importedCompany(`Survivor ${stamp}`, 'Caen', 'Stays');
    const merged = await importedCompany(`Merged ${stamp}`, 'Rouen', 'Goes');
    const answer = await api.post('/api/v1/companies/merge', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: survivor.version,
      mergedVersion: merged.version,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await elided('companies', survivor.id)).map((row) => row.changes_elided)).toEqual([false, false]);
    const created = (await historyOf('companies', survivor.id, api, '?limit=100'))
      .filter((e) => e.action === 'created' && e.subject === null)
      .map((e) => changesOf(e).city?.[1])
      .sort();
    expect(created).toEqual(['Caen', 'Rouen']);
  });

  it('tells an imported note from the note, on the timeline of the record it is on', async () => {
    const company = await make.company({ name: `Noted ${Date.now()}` });
    const job = await importAll(
      server,
      'notes',
      'n.csv',
      `Record type,Record,Note\ncompanies,${company.id},Imported words\n`,
    );
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const [row] = await server.database.rows<{ changes_elided: boolean; subject_id: number | string }>(
      sql`select changes_elided, subject_id from record_history
        where entity = 'companies' and record_id = ${company.id} and subject_entity = 'notes'`,
    );
    expect(row?.changes_elided).toBe(true);
    const noteId = Number(row?.subject_id);
    const note = await api.get<Row>(`/api/v1/notes/${noteId}`);
    expect(
      (await api.patch(`/api/v1/notes/${noteId}`, { body: 'Edited words' }, note.body.version as number)).status,
    ).toBe(200);
    const entries = await historyOf('companies', company.id);
    const first = entries.find((e) => e.subject?.entity === 'notes' && e.action === 'created');
    expect(changesOf(first).body).toEqual([null, 'Imported words']);
  });

  it('tells a page of entries about different rows each from its own row and later entries', async () => {
    const company = await importedCompany(`Paged ${Date.now()}`, 'Tours', 'Many notes');
    const words = ['First imported', 'Second imported', 'Third imported'];
    const job = await importAll(
      server,
      'notes',
      'n.csv',
      `Record type,Record,Note\n${words.map((body) => `companies,${company.id},${body}`).join('\n')}\n`,
    );
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const notes = await server.database.rows<{ subject_id: number | string }>(
      sql`select subject_id from record_history
        where entity = 'companies' and record_id = ${company.id} and subject_entity = 'notes' order by subject_id`,
    );
    const second = Number(notes[1]?.subject_id);
    const note = await api.get<Row>(`/api/v1/notes/${second}`);
    expect((await api.patch(`/api/v1/notes/${second}`, { body: 'Edited' }, note.body.version as number)).status).toBe(
      200,
    );
    const created = (await historyOf('companies', company.id)).filter((e) => e.action === 'created');
    expect(created.map((e) => [e.subject?.id ?? null, changesOf(e).body?.[1] ?? changesOf(e).city?.[1]])).toEqual([
      ...notes.map((row, i) => [Number(row.subject_id), words[i]]).reverse(),
      [null, 'Tours'],
    ]);
  });
});

describe('restore', () => {
  it('sets a field back to its earlier value with the version check', async () => {
    const company = await make.company({ name: 'Before' });
    await api.patch(`/api/v1/companies/${company.id}`, { name: 'After' }, 1);
    const [entry] = await historyOf('companies', company.id);
    const stale = await api.send('POST', `/api/v1/companies/${company.id}/history/${entry?.id}/restore`, {
      body: { field: 'name' },
      headers: { 'if-match': '1' },
    });
    expect(stale.status).toBe(412);
    expect(errorOf(stale).message).toMatch(/changed by someone else/);
    const restored = await api.send<Row>('POST', `/api/v1/companies/${company.id}/history/${entry?.id}/restore`, {
      body: { field: 'name' },
      headers: { 'if-match': '2' },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.name).toBe('Before');
    expect(restored.body.version).toBe(3);
    const [latest] = await historyOf('companies', company.id);
    expect(latest?.action).toBe('restored');
    expect(changesOf(latest).name).toEqual(['After', 'Before']);
    const notChanged = await api.send('POST', `/api/v1/companies/${company.id}/history/${entry?.id}/restore`, {
      body: { field: 'website' },
      headers: { 'if-match': '3' },
    });
    expect(notChanged.status).toBe(400);
  });

  it('brings a deleted record back with its links of every kind, notes and files, once', async () => {
    const company = await make.company({ name: 'Gone and back' });
    const contact = await make.contact();
    const deal = await make.deal();
    const contactLink = await make.link('contactCompanies', { contactId: contact.id, companyId: company.id });
    const dealLink = await make.link('dealCompanies', { dealId: deal.id, companyId: company.id });
    const note = await make.note('companies', company.id, 'Keep me');
    const bytes = new TextEncoder().encode('the deck');
    const file = await make.file('companies', company.id, bytes, 'deck.txt');
    expect((await api.delete(`/api/v1/companies/${company.id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/companies/${company.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/notes/${note.id}`)).status).toBe(404);
    // The file's bytes are kept for the restore.
    await access(path.join(server.dataDir, 'files', String(file.id)));
    const [deletion] = await historyOf('companies', company.id);
    expect(deletion?.action).toBe('deleted');
    expect(deletion?.restorable).toBe(true);
    expect(changesOf(deletion).name).toEqual(['Gone and back', null]);
    expect((await historyOf('contacts', contact.id)).find((e) => e.action === 'deleted')?.linked?.id).toBe(company.id);

    const restored = await api.post<RestoredRecord>(`/api/v1/companies/${company.id}/restore`, {});
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.record.name).toBe('Gone and back');
    expect(restored.body).toMatchObject({ restoredRows: 4, skippedRows: 0 });
    expect((await api.get(`/api/v1/companies/${company.id}`)).status).toBe(200);
    expect((await api.get(`/api/v1/contactCompanies/${contactLink.id}`)).status).toBe(200);
    expect((await api.get(`/api/v1/dealCompanies/${dealLink.id}`)).status).toBe(200);
    expect((await api.get<Row>(`/api/v1/notes/${note.id}`)).body.body).toBe('Keep me');
    const content = await server.fetch(`/api/v1/files/${file.id}/content`);
    expect(await content.text()).toBe('the deck');
    const [back] = await historyOf('companies', company.id);
    expect(back?.action).toBe('restored');
    expect((await historyOf('companies', company.id)).some((e) => e.restorable)).toBe(false);
    expect((await historyOf('deals', deal.id))[0]).toMatchObject({ action: 'restored', linked: { id: company.id } });
    // Restored once: there is nothing left to restore.
    expect((await api.post(`/api/v1/companies/${company.id}/restore`, {})).status).toBe(409);
  });

  it('keeps snapshots for the retention period the administrator sets, then prunes them and their files', async () => {
    expect((await api.get('/api/v1/history/settings')).body).toEqual({ retentionDays: 30 });
    const viewer = withToken(server.url, (await signInWithPermissions(server, ['companies:read'])).token);
    expect((await viewer.get('/api/v1/history/settings')).status).toBe(403);
    expect((await api.send('PATCH', '/api/v1/history/settings', { body: { retentionDays: 0 } })).status).toBe(400);
    const company = await make.company();
    const file = await make.file('companies', company.id, new TextEncoder().encode('old'), 'old.txt');
    expect((await api.delete(`/api/v1/companies/${company.id}`)).status).toBe(204);
    // Deleted 40 days ago, as far as the history knows.
    await server.database.rows(
      sql`update record_history set created_at = now() - interval '40 days'
        where entity = 'companies' and record_id = ${company.id}`,
    );
    const set = await api.send('PATCH', '/api/v1/history/settings', { body: { retentionDays: 35 } });
    expect(set.body).toEqual({ retentionDays: 35 });
    expect((await api.post(`/api/v1/companies/${company.id}/restore`, {})).status).toBe(404);
    await expect(access(path.join(server.dataDir, 'files', String(file.id)))).rejects.toThrow();
    await api.send('PATCH', '/api/v1/history/settings', { body: { retentionDays: 30 } });
  });
});
