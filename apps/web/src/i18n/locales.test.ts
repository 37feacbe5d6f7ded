import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entityList } from '@data-platform/shared/entities/registry';
import { entityLocale, optionLocale } from '@data-platform/shared/i18n/entity-locale';
import { describe, expect, it } from 'vitest';
import { languages } from './languages.ts';

const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../packages/shared/src/i18n/locales',
);
const read = (language: string, namespace: string): unknown =>
  JSON.parse(readFileSync(path.join(localesDir, language, `${namespace}.json`), 'utf8'));

/** `a.b.c` paths of every text, with the text. */
function texts(value: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      for (const [childPath, text] of texts(child, prefix ? `${prefix}.${key}` : key)) found.set(childPath, text);
    }
  } else found.set(prefix, value);
  return found;
}

const namespaces = readdirSync(path.join(localesDir, 'en')).map((file) => file.replace(/\.json$/, ''));

describe('translations', () => {
  it('name every entity, field and picklist value the descriptions have, in English as described', () => {
    expect(read('en', 'entities')).toEqual(entityLocale(entityList));
    expect(read('en', 'options')).toEqual(optionLocale(entityList));
  });

  for (const language of languages.filter((l) => l !== 'en')) {
    for (const namespace of namespaces) {
      it(`${language} translates every text of ${namespace}`, () => {
        const english = texts(read('en', namespace));
        const translated = texts(read(language, namespace));
        expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
        for (const [key, text] of translated) {
          expect(typeof text === 'string' && text.trim().length > 0, `${language}/${namespace}: ${key}`).toBe(true);
          // The same placeholders as the English text.
          const placeholders = (s: unknown) =>
            String(s)
              .match(/\{\{\w+\}\}/g)
              ?.sort() ?? [];
          expect(placeholders(text), `${language}/${namespace}: ${key}`).toEqual(placeholders(english.get(key)));
        }
      });
    }
  }
});
