import type { DuplicatePair, DuplicatesPage, MergeResult } from '@data-platform/shared/duplicates';
import type { HistoryPage } from '@data-platform/shared/history';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, type Factories, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Likely duplicates listed for review and two records merged into one (decision 0032). */

let server: TestServer;
let api: ApiClient;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  make = factories(api);
});

afterAll(async () => server?.close());

/** Every pair the caller is shown, following the cursor to the end. */
async function allPairs(resource: string, client: ApiClient = api): Promise<DuplicatePair[]> {
  const pairs: DuplicatePair[] = [];
  let cursor: string | null | undefined;
  do {
    const page = await client.get<DuplicatesPage>(`/api/v1/${resource}/duplicates`, {
      limit: 50,
      cursor: cursor ?? undefined,
    });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    pairs.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return pairs;
}

const pairOf = (pairs: DuplicatePair[], a: number, b: number) =>
  pairs.find((p) => {
    const ids = p.records.map((r) => r.id);
    return ids.includes(a) && ids.includes(b);
  });

/** A suffix no other test's names share, so that each test's pairs are its own. */
const tag = () => Math.random().toString(36).slice(2, 8);

async function merge(resource: string, body: Record<string, unknown>, client: ApiClient = api) {
  return client.post<MergeResult>(`/api/v1/${resource}/merge`, body);
}

async function rowsPointingAt(table: string, column: string, id: number): Promise<number> {
  const rows = await server.database.rows(
    sql`select 1 from ${sql.identifier(table)} where ${sql.identifier(column)} = ${id}`,
  );
  return rows.length;
}

describe('likely duplicates', () => {
  it('pairs companies with the same domain and with names spelled alike, each pair once, with its reasons', async () => {
    const t = tag();
    const acme = await make.company({ name: `Zorblax ${t} Holdings`, website: `https://www.zx${t}.com/about` });
    const acmeToo = await make.company({ name: `Quintessa ${t}`, website: `http://ZX${t}.COM` });
    const spelled = await make.company({ name: `Zorblax ${t} Holding` });
    const other = await make.company({ name: `Unrelated ${t} Partners` });
    const pairs = await allPairs('companies');
    const byDomain = pairOf(pairs, acme.id, acmeToo.id);
    expect(byDomain?.reasons).toEqual([{ kind: 'sameValue', field: 'domain', value: `zx${t}.com` }]);
    expect(byDomain?.records.map((r) => r.id)).toEqual([acme.id, acmeToo.id]);
    expect(byDomain?.records[0]?.name).toBe(`Zorblax ${t} Holdings`);
    expect(byDomain?.records[1]?.values.website).toBe(`http://ZX${t}.COM`);
    const byName = pairOf(pairs, acme.id, spelled.id);
    expect(byName?.reasons).toEqual([{ kind: 'similarName', field: 'name', score: expect.any(Number) }]);
    expect(byName?.reasons[0]?.kind === 'similarName' && byName.reasons[0].score).toBeGreaterThan(0.7);
    expect(pairOf(pairs, acme.id, other.id)).toBeUndefined();
    expect(pairOf(pairs, acmeToo.id, spelled.id)).toBeUndefined();
    const ids = pairs.map((p) => p.records.map((r) => r.id).join('-'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('pairs contacts with names spelled alike', async () => {
    const t = tag();
    const ada = await make.contact({ firstName: 'Ada', lastName: `Lovelace${t}` });
    const adah = await make.contact({ firstName: 'Adah', lastName: `Lovelace${t}` });
    const grace = await make.contact({ firstName: 'Grace', lastName: `Hopper${t}` });
    const pairs = await allPairs('contacts');
    const similar = pairOf(pairs, ada.id, adah.id);
    expect(similar?.reasons.map((r) => r.kind)).toEqual(['similarName']);
    expect(similar?.records[0]?.values.email).toBe(ada.email);
    expect(pairOf(pairs, ada.id, grace.id)).toBeUndefined();
    // Emails are kept in lower case and unique: two contacts never share one, so names are what pair them.
    expect(pairOf(pairs, ada.id, adah.id)?.reasons).not.toContainEqual(expect.objectContaining({ field: 'email' }));
  });

  it('pages by cursor with at most `limit` pairs a page, and a bad cursor is refused', async () => {
    const t = tag();
    for (let i = 0; i < 3; i++) await make.company({ name: `Pagewise ${t}`, website: `https://page${i}${t}.org` });
    const first = await api.get<DuplicatesPage>('/api/v1/companies/duplicates', { limit: 1 });
    expect(first.status).toBe(200);
    expect(first.body.data.length).toBeLessThanOrEqual(1);
    const all = await allPairs('companies');
    const paged: DuplicatePair[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await api.get<DuplicatesPage>('/api/v1/companies/duplicates', {
        limit: 2,
        cursor: cursor ?? undefined,
      });
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged.map((p) => p.records.map((r) => r.id))).toEqual(all.map((p) => p.records.map((r) => r.id)));
    expect((await api.get('/api/v1/companies/duplicates', { cursor: 'nonsense' })).status).toBe(400);
    expect((await api.get('/api/v1/companies/duplicates', { limit: 0 })).status).toBe(400);
  });

  it('no longer lists a pair dismissed as not duplicates', async () => {
    const t = tag();
    const a = await make.company({ name: `Dismissable ${t} Group` });
    const b = await make.company({ name: `Dismissable ${t} Groups` });
    expect(pairOf(await allPairs('companies'), a.id, b.id)).toBeDefined();
    const dismissed = await api.post('/api/v1/companies/duplicates/dismiss', { ids: [b.id, a.id] });
    expect(dismissed.status).toBe(204);
    expect(pairOf(await allPairs('companies'), a.id, b.id)).toBeUndefined();
    expect((await api.post('/api/v1/companies/duplicates/dismiss', { ids: [a.id, a.id] })).status).toBe(400);
    expect((await api.post('/api/v1/companies/duplicates/dismiss', { ids: [a.id, 987654321] })).status).toBe(404);
  });

  it('answers 403 to a caller who may not read the entity, and lists for a reader without merge rights', async () => {
    const noCompanies = await signInWithPermissions(server, ['contacts:read']);
    const client = withToken(server.url, noCompanies.token);
    expect((await client.get('/api/v1/companies/duplicates')).status).toBe(403);
    expect((await client.get('/api/v1/contacts/duplicates')).status).toBe(200);
    const reader = await signInWithPermissions(server, ['companies:read', 'companies:update']);
    const readerClient = withToken(server.url, reader.token);
    expect((await readerClient.get('/api/v1/companies/duplicates')).status).toBe(200);
    const a = await make.company();
    const b = await make.company();
    // Merging deletes one record: it needs the delete right too.
    const refused = await merge(
      'companies',
      { survivorId: a.id, mergedId: b.id, survivorVersion: 1, mergedVersion: 1 },
      readerClient,
    );
    expect(refused.status).toBe(403);
    expect((await api.get(`/api/v1/companies/${b.id}`)).status).toBe(200);
  });
});

describe('merging two records', () => {
  it('moves every kind of link, note, file, task and history entry to the survivor, keeping a shared link once', async () => {
    const survivor = await make.company({ name: 'Mergeco survivor' });
    const merged = await make.company({ name: 'Mergeco merged', description: 'From the merged one' });
    const deal = await make.deal();
    const dealOfBoth = await make.deal();
    const contact = await make.contact();
    const contactOfBoth = await make.contact();
    await make.link('dealCompanies', { dealId: deal.id, companyId: merged.id });
    await make.link('dealCompanies', { dealId: dealOfBoth.id, companyId: merged.id });
    await make.link('dealCompanies', { dealId: dealOfBoth.id, companyId: survivor.id });
    await make.link('contactCompanies', { contactId: contact.id, companyId: merged.id, role: 'CEO' });
    await make.link('contactCompanies', { contactId: contactOfBoth.id, companyId: merged.id });
    await make.link('contactCompanies', { contactId: contactOfBoth.id, companyId: survivor.id, role: 'Advisor' });
    const note = await make.note('companies', merged.id, 'Met at the fair');
    const file = await make.file('companies', merged.id);
    const task = await make.create('tasks', {
      title: 'Call them back',
      status: 'Open',
      entity: 'companies',
      recordId: merged.id,
    });
    const mergedHistory = await server.database.rows(
      sql`select id from record_history where entity = 'companies' and record_id = ${merged.id}`,
    );
    expect(mergedHistory.length).toBeGreaterThan(0);

    const answer = await merge('companies', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: survivor.version,
      mergedVersion: merged.version,
      picks: { description: 'merged', name: 'survivor' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.record).toMatchObject({
      id: survivor.id,
      name: 'Mergeco survivor',
      description: 'From the merged one',
    });
    expect(answer.body.dropped).toBe(2);

    expect((await api.get(`/api/v1/companies/${merged.id}`)).status).toBe(404);
    const deals = await api.list(`/api/v1/companies/${survivor.id}/deals`);
    expect(deals.body.data.map((d) => d.id).sort()).toEqual([deal.id, dealOfBoth.id].sort());
    const contacts = await api.list<Row & { link?: { role?: string } }>(`/api/v1/companies/${survivor.id}/contacts`);
    expect(contacts.body.data.map((c) => c.id).sort()).toEqual([contact.id, contactOfBoth.id].sort());
    expect(await rowsPointingAt('contact_companies', 'company_id', merged.id)).toBe(0);
    expect(await rowsPointingAt('deal_companies', 'company_id', merged.id)).toBe(0);
    // The survivor's own link is the one kept.
    const kept = await api.list('/api/v1/contactCompanies', {
      'filter[contactId][eq]': contactOfBoth.id,
      'filter[companyId][eq]': survivor.id,
    });
    expect(kept.body.data.map((l) => l.role)).toEqual(['Advisor']);

    for (const [resource, row] of [
      ['notes', note],
      ['files', file],
      ['tasks', task],
    ] as const) {
      const moved = await api.get(`/api/v1/${resource}/${row.id}`);
      expect(moved.body, resource).toMatchObject({ entity: 'companies', recordId: survivor.id });
    }
    const movedHistory = await server.database.rows<{ record_id: number | string }>(
      sql`select record_id from record_history where id = any(${`{${mergedHistory.map((r) => (r as { id: number }).id).join(',')}}`}::bigint[])`,
    );
    expect(movedHistory.map((r) => Number(r.record_id))).toEqual(mergedHistory.map(() => survivor.id));
    // One deal link and one contact link moved (the shared ones dropped), the note, the file and the task.
    expect(answer.body.moved).toBe(5);
  });

  it('applies picked values, a custom field included, and tells both timelines', async () => {
    const field = await api.post('/api/v1/custom-data', {
      entity: 'companies',
      name: `Source ${tag()}`,
      type: 'text',
    });
    expect(field.status).toBe(201);
    const key = String(field.body.key);
    const survivor = await make.company({ name: 'Picked survivor', [key]: 'Kept' });
    const merged = await make.company({ name: 'Picked merged name', employees: 42, [key]: 'Taken' });
    const answer = await merge('companies', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: 1,
      mergedVersion: 1,
      picks: { name: 'merged', employees: 'merged', [key]: 'merged' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.record).toMatchObject({ name: 'Picked merged name', employees: 42, [key]: 'Taken', version: 2 });

    const timeline = await api.get<HistoryPage>(`/api/v1/companies/${survivor.id}/history`);
    const latest = timeline.body.data[0];
    expect(latest?.action).toBe('updated');
    expect(Object.fromEntries(latest?.changes.map((c) => [c.field, [c.old, c.new]]) ?? [])).toMatchObject({
      name: ['Picked survivor', 'Picked merged name'],
      employees: [null, 42],
      [key]: ['Kept', 'Taken'],
    });
    const [mergedFrom] = await server.database.rows<{ action: string; changes: Record<string, unknown> }>(
      sql`select action, changes from record_history
        where entity = 'companies' and record_id = ${survivor.id} and subject_entity = 'companies' and subject_id = ${merged.id}`,
    );
    expect(mergedFrom?.action).toBe('deleted');
    expect(mergedFrom?.changes.name).toEqual(['Picked merged name', null]);
    // The survivor's timeline names the record merged into it (deleted since, named by its kept values).
    expect(timeline.body.data).toContainEqual(
      expect.objectContaining({
        action: 'deleted',
        subject: { entity: 'companies', id: merged.id },
        linked: { entity: 'companies', id: merged.id, name: 'Picked merged name' },
      }),
    );
    const [deleted] = await server.database.rows<{ action: string }>(
      sql`select action from record_history where entity = 'companies' and record_id = ${merged.id} and subject_entity is null`,
    );
    expect(deleted?.action).toBe('deleted');
  });

  it('merges contacts, the merged one taking its email over, their links collapsed', async () => {
    const survivor = await make.contact();
    const merged = await make.contact();
    const firm = await make.firm();
    const fund = await make.fund();
    await make.link('contactFunds', { contactId: merged.id, fundId: fund.id });
    await make.link('contactFunds', { contactId: survivor.id, fundId: fund.id });
    const answer = await merge('contacts', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: 1,
      mergedVersion: 1,
      picks: { email: 'merged' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.record.email).toBe(merged.email);
    expect(answer.body.dropped).toBe(1);
    expect(await rowsPointingAt('contact_funds', 'contact_id', survivor.id)).toBe(1);
    expect(firm.id).toBeGreaterThan(0);
  });

  it('writes nothing when either version is stale (412), and refuses unknown ids and a record merged into itself', async () => {
    const survivor = await make.company({ name: 'Stale survivor' });
    const merged = await make.company({ name: 'Stale merged' });
    await make.note('companies', merged.id, 'Stays put');
    await api.patch(`/api/v1/companies/${merged.id}`, { employees: 5 }, 1);
    const stale = await merge('companies', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: 1,
      mergedVersion: 1,
      picks: { name: 'merged' },
    });
    expect(stale.status).toBe(412);
    expect((await api.get(`/api/v1/companies/${survivor.id}`)).body).toMatchObject({
      name: 'Stale survivor',
      version: 1,
    });
    expect((await api.get(`/api/v1/companies/${merged.id}`)).body).toMatchObject({ name: 'Stale merged', version: 2 });
    expect(await rowsPointingAt('notes', 'record_id', merged.id)).toBe(1);
    const staleSurvivor = await merge('companies', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: 7,
      mergedVersion: 2,
    });
    expect(staleSurvivor.status).toBe(412);

    const missing = await merge('companies', {
      survivorId: survivor.id,
      mergedId: 987654321,
      survivorVersion: 1,
      mergedVersion: 1,
    });
    expect(missing.status).toBe(404);
    const itself = await merge('companies', {
      survivorId: survivor.id,
      mergedId: survivor.id,
      survivorVersion: 1,
      mergedVersion: 1,
    });
    expect(itself.status).toBe(400);
    const unknownField = await merge('companies', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: 1,
      mergedVersion: 2,
      picks: { nonsense: 'merged' },
    });
    expect(unknownField.status).toBe(400);
    const serverOwned = await merge('companies', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: 1,
      mergedVersion: 2,
      picks: { domain: 'merged' },
    });
    expect(serverOwned.status).toBe(400);
    expect((await api.get(`/api/v1/companies/${merged.id}`)).status).toBe(200);
  });
});
