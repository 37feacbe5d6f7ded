import type { DashboardSummaries } from '@data-platform/shared/summaries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

describe('GET /api/v1/configs/summaries', () => {
  let server: TestServer;
  const post = (resource: string, body: unknown) =>
    server.fetch(`/api/v1/${resource}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startTestServer();
    for (const stage of ['Sourced', 'Sourced', 'Term sheet']) await post('deals', { name: `Deal ${stage}`, stage });
    await post('deals', { name: 'Deal without stage' });
    const investor = (await (await post('investors', { name: 'Pension', fundraisingStatus: 'Meeting' })).json()) as {
      id: number;
    };
    await post('funds', { name: 'Fund I', currency: 'USD', status: 'Investing' });
    await post('notes', { entity: 'investors', recordId: investor.id, body: 'Met the CIO' });
  });
  afterAll(() => server?.close());

  it('counts records and breaks down the pipeline in picklist order, empty values last', async () => {
    const summaries = (await (await server.fetch('/api/v1/configs/summaries')).json()) as DashboardSummaries;
    expect(summaries.counts.deals).toEqual({ total: 4, totalExact: true });
    expect(summaries.counts.investors?.total).toBe(1);
    expect(summaries.counts.companies?.total).toBe(0);
    const stages = summaries.dealsByStage ?? [];
    expect(stages[0]).toEqual({ value: 'Sourced', count: 2 });
    expect(stages.find((s) => s.value === 'Term sheet')?.count).toBe(1);
    expect(stages.find((s) => s.value === 'Closing')?.count).toBe(0);
    expect(stages.at(-1)).toEqual({ value: null, count: 1 });
    expect(summaries.investorsByFundraisingStatus?.find((s) => s.value === 'Meeting')?.count).toBe(1);
    expect(summaries.fundsByStatus?.find((s) => s.value === 'Investing')?.count).toBe(1);
    expect(summaries.recentNotes?.[0]).toMatchObject({ body: 'Met the CIO', entity: 'investors' });
    expect(summaries.recentNotes?.[0]?.createdBy?.fullName).toBe('Admin');
  });

  it('leaves out what the user may not read', async () => {
    const { token } = await signInWithPermissions(server, ['deals:read', 'notes:read']);
    const response = await fetch(`${server.url}/api/v1/configs/summaries`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const summaries = (await response.json()) as DashboardSummaries;
    expect(Object.keys(summaries.counts)).toEqual(['deals']);
    // The whole pipeline of deals, as the administrator sees it: the deals are all this user's to read.
    expect(summaries.dealsByStage?.filter((stage) => stage.count > 0)).toEqual([
      { value: 'Sourced', count: 2 },
      { value: 'Term sheet', count: 1 },
      { value: null, count: 1 },
    ]);
    expect(summaries.investorsByFundraisingStatus).toBeUndefined();
    expect(summaries.fundsByStatus).toBeUndefined();
    // The only note is on an investor, which this user cannot read.
    expect(summaries.recentNotes).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    expect((await fetch(`${server.url}/api/v1/configs/summaries`)).status).toBe(401);
  });
});
