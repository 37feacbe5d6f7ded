import path from 'node:path';
import pino from 'pino';
import { configFromEnv } from './config.ts';
import { openDatabase } from './db/client.ts';
import { bootstrapAccounts } from './domain/bootstrap.ts';
import { buildApp } from './http/app.ts';
import { seedDemoIfEmpty } from './seed/demo.ts';

/** How long a stop waits for the requests in progress before it ends them. */
const STOP_LIMIT_MS = 20_000;

const config = configFromEnv();
/** What happens outside a request: waiting for the database, connections lost, stopping. */
const log = pino({ level: config.logLevel });

// A promise that fails with nobody awaiting it has no request to answer; Node
// would end the process, and every other user's request with it. Log it and serve on.
process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));

const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  waitMs: config.databaseWaitMs,
  log: { warn: (message) => log.warn(message) },
});
const firstAdmin = await bootstrapAccounts(database, config);
const app = await buildApp({ config, database });
if (config.seedDemo) await seedDemoIfEmpty(database, app.log);
// The address actually bound: PORT=0 picks a free port.
const url = await app.listen({ port: config.port, host: config.host });

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

/**
 * A stop signal refuses new connections and lets the requests in progress
 * finish (Fastify's close), then closes the database. A second signal, or
 * STOP_LIMIT_MS, ends the process without waiting.
 */
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      log.warn(`${signal} again: stopping now, without waiting for the requests in progress`);
      process.exit(1);
    }
    stopping = true;
    log.info(`${signal}: finishing the requests in progress, then stopping (send it again to stop at once)`);
    setTimeout(() => {
      log.error(`Requests still in progress after ${STOP_LIMIT_MS} ms: stopping without them`);
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    // Closing ends the connections idle at that moment; a keep-alive connection
    // whose request finishes later would hold the stop until its client lets go.
    setInterval(() => app.server.closeIdleConnections(), 100).unref();
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'stopping failed');
          process.exit(1);
        },
      );
  });
}
