import type { MergeResult } from '@data-platform/shared/duplicates';
import type { HistoryEntry } from '@data-platform/shared/history';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, type Factories, factories, type Row } from '../testing/factories.ts';
import { changesOf, expectHistoryTellsRecord, fullHistory } from '../testing/history-fold.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * A write changes more rows than the one it names: a delete cascades to
 * records (a fund's performance records) and empties references (a
 * contact's firm); a merge re-points links and notes. Each of those rows
 * keeps its history entry in the write's transaction, so that its timeline
 * still tells its values (issue 16, docs/decisions/0028).
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

const about = (entries: HistoryEntry[], entity: string, action: string) =>
  entries.filter((e) => e.subject?.entity === entity && e.action === action);

describe('rows a delete changes beside the record', () => {
  it('tells a fund’s performance records deleted with it, and restored with it', async () => {
    const fund = await make.fund();
    const performance = await make.fundPerformance(fund.id, { nav: 500 });
    const deal = await make.deal();
    expect((await api.patch(`/api/v1/deals/${deal.id}`, { fundId: fund.id }, deal.version as number)).status).toBe(200);
    expect((await api.delete(`/api/v1/funds/${fund.id}`)).status).toBe(204);

    const deletion = (await fullHistory(api, 'fundPerformances', performance.id)).at(-1);
    expect(deletion?.action).toBe('deleted');
    expect(changesOf(deletion).nav).toEqual([500, null]);
    // Its row is in the fund's snapshot: it comes back with the fund, not on its own.
    expect(deletion?.restorable).toBe(false);
    await expectHistoryTellsRecord(api, 'fundPerformances', performance.id);
    // The deal's fund was emptied by the delete (onDelete: setNull): an update of the deal.
    const emptied = (await fullHistory(api, 'deals', deal.id)).at(-1);
    expect(emptied?.action).toBe('updated');
    expect(changesOf(emptied)).toEqual({ fundId: [fund.id, null] });
    await expectHistoryTellsRecord(api, 'deals', deal.id);

    expect((await api.post(`/api/v1/funds/${fund.id}/restore`, {})).status).toBe(200);
    expect((await fullHistory(api, 'fundPerformances', performance.id)).at(-1)?.action).toBe('restored');
    await expectHistoryTellsRecord(api, 'fundPerformances', performance.id);
  });

  it('tells the references a firm’s delete empties on the contacts and funds that named it', async () => {
    const firm = await make.firm();
    const contact = await make.contact({ firmId: firm.id });
    const fund = await make.fund({ firmId: firm.id });
    const untouched = await make.contact();
    const before = await fullHistory(api, 'contacts', untouched.id);
    expect((await api.delete(`/api/v1/firms/${firm.id}`)).status).toBe(204);
    for (const [resource, id] of [
      ['contacts', contact.id],
      ['funds', fund.id],
    ] as const) {
      const last = (await fullHistory(api, resource, id)).at(-1);
      expect(last?.action, resource).toBe('updated');
      expect(changesOf(last), resource).toEqual({ firmId: [firm.id, null] });
      await expectHistoryTellsRecord(api, resource, id);
    }
    expect(await fullHistory(api, 'contacts', untouched.id)).toEqual(before);
  });
});

describe('rows a merge re-points', () => {
  it('tells the link moved on the timeline at its other end, and the note moved on the survivor’s', async () => {
    const survivor = await make.company({ name: 'Survivor Holdings' });
    const merged = await make.company({ name: 'Survivor Holding' });
    const contact = await make.contact();
    await make.link('contactCompanies', { contactId: contact.id, companyId: merged.id, role: 'CFO' });
    const note = await make.note('companies', merged.id, 'Met at the fair');
    const answer = await api.post<MergeResult>('/api/v1/companies/merge', {
      survivorId: survivor.id,
      mergedId: merged.id,
      survivorVersion: 1,
      mergedVersion: 1,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    const moved = about(await fullHistory(api, 'contacts', contact.id), 'contactCompanies', 'updated');
    expect(moved).toHaveLength(1);
    expect(changesOf(moved[0])).toEqual({ companyId: [merged.id, survivor.id] });
    expect(moved[0]?.linked).toMatchObject({ entity: 'companies', id: survivor.id, name: 'Survivor Holdings' });
    await expectHistoryTellsRecord(api, 'contacts', contact.id);

    const survivorEntries = await fullHistory(api, 'companies', survivor.id);
    // Not on the survivor's own timeline, where it would name no other record: its creation moved there.
    expect(about(survivorEntries, 'contactCompanies', 'updated')).toEqual([]);
    const noteMoved = about(survivorEntries, 'notes', 'updated');
    expect(noteMoved.map((e) => e.subject?.id)).toEqual([note.id]);
    expect(changesOf(noteMoved[0])).toEqual({ recordId: [merged.id, survivor.id] });
    expect((await api.get<Row>(`/api/v1/notes/${note.id}`)).body.recordId).toBe(survivor.id);
  });
});
