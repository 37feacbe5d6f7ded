import { access } from 'node:fs/promises';
import path from 'node:path';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities, entityList, findEntity } from '@data-platform/shared/entities/registry';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, systemActor } from '../auth/actor.ts';
import { recordChangeInsertSql } from '../auth/audit.ts';
import type { Executor } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
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
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { auditedWriteSql, createRecord } from './records.ts';

/** Create, update with versions (also concurrently), and delete with everything that hangs off a record. */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let server: TestServer;
let api: ApiClient;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  make = factories(api);
});

afterAll(async () => server?.close());

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );
const storedBytes = (fileId: number) => path.join(server.dataDir, 'files', String(fileId));

/** Notes and files whose record is gone, for every kind of record they can belong to. */
async function danglingAttachments(): Promise<string[]> {
  const found: string[] = [];
  for (const attached of entityList.filter((e) => e.attachedTo)) {
    const { entityField, idField } = attached.attachedTo as { entityField: string; idField: string };
    const kinds = attached.fields[entityField]?.options ?? [];
    for (const kind of kinds) {
      const target = findEntity(kind);
      if (!target) continue;
      const rows = await server.database.rows<{ id: number }>(
        sql`select a.id from ${sql.identifier(attached.table)} a
          where ${sql.identifier(columnName(entityField))} = ${kind}
            and not exists (select 1 from ${sql.identifier(target.table)} r where r.id = a.${sql.identifier(columnName(idField))})`,
      );
      found.push(...rows.map((r) => `${attached.name} ${r.id} of ${kind}`));
    }
  }
  return found;
}

describe('create and update', () => {
  it('creates a record with version 1 and who made it, and reads it back the same', async () => {
    const created = await api.post('/api/v1/contacts', {
      firstName: '  Ada ',
      lastName: 'Lovelace',
      email: 'Ada@Example.COM',
      tags: ['math'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      version: 1,
      firstName: 'Ada',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      tags: ['math'],
      otherEmails: [],
      phone: null,
      createdById: expect.any(Number),
      updatedById: expect.any(Number),
    });
    expect(created.headers.get('etag')).toBe('"1"');
    const read = await api.get(`/api/v1/contacts/${created.body.id}`);
    expect(read.body).toEqual(created.body);
  });

  it('updates only the fields sent, bumps the version and clears a field sent as null', async () => {
    const company = await make.company({ name: 'Acme', city: 'Boston', revenue: { amount: 10, currency: 'USD' } });
    const updated = await api.patch(`/api/v1/companies/${company.id}`, { city: null, employees: 12 }, 1);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Acme',
      city: null,
      employees: 12,
      revenue: { amount: 10, currency: 'USD' },
      version: 2,
      createdAt: company.createdAt,
    });
    expect(updated.body.updatedAt).not.toBe(company.updatedAt);
    expect(updated.headers.get('etag')).toBe('"2"');
    const again = await api.patch(`/api/v1/companies/${company.id}`, { revenue: null }, 2);
    expect(again.body).toMatchObject({ revenue: null, version: 3 });
  });
});

describe('references to what the writer may not read', () => {
  it('setting one answers 403 naming the permission, whether the record exists or not; clearing one is allowed', async () => {
    const firm = await make.firm();
    const { token } = await signInWithPermissions(server, [
      'contacts:read',
      'contacts:create',
      'contacts:update',
      'funds:read',
      'funds:create',
    ]);
    const writer = withToken(server.url, token);
    const contact = { firstName: 'Grace', lastName: 'Hopper' };
    for (const firmId of [firm.id, firm.id + 1_000_000]) {
      for (const answer of [
        await writer.post('/api/v1/contacts', { ...contact, firmId }),
        await writer.post('/api/v1/funds', { name: unique('Fund'), currency: 'USD', firmId }),
      ]) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(403);
        expect(errorOf(answer)).toMatchObject({
          code: 'forbidden',
          message: expect.stringContaining('firms:read'),
          fields: { firmId: expect.stringContaining('firms:read') },
        });
      }
    }
    const created = await writer.post('/api/v1/contacts', { ...contact, firmId: null });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const moved = await writer.patch(`/api/v1/contacts/${created.body.id}`, { firmId: firm.id }, 1);
    expect(moved.status).toBe(403);
    expect(errorOf(moved).message).toContain('firms:read');
    const renamed = await writer.patch(`/api/v1/contacts/${created.body.id}`, { title: 'Admiral', firmId: null }, 1);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const [stored] = await server.database.rows<{ n: number }>(
      sql`select count(*)::int as n from contacts where last_name = 'Hopper' and firm_id is not null`,
    );
    expect(stored?.n).toBe(0);
  });
});

describe('concurrent updates', () => {
  it('two PATCHes with the same version at the same time: one 200, one 412, version up by one', async () => {
    for (let round = 0; round < 5; round++) {
      const company = await make.company({ name: 'Race' });
      const [a, b] = await Promise.all([
        api.patch(`/api/v1/companies/${company.id}`, { city: 'Left' }, 1),
        api.patch(`/api/v1/companies/${company.id}`, { city: 'Right' }, 1),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 412]);
      const winner = a.status === 200 ? a : b;
      const after = await api.get(`/api/v1/companies/${company.id}`);
      expect(after.body).toMatchObject({ version: 2, city: winner.body.city });
    }
  });

  it('many writers with the same version: exactly one wins', async () => {
    const company = await make.company({ name: 'Crowd' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.patch(`/api/v1/companies/${company.id}`, { employees: i }, 1)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 412)).toHaveLength(7);
    expect((await api.get(`/api/v1/companies/${company.id}`)).body.version).toBe(2);
  });
});

describe('a write in one statement', () => {
  const currencies = entities.currencies as EntityDescription;
  const rowsOfCode = (code: string) =>
    server.database.rows(sql`select id from currencies where code = ${code}`).then((rows) => rows.length);

  /** The database's own error under the driver's wrapping. */
  async function databaseError(run: Promise<unknown>): Promise<{ code?: string; message?: string }> {
    const error = await run.then(
      () => undefined,
      (thrown: unknown) => thrown as { cause?: unknown; code?: string },
    );
    expect(error, 'expected the statement to fail').toBeDefined();
    return ((error as { cause?: unknown }).cause ?? error) as { code?: string; message?: string };
  }

  it('leaves no row when its audit event cannot be written', async () => {
    // Currencies name no writer, so only the event refers to this user, who does not exist.
    const ghost: Actor = { ...systemActor, userId: 999_999_999 };
    const failed = await databaseError(
      createRecord(server.database, currencies, { code: 'QQA', name: 'Ghost' }, ghost, {}, undefined, {
        ip: '10.0.0.1',
      }),
    );
    expect(failed.code).toBe('23503');
    expect(await rowsOfCode('QQA')).toBe(0);
    // The same write with a writer who exists goes through, with its event.
    await createRecord(server.database, currencies, { code: 'QQA', name: 'Real' }, systemActor, {}, undefined, {
      ip: '10.0.0.1',
    });
    expect(await rowsOfCode('QQA')).toBe(1);
  });

  it('leaves no row and no event when the row does not read back as one JSON object', async () => {
    const event = (source: SQL) =>
      recordChangeInsertSql({ type: 'recordCreated', actorId: null, ip: '10.0.0.2', entity: 'currencies' }, source);
    const failed = await databaseError(
      server.database.rows(
        auditedWriteSql(
          sql`insert into currencies as t (code, name) values ('QQB', 'List') returning t.id, '[1]'::jsonb as j`,
          { audit: event },
        ),
      ),
    );
    expect(failed.message).toMatch(/A written row did not read back as one JSON object/);
    expect(await rowsOfCode('QQB')).toBe(0);
    const events = await server.database.rows(sql`select id from audit_events where ip = '10.0.0.2'`);
    expect(events).toEqual([]);
  });

  /** Runs `change` in a transaction that stays open until a PATCH of the row waits for its lock, then commits. */
  async function whileAPatchWaits(change: (tx: Executor) => Promise<unknown>, patch: () => Promise<Answer<Row>>) {
    let answer: Promise<Answer<Row>> | undefined;
    await server.database.db.transaction(async (tx) => {
      await change(tx);
      answer = patch();
      for (;;) {
        const waiting = await server.database.rows(
          sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'with written as (update %'`,
        );
        if (waiting.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    return (answer as Promise<Answer<Row>>).then((a) => a);
  }

  it.skipIf(!onPostgres)(
    'tells 412 from 404 when another writer commits while the update waits for the row',
    async () => {
      const changed = await make.company({ name: 'Held' });
      const stale = await whileAPatchWaits(
        (tx) => tx.execute(sql`update companies set city = 'First', version = version + 1 where id = ${changed.id}`),
        () => api.patch(`/api/v1/companies/${changed.id}`, { city: 'Second' }, 1),
      );
      expect(stale.status).toBe(412);
      expect(errorOf(stale).fields).toEqual({ version: 'Current version is 2' });

      const removed = await make.company({ name: 'Held and gone' });
      const gone = await whileAPatchWaits(
        (tx) => tx.execute(sql`delete from companies where id = ${removed.id}`),
        () => api.patch(`/api/v1/companies/${removed.id}`, { city: 'Second' }, 1),
      );
      expect(gone.status).toBe(404);
    },
  );
});

describe('delete', () => {
  it('removes the record: 204, then 404', async () => {
    const company = await make.company();
    const gone = await api.delete(`/api/v1/companies/${company.id}`, 1);
    expect(gone.status).toBe(204);
    expect(gone.body).toBe('');
    expect((await api.get(`/api/v1/companies/${company.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/companies/${company.id}`)).status).toBe(404);
  });

  it("deletes a company's links, notes and files (their bytes kept for a restore), and nothing that belongs to others", async () => {
    let company = await make.company({ name: 'Doomed' });
    let contact = await make.contact();
    // A contact with the same id as the company: its notes and files must survive.
    while (company.id !== contact.id) {
      if (company.id < contact.id) company = await make.company({ name: 'Doomed' });
      else contact = await make.contact();
    }
    const deal = await make.deal();
    const contactLink = await make.link('contactCompanies', { contactId: contact.id, companyId: company.id });
    const dealLink = await make.link('dealCompanies', { dealId: deal.id, companyId: company.id });
    const note = await make.note('companies', company.id);
    const file = await make.file('companies', company.id);
    const otherNote = await make.note('contacts', contact.id);
    const otherFile = await make.file('contacts', contact.id);
    expect(await exists(storedBytes(file.id))).toBe(true);

    expect((await api.delete(`/api/v1/companies/${company.id}`)).status).toBe(204);

    for (const [resource, row] of [
      ['contactCompanies', contactLink],
      ['dealCompanies', dealLink],
      ['notes', note],
      ['files', file],
    ] as const) {
      expect((await api.get(`/api/v1/${resource}/${row.id}`)).status, resource).toBe(404);
    }
    // Its bytes stay for a restore until the retention period ends (routes/history.test.ts).
    expect(await exists(storedBytes(file.id))).toBe(true);
    for (const [resource, row] of [
      ['contacts', contact],
      ['deals', deal],
      ['notes', otherNote],
      ['files', otherFile],
    ] as const) {
      expect((await api.get(`/api/v1/${resource}/${row.id}`)).status, resource).toBe(200);
    }
    expect(await exists(storedBytes(otherFile.id))).toBe(true);
    const links = await api.list(`/api/v1/contacts/${contact.id}/companies`, { count: 'exact' });
    expect(links.body.total).toBe(0);
    expect(await danglingAttachments()).toEqual([]);
  });

  it('deletes a contact from every link collection it is in', async () => {
    const contact = await make.contact();
    const links = [
      await make.link('contactCompanies', { contactId: contact.id, companyId: (await make.company()).id }),
      await make.link('contactFunds', { contactId: contact.id, fundId: (await make.fund()).id }),
      await make.link('contactDeals', { contactId: contact.id, dealId: (await make.deal()).id }),
      await make.link('contactInvestors', { contactId: contact.id, investorId: (await make.investor()).id }),
    ];
    expect((await api.delete(`/api/v1/contacts/${contact.id}`)).status).toBe(204);
    for (const [i, collection] of ['contactCompanies', 'contactFunds', 'contactDeals', 'contactInvestors'].entries()) {
      expect((await api.get(`/api/v1/${collection}/${links[i]?.id}`)).status, collection).toBe(404);
      const left = await api.list(`/api/v1/${collection}`, { 'filter[contactId][eq]': contact.id, count: 'exact' });
      expect(left.body.total, collection).toBe(0);
    }
  });

  it("deletes a fund's performances, and the notes and files attached to them", async () => {
    const fund = await make.fund();
    const first = await make.fundPerformance(fund.id, { asOfDate: '2024-03-31' });
    const second = await make.fundPerformance(fund.id, { asOfDate: '2024-06-30' });
    const note = await make.note('fundPerformances', first.id);
    const file = await make.file('fundPerformances', second.id);
    const fundNote = await make.note('funds', fund.id);

    expect((await api.delete(`/api/v1/funds/${fund.id}`)).status).toBe(204);

    for (const [resource, row] of [
      ['fundPerformances', first],
      ['fundPerformances', second],
      ['notes', note],
      ['notes', fundNote],
      ['files', file],
    ] as const) {
      expect((await api.get(`/api/v1/${resource}/${row.id}`)).status, `${resource} ${row.id}`).toBe(404);
    }
    // Kept for a restore of the fund until the retention period ends.
    expect(await exists(storedBytes(file.id))).toBe(true);
    expect(await danglingAttachments()).toEqual([]);
  });

  it('empties references that do not own the row (onDelete setNull)', async () => {
    const firm = await make.firm();
    const fund = await make.fund({ firmId: firm.id });
    const contact = await make.contact({ firmId: firm.id });
    const deal = await make.deal({ fundId: fund.id });
    expect((await api.delete(`/api/v1/firms/${firm.id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/funds/${fund.id}`)).body).toMatchObject({ id: fund.id, firmId: null });
    expect((await api.get(`/api/v1/contacts/${contact.id}`)).body).toMatchObject({ id: contact.id, firmId: null });
    expect((await api.delete(`/api/v1/funds/${fund.id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/deals/${deal.id}`)).body).toMatchObject({ id: deal.id, fundId: null });
  });

  it('deleting a link leaves both records', async () => {
    const company = await make.company();
    const contact = await make.contact();
    const link: Row = await make.link('contactCompanies', { contactId: contact.id, companyId: company.id });
    const note = await make.note('contacts', contact.id);
    expect((await api.delete(`/api/v1/contactCompanies/${link.id}`, 1)).status).toBe(204);
    expect((await api.get(`/api/v1/companies/${company.id}`)).status).toBe(200);
    expect((await api.get(`/api/v1/contacts/${contact.id}`)).status).toBe(200);
    expect((await api.get(`/api/v1/notes/${note.id}`)).status).toBe(200);
  });
});
