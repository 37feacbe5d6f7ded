import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';
import { bootstrapAccounts } from '../domain/bootstrap.ts';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, errorOf, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Tasks through the generic API: an entity described in one file (packages/shared/src/entities/tasks.ts). */
describe('tasks', () => {
  let server: TestServer;
  let admin: ApiClient;
  let owner: { api: ApiClient; userId: number };
  let companyId: number;
  let dealId: number;

  const openTasksOf = (api: ApiClient, userId: number) =>
    api.list('/api/v1/tasks', {
      'filter[ownerId][eq]': userId,
      'filter[status][eq]': 'Open',
      sort: 'dueDate',
      select: 'title,dueDate,status,entity,recordId',
    });

  beforeAll(async () => {
    server = await startTestServer();
    admin = adminClient(server);
    companyId = (await admin.post('/api/v1/companies', { name: 'Acme Robotics' })).body.id;
    dealId = (await admin.post('/api/v1/deals', { name: 'Acme Series A' })).body.id;
    const signedIn = await signInWithPermissions(server, [
      'tasks:read',
      'tasks:create',
      'tasks:update',
      'companies:read',
    ]);
    owner = { api: withToken(server.url, signedIn.token), userId: signedIn.userId };
  });
  afterAll(() => server?.close());

  it('creates a task about a company, lists my open ones by due date, and marks one done', async () => {
    const later = await owner.api.post('/api/v1/tasks', {
      title: 'Send the NDA',
      dueDate: '2026-03-10',
      ownerId: owner.userId,
      status: 'Open',
      entity: 'companies',
      recordId: companyId,
    });
    expect(later.status).toBe(201);
    const sooner = await owner.api.post('/api/v1/tasks', {
      title: 'Call the CFO',
      details: 'About the cap table',
      dueDate: '2026-02-01',
      ownerId: owner.userId,
      status: 'Open',
      entity: 'companies',
      recordId: companyId,
    });
    expect(sooner.status).toBe(201);
    // Someone else's task, and one of mine already done: neither is in my open list.
    await admin.post('/api/v1/tasks', {
      title: 'Admin task',
      dueDate: '2026-01-01',
      status: 'Open',
      entity: 'companies',
      recordId: companyId,
    });
    await owner.api.post('/api/v1/tasks', {
      title: 'Already done',
      dueDate: '2026-01-15',
      ownerId: owner.userId,
      status: 'Done',
      entity: 'companies',
      recordId: companyId,
    });

    const open = await openTasksOf(owner.api, owner.userId);
    expect(open.status).toBe(200);
    expect(open.body.data).toEqual([
      {
        id: sooner.body.id,
        title: 'Call the CFO',
        dueDate: '2026-02-01',
        status: 'Open',
        entity: 'companies',
        recordId: companyId,
      },
      {
        id: later.body.id,
        title: 'Send the NDA',
        dueDate: '2026-03-10',
        status: 'Open',
        entity: 'companies',
        recordId: companyId,
      },
    ]);

    const done = await owner.api.patch(`/api/v1/tasks/${sooner.body.id}`, { status: 'Done' }, 1);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: sooner.body.id, status: 'Done', version: 2 });
    expect((await openTasksOf(owner.api, owner.userId)).body.data.map((row) => row.title)).toEqual(['Send the NDA']);
  });

  it('refuses a task on an unknown record type, and one without what it is about', async () => {
    const unknownType = await owner.api.post('/api/v1/tasks', {
      title: 'Nowhere',
      status: 'Open',
      entity: 'roles',
      recordId: 1,
    });
    expect(unknownType.status).toBe(400);
    expect(Object.keys(errorOf(unknownType).fields ?? {})).toEqual(['entity']);
    const missing = await owner.api.post('/api/v1/tasks', { title: 'Loose', status: 'Open' });
    expect(missing.status).toBe(400);
    expect(Object.keys(errorOf(missing).fields ?? {}).sort()).toEqual(['entity', 'recordId']);
  });

  it('needs the tasks permissions, and hides tasks about records the reader may not read', async () => {
    const { token } = await signInWithPermissions(server, ['companies:read', 'deals:read']);
    const outsider = withToken(server.url, token);
    expect((await outsider.list('/api/v1/tasks')).status).toBe(403);
    const refused = await outsider.post('/api/v1/tasks', {
      title: 'Not mine to add',
      status: 'Open',
      entity: 'companies',
      recordId: companyId,
    });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).message).toContain('tasks:create');

    // The owner may not read deals: a task on a deal is neither theirs to add nor to see.
    const onDeal = await owner.api.post('/api/v1/tasks', {
      title: 'Deal task',
      status: 'Open',
      entity: 'deals',
      recordId: dealId,
    });
    expect(onDeal.status).toBe(403);
    const adminOnDeal = await admin.post<Row>('/api/v1/tasks', {
      title: 'Deal task',
      ownerId: owner.userId,
      status: 'Open',
      entity: 'deals',
      recordId: dealId,
    });
    expect(adminOnDeal.status).toBe(201);
    const seen = await owner.api.list('/api/v1/tasks', { 'filter[entity][eq]': 'deals' });
    expect(seen.body.data).toEqual([]);
    expect((await owner.api.get(`/api/v1/tasks/${adminOnDeal.body.id}`)).status).toBe(404);
  });

  it('built-in roles hold the tasks permissions, also when stored before tasks existed', async () => {
    const editorPermissions = async () =>
      (
        await server.database.rows<{ permissions: string[] }>(
          sql`select permissions from roles where name = 'Editor' and built_in`,
        )
      )[0]?.permissions;
    expect(await editorPermissions()).toEqual(expect.arrayContaining(['tasks:read', 'tasks:update', 'tasks:export']));
    // As a database from before tasks: Editor without them, until the next start.
    await server.database.rows(
      sql`update roles set permissions = array(select p from unnest(permissions) p where p not like 'tasks:%')
        where name = 'Editor'`,
    );
    expect((await editorPermissions())?.filter((p) => p.startsWith('tasks:'))).toEqual([]);
    await bootstrapAccounts(server.database, configFromEnv({}));
    // Role rows changed beside the API: later requests see them once their notification is heard.
    await server.database.caughtUp();
    expect((await editorPermissions())?.filter((p) => p.startsWith('tasks:'))).toEqual([
      'tasks:read',
      'tasks:create',
      'tasks:update',
      'tasks:delete',
      'tasks:import',
      'tasks:export',
    ]);
  });
});
