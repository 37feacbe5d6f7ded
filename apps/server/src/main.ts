import path from 'node:path';
import pino from 'pino';
import { configFromEnv } from './config.ts';
import { boxed } from './console-box.ts';
import { openDatabase } from './db/client.ts';
import { bootstrapAccounts } from './domain/bootstrap.ts';
import { buildApp } from './http/app.ts';
import { humanLogStream } from './log-lines.ts';
import { seedDemoIfEmpty } from './seed/demo.ts';
import { claimDataDir } from './server-pid.ts';

/** How long a stop waits for the requests in progress before it ends them. */
const STOP_LIMIT_MS = 20_000;

const config = configFromEnv();
/** Short lines for people (LOG_FORMAT=text, the default), or pino's JSON lines for a log collector. */
const stream = config.logFormat === 'json' ? process.stdout : humanLogStream(process.stdout);
/** What happens outside a request: waiting for the database, connections lost, stopping. */
const log = pino({ level: config.logLevel }, stream);

// A promise that fails with nobody awaiting it has no request to answer; Node
// would end the process, and every other user's request with it. Log it and serve on.
process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));

const database = await openDatabase({
  url: config.databaseUrl,
  readUrl: config.databaseReadUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  waitMs: config.databaseWaitMs,
  log: { warn: (message) => log.warn(message) },
});
const firstAdmin = await bootstrapAccounts(database, config);
const app = await buildApp({ config, database, logger: { level: config.logLevel, stream } });
if (config.seedDemo) await seedDemoIfEmpty(database, app.log);
// The address actually bound: PORT=0 picks a free port.
const url = await app.listen({ port: config.port, host: config.host });
claimDataDir(config.dataDir);

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

// The last thing a start prints, in a box: the sign-in (with the one-time password of a first start).
// After the stop signals are heard: until then a SIGTERM would end the process at once, so "ready" means a
// stop finishes the requests in progress.
const signIn = firstAdmin
  ? [
      `Sign in as ${firstAdmin.email}`,
      firstAdmin.generatedPassword
        ? `with the password ${firstAdmin.generatedPassword}`
        : 'with the password from ADMIN_PASSWORD.',
      ...(firstAdmin.generatedPassword ? ['(generated now, shown only this once: change it after signing in).'] : []),
    ]
  : ['Sign in with your account. Lost password: npm run admin:reset -- --email <you>'];
process.stdout.write(
  `\n${boxed([
    `Data Platform is ready on ${url} (database: ${database.kind}).`,
    ...signIn,
    `API reference: ${url}/api/docs`,
    'Stop: Ctrl+C (finishes the requests in progress first).',
  ])}\n\n`,
);
