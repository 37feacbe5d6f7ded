import { companies } from '@data-platform/shared/entities/companies';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { users } from '@data-platform/shared/entities/users';
import { allPermissions } from '@data-platform/shared/permissions';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.ts';
import { listRecords } from '../crud/records.ts';
import { adminClient, factories } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { relatedRowsScope } from './reading.ts';

/**
 * A related list checks the record it hangs on inside its own statement
 * (relatedRowsScope): its rows are listed only while that record exists and
 * the actor may read it. No description pairs a relation with a row limit
 * today, so the test gives users (whose invited rows only users:read reads)
 * the companies they own.
 */

const usersOwning: EntityDescription = {
  ...users,
  relations: { owned: { kind: 'hasMany', to: 'companies', foreignKey: 'ownerId' } },
};
const everything: Actor = { userId: null, permissions: new Set(allPermissions), sessionId: null };
const companiesOnly: Actor = { userId: null, permissions: new Set(['companies:read']), sessionId: null };

let server: TestServer;
const owner: Record<'active' | 'invited', number> = { active: 0, invited: 0 };

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(adminClient(server));
  for (const status of ['active', 'invited'] as const) {
    const [user] = await server.database.rows<{ id: number }>(
      sql`insert into users (email, first_name, last_name, status)
        values (${`owner-${status}@test.example`}, 'Owner', ${status}, ${status}) returning id::int as id`,
    );
    owner[status] = user?.id as number;
    for (const name of [`${status} one`, `${status} two`]) {
      const company = await make.company({ name });
      await server.database.rows(sql`update companies set owner_id = ${owner[status]} where id = ${company.id}`);
    }
  }
});

afterAll(async () => server?.close());

async function owned(id: number, actor: Actor): Promise<string[]> {
  const scope = relatedRowsScope(usersOwning, 'owned', id, actor);
  if (!scope) throw new Error('No scope');
  const query = parseListQueryString(companies, { select: 'name', sort: 'name' });
  const page = await listRecords(server.database, companies, query, scope);
  return page.rows.map((row) => (JSON.parse(row) as { name: string }).name);
}

describe('a related list while its record is readable', () => {
  it('lists the rows of a record the actor may read', async () => {
    expect(await owned(owner.active, companiesOnly)).toEqual(['active one', 'active two']);
    expect(await owned(owner.invited, everything)).toEqual(['invited one', 'invited two']);
    // The same shapes again, bound to the other record: each binds its own id twice (rows and record).
    expect(await owned(owner.active, everything)).toEqual(['active one', 'active two']);
  });

  it('lists nothing of a record the actor may not read, nor of a missing one', async () => {
    expect(await owned(owner.invited, companiesOnly)).toEqual([]);
    expect(await owned(owner.active, companiesOnly)).toEqual(['active one', 'active two']);
    const [{ missing } = { missing: 0 }] = await server.database.rows<{ missing: number }>(
      sql`select coalesce(max(id), 0)::int + 1 as missing from users`,
    );
    expect(await owned(missing, everything)).toEqual([]);
  });
});
