import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory with reference data, as a tarball path ('' on PostgreSQL). */
    pgliteTemplate: string;
    /** A migrated PostgreSQL database with reference data, to copy ('' on PGlite). */
    postgresTemplate: string;
  }
}

import { configFromEnv } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { bootstrapAccounts } from '../domain/bootstrap.ts';
import { buildApp } from '../http/app.ts';

export const TEST_ADMIN_EMAIL = 'admin@test.example';
export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestServer {
  /** e.g. http://127.0.0.1:39123 */
  url: string;
  /** A bearer token of the first administrator (every permission). Every /api/v1 route but sign-in and friends needs one. */
  token: string;
  /** fetch against the server, as the administrator unless `init.headers.authorization` says otherwise. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  app: FastifyInstance;
  database: Database;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL database on the server named by TEST_DATABASE_URL,
 * dropped by the returned function; so test files never see each other's rows.
 * Empty, or a copy of `template` (a database nobody is connected to).
 */
export async function createScratchDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `dp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Both names are ours (random hex, or one made here): no identifier comes from input.
  if (template && !/^dp_test_[0-9a-f]{12}$/.test(template)) throw new Error(`Not a test template: ${template}`);
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * A migrated database of its own: in-memory PGlite, or a scratch PostgreSQL
 * database when TEST_DATABASE_URL is set; `close` also drops the scratch one.
 * Both start as copies of the run's template (global-setup.ts), whose
 * migrations opening it then finds applied.
 */
export async function openTestDatabase(): Promise<{ database: Database; close(): Promise<void> }> {
  const scratch = process.env.TEST_DATABASE_URL
    ? await createScratchDatabase(process.env.TEST_DATABASE_URL, inject('postgresTemplate') || undefined)
    : undefined;
  const template = inject('pgliteTemplate');
  const loadDataDir = !scratch && template ? new Blob([await readFile(template)]) : undefined;
  const database = await openDatabase({ url: scratch?.url, poolSize: 4, loadDataDir });
  return {
    database,
    async close() {
      await database.close();
      await scratch?.drop();
    },
  };
}

/**
 * Starts the real application on a random loopback port over a database of
 * its own (see openTestDatabase).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-test-'));
  const { database, close: closeDatabase } = await openTestDatabase();
  const config = configFromEnv({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: TEST_ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    // Another build of the web app to serve (a second checkout building while tests run).
    ...(process.env.WEB_DIR ? { WEB_DIR: process.env.WEB_DIR } : {}),
    ...env,
  });
  await bootstrapAccounts(database, config);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
  });
  if (!login.ok) throw new Error(`Test administrator cannot sign in: ${login.status} ${await login.text()}`);
  const { accessToken: token } = (await login.json()) as { accessToken: string };
  return {
    url,
    token,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return fetch(`${url}${path}`, { ...init, headers });
    },
    app,
    database,
    dataDir,
    async close() {
      await app.close();
      await closeDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
