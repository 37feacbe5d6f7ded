import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { countByValue } from './summaries.ts';

const actorWith = (permissions: Permission[]): Actor => ({
  userId: null,
  permissions: new Set(permissions),
  sessionId: null,
});

/** A breakdown counts the rows the actor's list shows, over fields the actor may read: nothing more. */
describe('countByValue: the reader’s rows and fields', () => {
  let server: TestServer;
  const post = async (resource: string, body: unknown) => {
    const response = await server.fetch(`/api/v1/${resource}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { id: number };
  };
  const entity = (name: string) => {
    const found = findEntity(name);
    if (!found) throw new Error(name);
    return found;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const deal = await post('deals', { name: 'Heron' });
    const investor = await post('investors', { name: 'Pension' });
    await post('tasks', { title: 'Call', entity: 'deals', recordId: deal.id, status: 'Open' });
    await post('tasks', { title: 'Visit', entity: 'investors', recordId: investor.id, status: 'Open' });
    await post('tasks', { title: 'Mail', entity: 'investors', recordId: investor.id, status: 'Done' });
    const role = await (await server.fetch('/api/v1/roles?filter[name][eq]=Viewer')).json();
    const roleId = (role as { data: { id: number }[] }).data[0]?.id;
    await post('users/invitations', { email: 'invited-summary@test.example', roleId });
  });
  afterAll(() => server?.close());

  it('counts only the rows the reader may read: tasks on investors are not there for a reader of deals only', async () => {
    const everything = await countByValue(
      server.database,
      entity('tasks'),
      'status',
      actorWith(['tasks:read', 'deals:read', 'investors:read']),
    );
    expect(everything).toEqual([
      { value: 'Open', count: 2 },
      { value: 'Done', count: 1 },
    ]);
    const dealsOnly = await countByValue(
      server.database,
      entity('tasks'),
      'status',
      actorWith(['tasks:read', 'deals:read']),
    );
    expect(dealsOnly).toEqual([
      { value: 'Open', count: 1 },
      { value: 'Done', count: 0 },
    ]);
  });

  it('counts nothing by a field the reader may not read, nor of a type the reader may not read', async () => {
    // Users are colleagues by name to everyone; their status only to readers of accounts.
    expect(await countByValue(server.database, entity('users'), 'status', actorWith([]))).toBeUndefined();
    const accounts = await countByValue(server.database, entity('users'), 'status', actorWith(['users:read']));
    expect(accounts?.find((group) => group.value === 'invited')?.count).toBe(1);
    expect(await countByValue(server.database, entity('deals'), 'stage', actorWith(['tasks:read']))).toBeUndefined();
  });
});
