import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { type DashboardSummaries, ownedEntities } from '@data-platform/shared/summaries';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listSql, ROOT, whereSql } from '../crud/list-compiler.ts';
import { indexPlan } from '../db/index-plan.ts';
import { signInWithPermissions } from '../testing/accounts.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

describe('GET /api/v1/configs/summaries', () => {
  let server: TestServer;
  let adminId: number;
  const post = async (resource: string, body: unknown) => {
    const response = await server.fetch(`/api/v1/${resource}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { id: number };
  };
  const summariesAs = async (token?: string) => {
    const response = await fetch(`${server.url}/api/v1/configs/summaries`, {
      headers: { authorization: `Bearer ${token ?? server.token}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as DashboardSummaries;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const me = (await (await server.fetch('/api/v1/auth/me')).json()) as { id: number };
    adminId = me.id;
    const money = (amount: number, currency: string) => ({ amount, currency });
    await post('deals', { name: 'Deal A', stage: 'Sourced', amount: money(100, 'USD'), ownerId: adminId });
    await post('deals', { name: 'Deal B', stage: 'Sourced', amount: money(250.5, 'USD') });
    await post('deals', { name: 'Deal C', stage: 'Sourced', amount: money(80, 'EUR'), ownerId: adminId });
    await post('deals', { name: 'Deal D', stage: 'Term sheet' });
    await post('deals', { name: 'Deal without stage', amount: money(5, 'GBP') });
    const investor = await post('investors', { name: 'Pension', fundraisingStatus: 'Meeting', ownerId: adminId });
    await post('funds', { name: 'Fund I', currency: 'USD', status: 'Investing' });
    await post('notes', { entity: 'investors', recordId: investor.id, body: 'Met the CIO' });
  });
  afterAll(() => server?.close());

  it('counts records and breaks down the pipeline in picklist order, empty values last, with amounts per currency', async () => {
    const summaries = await summariesAs();
    expect(summaries.counts.deals).toEqual({ total: 5, totalExact: true });
    expect(summaries.counts.investors?.total).toBe(1);
    expect(summaries.counts.companies?.total).toBe(0);
    const stages = summaries.dealsByStage ?? [];
    expect(stages[0]).toEqual({
      value: 'Sourced',
      count: 3,
      amounts: [
        { currency: 'USD', amount: 350.5 },
        { currency: 'EUR', amount: 80 },
      ],
    });
    expect(stages.find((s) => s.value === 'Term sheet')).toEqual({ value: 'Term sheet', count: 1, amounts: [] });
    expect(stages.find((s) => s.value === 'Closing')).toEqual({ value: 'Closing', count: 0, amounts: [] });
    expect(stages.at(-1)).toEqual({ value: null, count: 1, amounts: [{ currency: 'GBP', amount: 5 }] });
    expect(summaries.investorsByFundraisingStatus?.find((s) => s.value === 'Meeting')?.count).toBe(1);
    // Funds have no money field: counts only.
    expect(summaries.fundsByStatus?.find((s) => s.value === 'Investing')).toEqual({ value: 'Investing', count: 1 });
  });

  it('names the record of each recent note, in the same statements however many notes there are', async () => {
    const rows = vi.spyOn(server.database, 'rows');
    const before = await summariesAs();
    const statementsWithOneNote = rows.mock.calls.length;
    expect(before.recentNotes).toEqual([
      expect.objectContaining({ body: 'Met the CIO', entity: 'investors', recordName: 'Pension' }),
    ]);
    expect(before.recentNotes?.[0]?.createdBy?.fullName).toBe('Admin');
    const fund = await post('funds', { name: 'Fund II', currency: 'EUR' });
    const quarter = await post('fundPerformances', { fundId: fund.id, asOfDate: '2025-12-31', currency: 'EUR' });
    await post('notes', { entity: 'fundPerformances', recordId: quarter.id, body: 'NAV **up**' });
    for (let i = 1; i <= 8; i++) {
      const company = await post('companies', { name: `Company ${i}` });
      await post('notes', { entity: 'companies', recordId: company.id, body: `Note ${i}` });
    }
    rows.mockClear();
    const after = await summariesAs();
    expect(rows.mock.calls.length).toBe(statementsWithOneNote);
    rows.mockRestore();
    expect(after.recentNotes).toHaveLength(10);
    expect(after.recentNotes?.[0]).toMatchObject({ entity: 'companies', recordName: 'Company 8' });
    // Named within its fund, as everywhere a fund's quarter stands alone.
    expect(after.recentNotes?.find((note) => note.body === 'NAV **up**')?.recordName).toBe('Fund II · 2025-12-31');
  });

  it("counts the signed-in user's own records per owned record type", async () => {
    const summaries = await summariesAs();
    const mine = Object.fromEntries((summaries.mine ?? []).map((m) => [m.resource, m]));
    expect(mine.deals).toEqual({ resource: 'deals', field: 'ownerId', userId: adminId, total: 2, totalExact: true });
    expect(mine.investors?.total).toBe(1);
    expect(mine.companies?.total).toBe(0);
    expect(mine.tasks?.total).toBe(0);
  });

  it('leaves out what the user may not read', async () => {
    const { token, userId } = await signInWithPermissions(server, ['deals:read', 'notes:read', 'tasks:read']);
    const deal = await post('deals', { name: 'Their deal', stage: 'Closing', ownerId: userId });
    const investor = await post('investors', { name: 'Their investor', ownerId: userId });
    await post('tasks', { title: 'On a deal', entity: 'deals', recordId: deal.id, status: 'Open', ownerId: userId });
    await post('tasks', {
      title: 'On an investor',
      entity: 'investors',
      recordId: investor.id,
      status: 'Open',
      ownerId: userId,
    });
    const summaries = await summariesAs(token);
    expect(Object.keys(summaries.counts)).toEqual(['deals']);
    expect(
      summaries.dealsByStage?.filter((stage) => stage.count > 0).map(({ value, count }) => [value, count]),
    ).toEqual([
      ['Sourced', 3],
      ['Term sheet', 1],
      ['Closing', 1],
      [null, 1],
    ]);
    expect(summaries.investorsByFundraisingStatus).toBeUndefined();
    expect(summaries.fundsByStatus).toBeUndefined();
    // Notes on investors, companies and fund quarters, none of which this user can read.
    expect(summaries.recentNotes).toEqual([]);
    // Their deal and their task on it; not the investor, nor the task on it.
    expect(summaries.mine).toEqual([
      { resource: 'deals', field: 'ownerId', userId, total: 1, totalExact: true },
      { resource: 'tasks', field: 'ownerId', userId, total: 1, totalExact: true },
    ]);
  });

  it("counts each user's records, and lists them, through an index of owners, not a scan of the table", async () => {
    const { database } = server;
    for (const { resource, field } of ownedEntities) {
      const entity = findEntity(resource) as EntityDescription;
      const query = parseListQueryString(entity, { [`filter[${field}][eq]`]: String(adminId) });
      const plans = await database.db.transaction(async (tx) => {
        // On tables this small a scan is cheaper; turned off, an index must still answer both.
        await database.rows(sql`set local enable_seqscan = off`, tx);
        const explain = async (statement: ReturnType<typeof sql>) =>
          (await database.rows<{ 'QUERY PLAN': string }>(sql`explain ${statement}`, tx))
            .map((row) => row['QUERY PLAN'])
            .join('\n');
        return [
          // The count My records shows (crud/list-count.ts counts over the same WHERE), and the list it links to.
          await explain(
            sql`select count(*) from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)} where ${whereSql(entity, query)}`,
          ),
          await explain(listSql(entity, query)),
        ];
      });
      for (const plan of plans) {
        expect(plan, resource).toMatch(new RegExp(`Index (Only )?Scan (using|on) ${entity.table}_owner_id_\\w+`));
        expect(plan, resource).not.toContain('Seq Scan');
      }
    }
    // Rows without an owner (an import's, mostly) are left out of the index: their writes do not grow it.
    expect(indexPlan(findEntity('companies') as EntityDescription)).toContainEqual({
      kind: 'btree',
      name: 'companies_owner_id_owned_idx',
      fields: ['ownerId', 'name', 'id'],
      notNull: 'ownerId',
    });
  });

  it('needs a signed-in user', async () => {
    expect((await fetch(`${server.url}/api/v1/configs/summaries`)).status).toBe(401);
  });
});
