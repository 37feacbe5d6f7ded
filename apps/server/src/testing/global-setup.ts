import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';

/**
 * Migrates one embedded database and loads its reference data once per test
 * run; every test server on PGlite starts from a copy of it instead of
 * running initdb and every migration again.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dp-template-'));
  const file = path.join(dir, 'pglite.tar');
  if (!process.env.TEST_DATABASE_URL) {
    const database = await openDatabase({});
    const snapshot = await database.snapshot?.();
    await database.close();
    if (snapshot) await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  }
  project.provide('pgliteTemplate', process.env.TEST_DATABASE_URL ? '' : file);
  return () => rm(dir, { recursive: true, force: true });
}
