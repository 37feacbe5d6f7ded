import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { type ApiClient, adminClient, apiClient, factories } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * A record page's relation panel totals every related row, not the page it
 * loaded: count, and money summed per currency, never across currencies.
 */

let server: TestServer;
let admin: ApiClient;
let make: ReturnType<typeof factories>;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  make = factories(admin);
});

afterAll(async () => {
  await server?.close();
});

describe('relation totals', () => {
  it("sums an investor's commitments per currency over all of its deals, beyond a panel's page", async () => {
    const investor = await make.investor();
    const other = await make.investor();
    // 12 deals (more than the panel's page of 10): 11 in USD, 1 in EUR, and one without a commitment.
    const commitments = [
      ...Array.from({ length: 11 }, (_, i) => ({ amount: 1_000_000 + i * 250_000.5, currency: 'USD' })),
      { amount: 2_500_000, currency: 'EUR' },
      null,
    ];
    for (const commitment of commitments) {
      const deal = await make.deal();
      await make.link('dealInvestors', { dealId: deal.id, investorId: investor.id, commitment });
      // Another investor's commitment in the same deal counts for them, not for this one.
      await make.link('dealInvestors', {
        dealId: deal.id,
        investorId: other.id,
        commitment: { amount: 7, currency: 'USD' },
      });
    }
    const answer = await admin.get(`/api/v1/investors/${investor.id}/deals/totals`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const usd = commitments.reduce((sum, c) => sum + (c?.currency === 'USD' ? c.amount : 0), 0);
    expect(answer.body).toEqual({ count: 13, sums: { commitment: { USD: usd, EUR: 2_500_000 } } });

    // The list pages by 10; the totals are those of every row.
    const page = await admin.list(`/api/v1/investors/${investor.id}/deals`, { pageSize: '10' });
    expect(page.body.data).toHaveLength(10);
  });

  it("sums owned rows' money per currency (a fund's deals), and answers zero rows as a count of 0", async () => {
    const fund = await make.fund();
    await make.deal({ fundId: fund.id, amount: { amount: 3_000_000, currency: 'USD' } });
    await make.deal({ fundId: fund.id, amount: { amount: 1_500_000.25, currency: 'USD' } });
    await make.deal({ fundId: fund.id, amount: { amount: 900_000, currency: 'GBP' } });
    await make.deal({ fundId: fund.id });
    const answer = await admin.get(`/api/v1/funds/${fund.id}/deals/totals`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ count: 4, sums: { amount: { USD: 4_500_000.25, GBP: 900_000 } } });

    const empty = await make.fund();
    const none = await admin.get(`/api/v1/funds/${empty.id}/deals/totals`);
    expect(none.body).toEqual({ count: 0, sums: { amount: {} } });
  });

  it('answers 404 for a record that does not exist, and 403 without the right to read the related rows', async () => {
    expect((await admin.get('/api/v1/investors/999999999/deals/totals')).status).toBe(404);
    const investor = await make.investor();
    const noDeals = await signInWithPermissions(server, ['investors:read']);
    const refused = await apiClient(server.url, { authorization: `Bearer ${noDeals.token}` }).get(
      `/api/v1/investors/${investor.id}/deals/totals`,
    );
    expect(refused.status).toBe(403);
  });
});
