/**
 * `npm run seed -- --scale N [--reset] [--seed S]`: loads N companies, N
 * contacts, N/5 deals, N/10 investors, N/50 firms, N/25 funds with their
 * quarterly performance, links and notes into DATABASE_URL, or PGlite under
 * DATA_DIR. Accounts, roles and reference data are kept.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { bootstrapAccounts } from '../domain/bootstrap.ts';
import { countsForScale, DEFAULT_SEED } from './generator.ts';
import { BULK_SCALE, formatTiming, seedDatabase, timingHeader } from './load.ts';
import { tablesWithRows, truncateData } from './tables.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    reset: { type: 'boolean', default: false },
    seed: { type: 'string' },
  },
});
const scale = Number(values.scale);
const seed = values.seed === undefined ? DEFAULT_SEED : Number(values.seed);
if (!Number.isInteger(scale) || scale < 1 || !Number.isInteger(seed)) {
  console.error('Usage: npm run seed -- --scale N [--reset] [--seed S]   (N: number of companies, at least 1)');
  process.exit(2);
}

const config = configFromEnv();
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  poolSize: 4,
});
try {
  const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`;
  // As the server's first start would: built-in roles, and the first administrator while there are no users yet.
  const firstAdmin = await bootstrapAccounts(database, config);
  if (firstAdmin) {
    console.log(
      `Created the first administrator ${firstAdmin.email}${
        firstAdmin.generatedPassword
          ? ` with the password ${firstAdmin.generatedPassword} (shown only this once)`
          : ' with the password from ADMIN_PASSWORD'
      }`,
    );
  }
  const filled = await tablesWithRows(database);
  if (filled.length > 0 && !values.reset) {
    console.error(`${where} already has records (${filled.join(', ')}). Run with --reset to replace them.`);
    process.exitCode = 1;
  } else {
    if (values.reset) {
      await truncateData(database);
      if (filled.length > 0) console.log(`Emptied ${filled.join(', ')}`);
    }
    const counts = countsForScale(scale);
    console.log(`Seeding ${where} at scale ${scale} (seed ${seed}): ${JSON.stringify(counts)}`);
    console.log(timingHeader);
    const started = performance.now();
    // Indexes and foreign keys are dropped while loading: a first Ctrl-C stops the load and puts them back.
    const stop = new AbortController();
    const interrupt = () => {
      console.error('Stopping: putting indexes and foreign keys back (Ctrl-C again to quit at once)');
      stop.abort(new Error('Interrupted'));
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    };
    process.on('SIGINT', interrupt);
    process.on('SIGTERM', interrupt);
    const timings = await seedDatabase(database, counts, {
      signal: stop.signal,
      seed,
      bulk: scale >= BULK_SCALE,
      onTable: (t) => console.log(formatTiming(t)),
    }).catch((error: unknown) => {
      if (!stop.signal.aborted) throw error;
      console.error('Stopped. Indexes and foreign keys are back; the data is partly loaded: seed again with --reset.');
      process.exitCode = 130;
      return undefined;
    });
    if (timings) {
      const rows = timings.reduce((sum, t) => sum + t.rows, 0);
      console.log(`Loaded ${rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
} finally {
  await database.close();
}
