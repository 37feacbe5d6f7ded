import path from 'node:path';
import { configFromEnv } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './http/app.ts';
import { seedDemoIfEmpty } from './seed/demo.ts';

const config = configFromEnv();

const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') });
const app = await buildApp({ config, database });
await seedDemoIfEmpty(database, app.log);
await app.listen({ port: config.port, host: config.host });
app.log.info(
  `Data Platform is ready on http://${config.host}:${config.port} (database: ${database.kind}). API reference: /api/docs`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: closing`);
    await app.close();
    await database.close();
    process.exit(0);
  });
}
