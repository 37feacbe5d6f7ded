import { companies } from '@data-platform/shared/entities/companies';
import { deals } from '@data-platform/shared/entities/deals';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentDescription, customFieldDefinitions } from '../crud/custom-fields.ts';
import { listRecords } from '../crud/records.ts';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/test-server.ts';
import { seedDemoIfEmpty } from './demo.ts';

describe('demo data on first start', () => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase());
  });
  afterAll(async () => {
    await close?.();
  });

  it('loads once, with custom data that lists filter by', async () => {
    expect(await seedDemoIfEmpty(database, { info: () => {} })).toBe(true);
    expect(await seedDemoIfEmpty(database, { info: () => {} })).toBe(false);

    const definitions = await customFieldDefinitions(database);
    expect(definitions.map(({ entity, name, type }) => ({ entity, name, type }))).toEqual([
      { entity: 'companies', name: 'Deal source', type: 'select' },
      { entity: 'companies', name: 'First met', type: 'date' },
      { entity: 'deals', name: 'Next step', type: 'text' },
    ]);
    const [source = '', firstMet = '', nextStep = ''] = definitions.map((definition) => definition.key);
    const described = await currentDescription(database, companies);
    const referrals = await listRecords(
      database,
      described,
      parseListQueryString(described, {
        select: `name,${source},${firstMet}`,
        [`filter[${source}][eq]`]: 'Referral',
        count: 'exact',
      }),
    );
    // 300 demo companies; Referral goes to ids ≡ 0 (mod 4), and every fifth company has no custom data:
    // 75 multiples of 4, less the 15 multiples of 20.
    expect(referrals.total).toBe(60);
    for (const row of referrals.rows.map((text) => JSON.parse(text) as Record<string, unknown>)) {
      expect(row[source]).toBe('Referral');
      expect(String(row[firstMet])).toMatch(/^202[45]-\d\d-\d\d$/);
    }
    const dealsDescribed = await currentDescription(database, deals);
    expect(Object.keys(dealsDescribed.fields)).toContain(nextStep);
  });

  it('gives the first administrator open tasks due around today', async () => {
    const fresh = await openTestDatabase();
    try {
      const [admin] = await fresh.database.rows<{ id: number }>(
        sql`insert into users (email, first_name, status) values ('first@example.com', 'First', 'active') returning id::int as id`,
      );
      expect(await seedDemoIfEmpty(fresh.database, { info: () => {} })).toBe(true);
      const mine = await fresh.database.rows<{ status: string; days: number }>(
        sql`select status, (due_date - current_date)::int as days from tasks where owner_id = ${admin?.id} order by due_date`,
      );
      expect(mine).toEqual([-3, -1, 0, 2, 6, 13].map((days) => ({ status: 'Open', days })));
    } finally {
      await fresh.close();
    }
  });
});
