/**
 * `npm run build -w apps/server`: the server as `npm start` runs it, one
 * JavaScript file per entry point in dist/ (docs/decisions/0037), and the
 * chunks esbuild splits out: what the entries share, and what is imported
 * only by `import()`.
 *
 * Our own code (this package and @data-platform/shared) is bundled and its
 * types stripped by esbuild; the packages we depend on stay imports, read
 * from node_modules as they are. The files the code reads beside itself at
 * run time (the SQL migrations, the common-password list) are copied next to
 * the bundles, where `import.meta.url` then points. No source maps: Node
 * holds a parsed map in memory (about 50 MB more at an import job's peak),
 * and the bundle is our code as written, types stripped, each module headed
 * by its source path, so a stack trace's line reads as it is. The entry
 * `npm start` runs is dist/start.js (src/start.ts). It takes well under a second, so
 * the tests' global set-up runs it too: a server process in a test runs what
 * `npm start` runs, built from the source as it is.
 */
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
/**
 * Where the bundles go; every file there is rewritten by each build, and only the chunks an earlier build wrote
 * and this one did not are removed (a running server imports its seed's chunks at its start).
 */
const serverDist = path.join(root, 'dist');
/** The name of a chunk esbuild writes (`[name]-[hash]`: `load-SHNPN224.js`, `chunk-3QJM7LRF.js`). */
const CHUNK = /^[\w-]+-[A-Z0-9]{8}\.js$/;

export async function buildServer(): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  // Every dependency but our own workspace packages, which are TypeScript and are bundled.
  const external = Object.keys(manifest.dependencies)
    .filter((name) => !name.startsWith('@data-platform/'))
    .flatMap((name) => [name, `${name}/*`]);
  const result = await build({
    entryPoints: { main: path.join(root, 'src/main.ts'), 'admin-reset': path.join(root, 'src/admin-reset.ts') },
    outdir: serverDist,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external,
    // Modules imported only by `import()` (the demo seed, with faker and the cities it draws) in chunks of their own,
    // loaded when imported: in one bundle their packages were imported at start, 40 MB the server held for nothing.
    // Beside the entries (code in a chunk reads the migrations and the password list beside itself).
    splitting: true,
    chunkNames: '[name]-[hash]',
    metafile: true,
    // The metafile's paths are relative to it, whatever directory the build is run from.
    absWorkingDir: root,
    logLevel: 'warning',
  });
  // Chunks of earlier builds: a chunk's name changes with its content.
  const written = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file)));
  for (const file of await readdir(serverDist)) {
    const full = path.join(serverDist, file);
    if (CHUNK.test(file) && !written.has(full)) await rm(full, { force: true });
  }
  // The entry `npm start` runs: not bundled, so that it sets the heap's growth before main.js loads anything.
  await build({
    entryPoints: [path.join(root, 'src/start.ts')],
    outdir: serverDist,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    logLevel: 'warning',
  });
  await cp(path.join(root, 'src/db/migrations'), path.join(serverDist, 'migrations'), { recursive: true });
  await cp(path.join(root, 'src/auth/common-passwords.txt'), path.join(serverDist, 'common-passwords.txt'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
