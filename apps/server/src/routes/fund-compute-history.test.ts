import type { ActivityPage } from '@data-platform/shared/activity';
import type { Permission } from '@data-platform/shared/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, type Factories, factories, type Row } from '../testing/factories.ts';
import { changesOf, expectHistoryTellsRecord, fullHistory } from '../testing/history-fold.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * POST /funds/{id}/performances/compute writes fund performance records with
 * its own statement: each record it creates, refreshes or removes keeps its
 * history entry (who, when, each field's old and new value) and its audit
 * event, as a create, update or delete through the API does (issue 16).
 */

let server: TestServer;
let api: ApiClient;
let make: Factories;
/** Computes, and is not the reader of the history: its entries must name it. */
let writer: { api: ApiClient; userId: number };
let fundId: number;

const flows = [
  { date: '2008-01-01', type: 'Capital call', amount: 10_000 },
  { date: '2008-03-01', type: 'Distribution', amount: 2750 },
  { date: '2008-10-30', type: 'Recallable distribution', amount: 4250 },
  { date: '2009-02-15', type: 'In-kind distribution', amount: 3250 },
];
const flowIds = new Map<string, number>();

interface ComputeAnswer {
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  records: { id: number; asOfDate: string }[];
}

async function compute(through: string): Promise<ComputeAnswer> {
  const answer = await writer.api.post<ComputeAnswer>(`/api/v1/funds/${fundId}/performances/compute`, { through });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function activity(): Promise<ActivityPage['data']> {
  const answer = await api.get<ActivityPage>('/api/v1/activity', { limit: 100 });
  expect(answer.status).toBe(200);
  return answer.body.data.filter((item) => item.entity === 'fundPerformances');
}

let records: { id: number; asOfDate: string }[] = [];
const recordAt = (date: string) => {
  const found = records.find((r) => r.asOfDate === date);
  if (!found) throw new Error(`No computed record at ${date}`);
  return found.id;
};

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  make = factories(api);
  const permissions: Permission[] = [
    'funds:read',
    'fundCashFlows:read',
    'fundPerformances:read',
    'fundPerformances:create',
    'fundPerformances:update',
    'fundPerformances:delete',
  ];
  const signedIn = await signInWithPermissions(server, permissions);
  writer = { api: withToken(server.url, signedIn.token), userId: signedIn.userId };
  fundId = (await make.fund({ name: 'History Fund I', currency: 'CHF', finalSize: 20_000 })).id;
  for (const flow of flows) {
    const row = await make.create('fundCashFlows', {
      fundId,
      date: flow.date,
      type: flow.type,
      amount: { amount: flow.amount, currency: 'CHF' },
    });
    flowIds.set(flow.date, row.id);
  }
});

afterAll(async () => server?.close());

describe('computed fund performance records keep their history', () => {
  it('tells each computed record created by whoever computed it, with its values, and its audit event', async () => {
    const answer = await compute('2009-06-30');
    expect(answer).toMatchObject({ created: 6, updated: 0, removed: 0 });
    records = answer.records;
    const events = await activity();
    for (const { id } of records) {
      const entries = await fullHistory(api, 'fundPerformances', id);
      expect(entries.map((e) => e.action)).toEqual(['created']);
      expect(entries[0]?.actor?.id).toBe(writer.userId);
      expect(changesOf(entries[0]).source).toEqual([null, 'computed']);
      expect(changesOf(entries[0]).paidIn).toEqual([null, 10_000]);
      await expectHistoryTellsRecord(api, 'fundPerformances', id);
      expect(events.find((e) => e.recordId === id)).toMatchObject({ action: 'created', actor: { id: writer.userId } });
    }
  });

  it('writes nothing for a recompute whose figures come out the same: no update, no entry, no event', async () => {
    const before = await activity();
    const answer = await compute('2009-06-30');
    expect(answer).toMatchObject({ created: 0, updated: 0, unchanged: 6, removed: 0 });
    // Every computed record is still named in the answer.
    expect(answer.records.map((r) => r.id)).toEqual(records.map((r) => r.id));
    for (const { id } of records) {
      expect((await fullHistory(api, 'fundPerformances', id)).map((e) => e.action)).toEqual(['created']);
      expect((await api.get<{ version: number }>(`/api/v1/fundPerformances/${id}`)).body.version).toBe(1);
    }
    expect(await activity()).toEqual(before);
  });

  it('tells a recompute after a changed cash flow as updates with the old and new values', async () => {
    const flowId = flowIds.get('2008-10-30') as number;
    const changed = await api.patch(
      `/api/v1/fundCashFlows/${flowId}`,
      { amount: { amount: 5250, currency: 'CHF' } },
      1,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const answer = await compute('2009-06-30');
    // The quarter ends from the changed flow's on: the three before it keep their figures and are not written.
    expect(answer).toMatchObject({ created: 0, updated: 3, unchanged: 3, removed: 0 });
    // After the changed flow: distributed 2,750 + 4,250 then 2,750 + 5,250.
    const december = await fullHistory(api, 'fundPerformances', recordAt('2008-12-31'));
    expect(december.map((e) => e.action)).toEqual(['created', 'updated']);
    const refreshed = december[1];
    expect(refreshed?.actor?.id).toBe(writer.userId);
    expect(changesOf(refreshed).distributed).toEqual([7000, 8000]);
    expect(changesOf(refreshed).computedAt?.[0]).not.toEqual(changesOf(refreshed).computedAt?.[1]);
    // Before it, the figures stayed: no entry.
    const september = await fullHistory(api, 'fundPerformances', recordAt('2008-09-30'));
    expect(september.map((e) => e.action)).toEqual(['created']);
    for (const { id } of records) await expectHistoryTellsRecord(api, 'fundPerformances', id);
    const events = await activity();
    const updated = events.find((e) => e.recordId === recordAt('2008-12-31') && e.action === 'updated');
    expect(updated?.fields).toContain('distributed');
  });

  it('tells a removed computed record as deleted, found and restored as any deleted record', async () => {
    const june = recordAt('2009-06-30');
    const note = await make.note('fundPerformances', june, 'Checked against the GP letter');
    const answer = await compute('2009-03-31');
    expect(answer).toMatchObject({ created: 0, updated: 0, unchanged: 5, removed: 1 });
    expect((await api.get(`/api/v1/fundPerformances/${june}`)).status).toBe(404);
    // Its note went with it, as with any deleted record.
    expect((await api.get(`/api/v1/notes/${note.id}`)).status).toBe(404);
    const entries = await fullHistory(api, 'fundPerformances', june);
    const deletion = entries.at(-1);
    expect(deletion).toMatchObject({ action: 'deleted', restorable: true, actor: { id: writer.userId } });
    expect(changesOf(deletion).paidIn).toEqual([10_000, null]);
    await expectHistoryTellsRecord(api, 'fundPerformances', june);
    expect((await activity()).find((e) => e.recordId === june && e.action === 'deleted')).toMatchObject({
      recordExists: false,
      actor: { id: writer.userId },
    });

    const restored = await api.post<{ record: Row; restoredRows: number }>(
      `/api/v1/fundPerformances/${june}/restore`,
      {},
    );
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ record: { asOfDate: '2009-06-30', source: 'computed' }, restoredRows: 1 });
    expect((await api.get<Row>(`/api/v1/notes/${note.id}`)).body.body).toBe('Checked against the GP letter');
    await expectHistoryTellsRecord(api, 'fundPerformances', june);
  });

  it('leaves a hand-entered record and its history alone', async () => {
    const hand = await make.fundPerformance(fundId, { asOfDate: '2007-12-31', currency: 'CHF', nav: 100 });
    const before = await fullHistory(api, 'fundPerformances', hand.id);
    // Through 2008-12-31: the hand-entered record is before the first quarter end; the later ones are removed.
    const answer = await compute('2008-12-31');
    expect(answer.removed).toBe(2);
    expect(await fullHistory(api, 'fundPerformances', hand.id)).toEqual(before);
    for (const { id } of records) await expectHistoryTellsRecord(api, 'fundPerformances', id);
  });
});
