import { index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The words of the searched names (companies, contacts, funds...: the display
 * field of every type global search reads), lower case, three letters and
 * more: where a typo (`parnters`, `sequioa`) finds the words it is alike to,
 * before the names holding them are found through their own trigram index
 * (routes/search.ts, decision 0029). A word index over a few tens of
 * thousands of short words is precise where one over a million names is not.
 *
 * Kept by triggers on the named tables (migration 0017, `search_words_of`),
 * in the writer's statement: a write of a name adds the words not there yet.
 * No unique key, so that no writer ever waits on another's uncommitted word:
 * two transactions adding the same new word at once keep it twice, which the
 * search reads as one. Words of names since renamed or deleted stay; a typo
 * leading to one finds no name through it.
 */
export const searchWords = pgTable('search_words', { word: text('word').notNull() }, (t) => [
  index('search_words_word_idx').on(t.word),
  index('search_words_word_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
]);
