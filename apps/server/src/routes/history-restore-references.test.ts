import type { RestoredRecord } from '@data-platform/shared/history';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, type Factories, factories, type Row } from '../testing/factories.ts';
import { changesOf, expectHistoryTellsRecord, fullHistory } from '../testing/history-fold.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * A delete empties the references that named the record (`onDelete: setNull`:
 * a deal's fund, a contact's or fund's firm); a restore of the record sets
 * them back where nothing changed them since, each a `restored` entry on the
 * referring record's timeline (docs/decisions/0033).
 */

let server: TestServer;
let api: ApiClient;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  make = factories(api);
});

afterAll(async () => server?.close());

async function read(resource: string, id: number, client: ApiClient = api): Promise<Row> {
  const answer = await client.get<Row>(`/api/v1/${resource}/${id}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function restore(resource: string, id: number, client: ApiClient = api): Promise<RestoredRecord> {
  const answer = await client.post<RestoredRecord>(`/api/v1/${resource}/${id}/restore`, {});
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

describe('a restore puts back the references its deletion emptied', () => {
  it('sets a deal’s fund back, leaving a deal pointed elsewhere since and a deal deleted since', async () => {
    const fund = await make.fund();
    const other = await make.fund();
    await make.fundPerformance(fund.id, { nav: 100 });
    const kept = await make.deal({ fundId: fund.id });
    const moved = await make.deal({ fundId: fund.id });
    const gone = await make.deal({ fundId: fund.id });
    const elsewhere = await make.deal({ fundId: other.id });
    expect((await api.delete(`/api/v1/funds/${fund.id}`)).status).toBe(204);
    expect((await read('deals', kept.id)).fundId).toBeNull();
    const emptiedVersion = (await read('deals', kept.id)).version as number;
    expect(
      (
        await api.patch(
          `/api/v1/deals/${moved.id}`,
          { fundId: other.id },
          (
            await read('deals', moved.id)
          ).version as number,
        )
      ).status,
    ).toBe(200);
    expect((await api.delete(`/api/v1/deals/${gone.id}`)).status).toBe(204);
    const movedHistory = await fullHistory(api, 'deals', moved.id);

    const restored = await restore('funds', fund.id);
    expect(restored).toMatchObject({ restoredRows: 1, skippedRows: 0, restoredReferences: 1, skippedReferences: 2 });

    const back = await read('deals', kept.id);
    expect(back.fundId).toBe(fund.id);
    // An update like any other: the next version, and who did it.
    expect(back.version).toBe(emptiedVersion + 1);
    const last = (await fullHistory(api, 'deals', kept.id)).at(-1);
    expect(last?.action).toBe('restored');
    expect(last?.subject).toBeNull();
    expect(changesOf(last)).toEqual({ fundId: [null, fund.id] });
    await expectHistoryTellsRecord(api, 'deals', kept.id);

    expect((await read('deals', moved.id)).fundId).toBe(other.id);
    expect(await fullHistory(api, 'deals', moved.id)).toEqual(movedHistory);
    expect((await api.get(`/api/v1/deals/${gone.id}`)).status).toBe(404);
    expect((await read('deals', elsewhere.id)).fundId).toBe(other.id);
  });

  it('sets the firm back on its contacts and funds', async () => {
    const firm = await make.firm();
    const contact = await make.contact({ firmId: firm.id });
    const fund = await make.fund({ firmId: firm.id });
    expect((await api.delete(`/api/v1/firms/${firm.id}`)).status).toBe(204);
    expect((await read('contacts', contact.id)).firmId).toBeNull();

    expect(await restore('firms', firm.id)).toMatchObject({ restoredReferences: 2, skippedReferences: 0 });
    for (const [resource, id] of [
      ['contacts', contact.id],
      ['funds', fund.id],
    ] as const) {
      expect((await read(resource, id)).firmId, resource).toBe(firm.id);
      const entries = await fullHistory(api, resource, id);
      expect(entries.map((e) => e.action).slice(-2), resource).toEqual(['updated', 'restored']);
      expect(changesOf(entries.at(-1)), resource).toEqual({ firmId: [null, firm.id] });
      await expectHistoryTellsRecord(api, resource, id);
    }
  });

  it('leaves the references on record types the caller may not update', async () => {
    const firm = await make.firm();
    const contact = await make.contact({ firmId: firm.id });
    const fund = await make.fund({ firmId: firm.id });
    expect((await api.delete(`/api/v1/firms/${firm.id}`)).status).toBe(204);
    const { token } = await signInWithPermissions(server, [
      'firms:read',
      'firms:create',
      'funds:read',
      'funds:update',
      'contacts:read',
    ]);
    const restorer = withToken(server.url, token);

    expect(await restore('firms', firm.id, restorer)).toMatchObject({ restoredReferences: 1, skippedReferences: 1 });
    expect((await read('funds', fund.id)).firmId).toBe(firm.id);
    expect((await read('contacts', contact.id)).firmId).toBeNull();
    expect((await fullHistory(api, 'contacts', contact.id)).at(-1)?.action).toBe('updated');
  });

  it('restores from a snapshot kept before references were recorded, putting nothing back', async () => {
    const fund = await make.fund();
    const deal = await make.deal({ fundId: fund.id });
    expect((await api.delete(`/api/v1/funds/${fund.id}`)).status).toBe(204);
    await server.database.rows(
      sql`update record_history set snapshot = snapshot - 'emptied'
        where entity = 'funds' and record_id = ${fund.id} and action = 'deleted'`,
    );

    const restored = await restore('funds', fund.id);
    expect(restored).toMatchObject({ restoredReferences: 0, skippedReferences: 0 });
    expect(restored.record.id).toBe(fund.id);
    expect((await read('deals', deal.id)).fundId).toBeNull();
  });
});
