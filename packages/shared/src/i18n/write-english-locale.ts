import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entityList } from '../entities/registry.ts';
import { entityLocale, optionLocale } from './entity-locale.ts';

/**
 * `npm run locales:en` (or `node --import tsx packages/shared/src/i18n/write-english-locale.ts`):
 * writes the English `entities` and `options` namespaces from the entity
 * descriptions. apps/web/src/i18n/locales.test.ts fails while they are
 * stale, and while another language lacks a key they have.
 */
const english = path.join(path.dirname(fileURLToPath(import.meta.url)), 'locales/en');

async function write(namespace: string, content: unknown): Promise<void> {
  const file = path.join(english, `${namespace}.json`);
  const text = `${JSON.stringify(content, null, 2)}\n`;
  const before = await readFile(file, 'utf8').catch(() => '');
  if (before === text) return;
  await writeFile(file, text);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

await write('entities', entityLocale(entityList));
await write('options', optionLocale(entityList));
