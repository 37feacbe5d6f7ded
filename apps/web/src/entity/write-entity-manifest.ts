import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { deriveEntityManifest, entityManifestFile } from './derive-entity-manifest.ts';

/**
 * `npm run manifest:web` (or `node --import tsx apps/web/src/entity/write-entity-manifest.ts`):
 * writes entity-manifest.json, what the router, its guards and the sidebar
 * know of the entities, from the entity descriptions; run it after changing
 * one. entity-manifest.test.ts fails while the file is stale.
 */
const manifest = deriveEntityManifest();
const before = await readFile(entityManifestFile, 'utf8')
  .then((text): unknown => JSON.parse(text))
  .catch(() => undefined);
if (!isDeepStrictEqual(before, manifest)) {
  await writeFile(entityManifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  execFileSync(process.execPath, [biome, 'format', '--write', entityManifestFile], { stdio: 'ignore' });
  console.log(`wrote ${path.relative(process.cwd(), entityManifestFile)}`);
}
