import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type ServerData, serverData, spawnServerProcess, stopServerProcesses } from '../testing/server-process.ts';

/**
 * A first start on a DATA_DIR that does not exist yet: on PostgreSQL nothing
 * else makes the directory before the server notes its process id there.
 */
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
let data: ServerData | undefined;
afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
});

it('starts on a data directory it has to make', async () => {
  data = await serverData(kind);
  const server = spawnServerProcess({ dataDir: path.join(data.dataDir, 'new', 'data'), databaseUrl: data.databaseUrl });
  await server.waitForOutput(/ready on http/);
  expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
});
