import path from 'node:path';
import { configFromEnv } from './config.ts';
import { openDatabase } from './db/client.ts';
import { bootstrapAccounts } from './domain/bootstrap.ts';
import { buildApp } from './http/app.ts';
import { seedDemoIfEmpty } from './seed/demo.ts';

const config = configFromEnv();
const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') });
const firstAdmin = await bootstrapAccounts(database, config);
const app = await buildApp({ config, database });
await seedDemoIfEmpty(database, app.log);
await app.listen({ port: config.port, host: config.host });

const url = `http://${config.host}:${config.port}`;
const signIn = firstAdmin
  ? `Sign in as ${firstAdmin.email} with ${
      firstAdmin.generatedPassword
        ? `the password ${firstAdmin.generatedPassword} (generated now and shown only this once; change it after signing in)`
        : 'the password from ADMIN_PASSWORD'
    }.`
  : 'Sign in with your account (the first administrator was created on the first start).';
process.stdout.write(
  `\nData Platform is ready on ${url} (database: ${database.kind}).\n${signIn}\nAPI reference: ${url}/api/docs\n\n`,
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
