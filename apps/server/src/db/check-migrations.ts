import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run db:check`: fails when the committed migrations do not match the
 * entity descriptions, i.e. when `npm run db:generate` would write a new
 * migration. drizzle-kit generates into a copy of the migrations folder, so
 * the check never writes into the tree; `drizzle-kit check` cannot do this
 * (it only looks for clashes between the migrations themselves).
 */

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const migrations = path.join(serverRoot, 'src/db/migrations');

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function main(): Promise<number> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'dp-migrations-'));
  try {
    const copy = path.join(scratch, 'migrations');
    await cp(migrations, copy, { recursive: true });
    const before = new Set(await filesUnder(copy));
    const journalBefore = await readFile(path.join(copy, 'meta/_journal.json'), 'utf8');
    // stdin closed: a schema change drizzle-kit cannot decide alone (a rename?) must not wait for an answer.
    // drizzle-kit reads `--out` relative to the working directory, even an absolute path.
    const out = path.relative(serverRoot, copy);
    const run = spawnSync(
      'npx',
      ['drizzle-kit', 'generate', '--dialect', 'postgresql', '--schema', './src/db/schema.ts', '--out', out],
      { cwd: serverRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    // drizzle-kit can print an error and still exit 0: only its own "nothing to migrate" or new files count.
    const unchanged = /No schema changes/.test(output);
    const added = (await filesUnder(copy)).filter((file) => !before.has(file));
    if (run.status !== 0 || (!unchanged && added.length === 0)) {
      console.error(`db:check: drizzle-kit generate failed (exit ${run.status ?? run.signal}):\n${output}`);
      return 1;
    }
    const journalAfter = await readFile(path.join(copy, 'meta/_journal.json'), 'utf8');
    if (added.length === 0 && journalAfter === journalBefore) {
      console.log('db:check: the migrations match the entity descriptions.');
      return 0;
    }
    console.error(
      'db:check: the entity descriptions differ from the committed migrations; `npm run db:generate` would write:',
    );
    for (const file of added.filter((name) => name.endsWith('.sql'))) {
      console.error(`\n-- ${file}\n${await readFile(path.join(copy, file), 'utf8')}`);
    }
    console.error('\nRun `npm run db:generate`, check the SQL and commit it with the description change.');
    return 1;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
