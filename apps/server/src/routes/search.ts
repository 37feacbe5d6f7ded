import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { textTypes } from '@data-platform/shared/fields/field-types';
import {
  type SearchGroup,
  type SearchMatch,
  type SearchQuery,
  type SearchResult,
  searchQuerySchema,
  searchResultSchema,
  searchTypes,
} from '@data-platform/shared/search';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readableEntity, readableScope, readerDescription } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { escapeLike, ROOT, whereSql } from '../crud/list-compiler.ts';
import { column, nameLiteral, searchFields, searchMatches, searchTexts, valueExpr } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { CUSTOM_COLUMN } from '../db/columns.ts';
import { searchWords } from '../db/search-words-schema.ts';
import { errorBodySchema } from '../http/errors.ts';
import { readerFor } from '../http/read-after.ts';

/**
 * Global search (decision 0029): every record type the reader's lists show,
 * in one statement. Per type, four sets are read in order of rank, each
 * only when the sets before it left room within the type's limit (an
 * InitPlan counts them, so a set not needed is never scanned):
 *
 * 0-1. the display name equal to `q`, then starting with it: a range of the
 *    `lower(display) text_pattern_ops` btree, walked in its own order;
 * 2. any searched field containing `q` (the list's trigram indexes), at most
 *    candidatesFor(limit) of them, best word similarity first;
 * 3. names spelled alike (`sequioa` finds Sequoia): the words of the names
 *    (search_words) alike to the term's longest word, when it has
 *    MIN_SIMILAR_LENGTH characters or more, lead to the names holding them
 *    (the display field's trigram index), kept when the name is alike to the
 *    whole term; at most candidatesFor(limit) per word, most alike first;
 * 4. a custom text field containing `q`.
 */

/**
 * Rows of "contains" and "alike" matches ranked by similarity, per type: bounded, so that a common term (`ltd`, or
 * `capitl` alike to Capital in every tenth name) costs no more than a rare one. The ranking is among them: four
 * times the page (20 for the palette's 5). A common term finds them by walking the table, as far as the bound
 * asks (`partners` at 1M companies: 4,147 rows walked for 50, 9 ms; p50 of the whole search 36 → 25 ms with 20).
 */
const candidatesFor = (limit: number) => Math.max(20, 4 * limit);
/** Shorter terms hold too few trigrams for a similarity to mean anything (`ab` is like every word starting with a or b). */
const MIN_SIMILAR_LENGTH = 4;
/**
 * How alike a word of a record must be to the term (pg_trgm's word
 * similarity, 0 to 1): one letter swapped in a 7-letter word is 0.5,
 * below the extension's default 0.6.
 */
const SIMILARITY_THRESHOLD = '0.45';

const matchOfRank: readonly SearchMatch[] = ['exact', 'prefix', 'contains', 'similar', 'contains'];

interface Parameters {
  q: string;
  prefix: string;
  contains: string;
  /** The word of `q` whose alike words lead to alike names (its longest), when it is long enough to be alike to any. */
  alikeTo: string | undefined;
}

/** The CTE of the dictionary's words alike to `alikeTo`, most alike first (read once, for every type). */
const ALIKE = 'alike_words';
/** Alike words followed to their names: the nearest few (`capitl` is alike to capital, capitan, capitol...). */
const ALIKE_WORDS = 10;

/** The longest word of a search term (letters and digits), or undefined when none has MIN_SIMILAR_LENGTH characters. */
function alikeTarget(q: string): string | undefined {
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= MIN_SIMILAR_LENGTH);
  return words.reduce<string | undefined>(
    (longest, word) => (longest && longest.length >= word.length ? longest : word),
    undefined,
  );
}

/**
 * The words of the searched names (search_words, kept by triggers) alike to `word`: pg_trgm's word similarity over
 * the dictionary's trigram index, whose threshold is pg_trgm's setting, set for this transaction alone by the
 * InitPlan that hands the index scan its term (it runs before the scan reads the index; local, it ends with the
 * statement). The dictionary may hold a word twice (see search-words-schema.ts).
 */
function alikeWordsCte(word: string): SQL {
  const term = sql`(select ${word}::text
    where set_config('pg_trgm.word_similarity_threshold', ${SIMILARITY_THRESHOLD}, true) is not null)`;
  return sql`${sql.identifier(ALIKE)} as (select w.word from ${searchWords} w
    where w.word %> ${term}
    group by w.word order by max(word_similarity(${word}::text, w.word)) desc, w.word limit ${ALIKE_WORDS})`;
}

/** What one record type contributes to the statement: its CTEs and its final select. */
interface TypeBlock {
  ctes: SQL[];
  select: SQL;
}

/** The custom fields of text types, whose values a search looks through. */
function customTextFields(entity: EntityDescription): string[] {
  return Object.entries(allFields(entity))
    .filter(([, field]) => field.custom && textTypes.has(field.type))
    .map(([name]) => name);
}

/** The searched values of a row beside its display name (legal name, domain, email, custom text), in description order. */
function otherValues(entity: EntityDescription, alias: string): SQL[] {
  const builtIn = searchFields(entity).filter((name) => name !== entity.display);
  return [
    ...builtIn.map((name) => valueExpr(alias, name)),
    ...customTextFields(entity).map((name) => sql`(${column(alias, CUSTOM_COLUMN)} ->> ${nameLiteral(name)})`),
  ];
}

/** A record type to search: its description, and the same as the reader reads it (with custom fields, without hidden ones). */
interface Searched {
  entity: EntityDescription;
  described: EntityDescription;
}

function typeBlock(searched: Searched, actor: Actor, position: number, limit: number, p: Parameters): TypeBlock {
  const { described: entity } = searched;
  const table = sql`${sql.identifier(entity.table)} ${sql.identifier(ROOT)}`;
  // The row scope is the entity's own (its rule names fields a limited reader cannot see, such as a user's status).
  const scope = whereSql(searched.entity, {}, readableScope(searched.entity, actor));
  const id = column(ROOT, 'id');
  const display = valueExpr(ROOT, entity.display);
  const key = sql`lower(${display})`;
  const isPrefix = sql`${key} like lower(${p.prefix})`;
  const texts = searchTexts(entity, (name) => valueExpr(ROOT, name));
  const contains = searchMatches(entity, (name) => valueExpr(ROOT, name), sql`${p.contains}`);
  const similarity =
    texts.length === 1
      ? sql`word_similarity(${p.q}::text, ${texts[0]})`
      : sql`greatest(${sql.join(
          texts.map((text) => sql`word_similarity(${p.q}::text, ${text})`),
          sql`, `,
        )})`;
  const nameSimilarity = sql`word_similarity(${p.q}::text, ${display})`;
  const cte = (suffix: string): SQL => sql`${sql.identifier(`s${position}_${suffix}`)}`;
  const prefixSet = cte('prefix');
  const containsSet = cte('contains');
  const similarSet = cte('similar');
  const customSet = cte('custom');
  // Rows found by the sets before: a set runs only while they hold fewer than the limit.
  const found = (sets: SQL[]) =>
    sql.join(
      sets.map((set) => sql`(select count(*) from ${set})`),
      sql` + `,
    );
  const ctes: SQL[] = [
    sql`${prefixSet} as (select ${id} as id, case when ${key} = lower(${p.q}) then 0 else 1 end as rank, 0::real as score
      from ${table} where ${isPrefix} and ${scope} order by ${key} using ~<~, ${id} limit ${limit})`,
    sql`${containsSet} as (select c.id, 2 as rank, c.score from (
        select ${id} as id, ${similarity} as score, ${key} as key from ${table}
        where ${found([prefixSet])} < ${limit} and ${contains} and (${isPrefix}) is not true and ${scope}
        limit ${candidatesFor(limit)}) c
      order by c.score desc, c.key, c.id limit ${limit})`,
  ];
  const sets = [prefixSet, containsSet];
  if (p.alikeTo) {
    // Names holding a word alike to the term's longest word (ALIKE, read once for every type, and only when a
    // type's sets before leave room), each word's names through the name's trigram index, kept when the whole name
    // is alike to the whole term.
    ctes.push(sql`${similarSet} as (select c.id, 3 as rank, c.score from (
        select distinct on (n.id) n.id, n.score, n.key
        from (select word from ${sql.identifier(ALIKE)} where ${found(sets)} < ${limit}) a cross join lateral (
          select ${id} as id, ${nameSimilarity} as score, ${key} as key from ${table}
          where ${display} ilike '%' || a.word || '%' and (${contains}) is not true
            and ${scope} and ${nameSimilarity} >= ${SIMILARITY_THRESHOLD}::real
          limit ${candidatesFor(limit)}) n
        order by n.id) c
      order by c.score desc, c.key, c.id limit ${limit})`);
    sets.push(similarSet);
  }
  const custom = customTextFields(entity);
  if (custom.length > 0) {
    const anyCustom = sql.join(
      custom.map((name) => sql`(${column(ROOT, CUSTOM_COLUMN)} ->> ${nameLiteral(name)}) ilike ${p.contains}`),
      sql` or `,
    );
    const earlier = sql.join(
      sets.map((set) => sql`select id from ${set}`),
      sql` union all `,
    );
    ctes.push(sql`${customSet} as (select ${id} as id, 4 as rank, 0::real as score from ${table}
      where ${found(sets)} < ${limit} and (${anyCustom}) and (${contains}) is not true and ${scope}
        and ${id} not in (${earlier})
      order by ${key}, ${id} limit ${limit})`);
    sets.push(customSet);
  }
  // The value that matched when it is not the name: the first one containing `q`, else the most alike.
  const values = [display, ...otherValues(entity, ROOT)];
  const matched = sql`case when r.rank <= 1 then null else (
      select case when v.i = 0 then null else v.value end
      from (values ${sql.join(
        values.map((value, i) => sql`(${sql.raw(String(i))}, ${value}::text)`),
        sql`, `,
      )}) v(i, value)
      where v.value is not null
      order by (v.value ilike ${p.contains}) desc, word_similarity(${p.q}::text, v.value) desc, v.i limit 1) end`;
  const select = sql`select ${sql.raw(String(position))} as position, ${nameLiteral(entity.name)}::text as type, ${id} as id,
      ${display}::text as name, ${matched}::text as matched, r.rank, r.score, ${key} as key
    from (${sql.join(
      sets.map((set) => sql`select id, rank, score from ${set}`),
      sql` union all `,
    )}) r join ${table} on ${id} = r.id
    order by r.rank, r.score desc, ${key}, ${id} limit ${limit}`;
  return { ctes, select };
}

interface HitRow {
  type: string;
  id: number;
  name: string;
  matched: string | null;
  rank: number;
}

/**
 * The records matching `q` of each type the actor may read (of `types`, when given), best first; read on
 * `reader` (a read replica, decision 0048), the descriptions on `database`.
 */
export async function globalSearch(
  database: Database,
  actor: Actor,
  query: SearchQuery,
  reader: Database = database,
): Promise<SearchResult> {
  const wanted = query.types ?? searchTypes;
  const entities: Searched[] = [];
  for (const name of searchTypes) {
    const entity = wanted.includes(name) ? readableEntity(actor, name) : undefined;
    if (!entity) continue;
    // Searched as the reader's lists see it: custom fields included, fields beyond the reader's rights left out.
    const described = await readerDescription(database, entity, actor);
    if (searchFields(described).includes(described.display)) entities.push({ entity, described });
  }
  if (entities.length === 0) return { groups: [] };
  const q = query.q;
  const p: Parameters = { q, prefix: `${escapeLike(q)}%`, contains: `%${escapeLike(q)}%`, alikeTo: alikeTarget(q) };
  const blocks = entities.map((searched, position) => typeBlock(searched, actor, position, query.limit, p));
  const rows = await reader.rows<HitRow>(
    sql`with ${sql.join(
      [...(p.alikeTo ? [alikeWordsCte(p.alikeTo)] : []), ...blocks.flatMap((block) => block.ctes)],
      sql`, `,
    )}
    select * from (${sql.join(
      blocks.map((block) => sql`(${block.select})`),
      sql` union all `,
    )}) hits
    order by position, rank, score desc, key, id`,
  );
  const groups = new Map<string, SearchGroup>();
  for (const row of rows) {
    const group = groups.get(row.type) ?? { type: row.type, hits: [] };
    groups.set(row.type, group);
    group.hits.push({
      id: Number(row.id),
      name: row.name,
      matched: row.matched,
      match: matchOfRank[row.rank] ?? 'contains',
    });
  }
  return { groups: [...groups.values()] };
}

export function registerSearchRoutes(app: FastifyInstance, database: Database): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/search', {
    schema: {
      tags: ['Search'],
      summary: 'Search every record type the signed-in user may read',
      description: `Records whose name, legal name, domain, email or custom text field holds \`q\`, or whose words are
spelled like it (\`sequioa\` finds Sequoia), grouped by record type in sidebar order, each group best first: the name
equal to \`q\`, names starting with it, other matches (most alike first), similar spellings, custom field matches.
Record types the user may not read are absent, and each type answers only the records the user's own list of it
shows (a colleague who has not joined yet is found only by readers of user accounts). One statement per request.`,
      querystring: searchQuerySchema,
      response: { 200: searchResultSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) =>
      globalSearch(database, request.actor, request.query, await readerFor(database, request)),
  });
}
