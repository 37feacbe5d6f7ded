import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../build.ts';
import { openDatabase } from '../db/client.ts';
import { createScratchDatabase } from './test-server.ts';

/**
 * Migrates one database and loads its reference data once per test run;
 * every test database starts from a copy of it instead of running every
 * migration again (about 3 s a database on PostgreSQL, 0.4 s as a copy):
 * on PGlite a data directory tarball, on PostgreSQL a template database
 * that `CREATE DATABASE … TEMPLATE` copies.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Server processes in tests run the bundle `npm start` runs (testing/server-process.ts), built from this source.
  await buildServer();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const template = await createScratchDatabase(adminUrl);
    // Closed before any copy: PostgreSQL copies a template nobody is connected to.
    const database = await openDatabase({ url: template.url, poolSize: 1 });
    await database.close();
    project.provide('pgliteTemplate', '');
    project.provide('postgresTemplate', new URL(template.url).pathname.slice(1));
    return template.drop;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'dp-template-'));
  const file = path.join(dir, 'pglite.tar');
  const database = await openDatabase({});
  const snapshot = await database.snapshot?.();
  await database.close();
  if (snapshot) await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
  return () => rm(dir, { recursive: true, force: true });
}
