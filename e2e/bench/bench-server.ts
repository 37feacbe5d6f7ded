import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configFromEnv } from '@data-platform/server/config';
import { type Database, openDatabase } from '@data-platform/server/db/client';
import { bootstrapAccounts } from '@data-platform/server/domain/bootstrap';
import { buildApp } from '@data-platform/server/http/app';

/** The administrator every browser bench signs in as. */
export const BENCH_EMAIL = 'admin@bench.example';
export const BENCH_PASSWORD = 'a long bench passphrase';

export interface BenchServer {
  url: string;
  database: Database;
  /** Stops the server, closes the database and removes its directory. */
  close(): Promise<void>;
}

/**
 * A real server on a free port over a new embedded database in a temporary
 * directory (`dp-<name>-`), serving the built web app (apps/web/dist, or
 * WEB_DIR), with the bench's administrator; `prepare` runs on the database
 * before the server starts (demo data, say).
 */
export async function startBenchServer(
  name: string,
  prepare?: (database: Database) => Promise<unknown>,
): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `dp-${name}-`));
  const database = await openDatabase({});
  const config = configFromEnv({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: BENCH_EMAIL,
    ADMIN_PASSWORD: BENCH_PASSWORD,
    ...(process.env.WEB_DIR ? { WEB_DIR: process.env.WEB_DIR } : {}),
  });
  await bootstrapAccounts(database, config);
  await prepare?.(database);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    database,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Writes a bench's result to e2e/bench/results/<file> and says where. */
export async function writeBenchResult(file: string, result: unknown): Promise<void> {
  const where = path.join(import.meta.dirname, 'results', file);
  await mkdir(path.dirname(where), { recursive: true });
  await writeFile(where, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), where)}`);
}
