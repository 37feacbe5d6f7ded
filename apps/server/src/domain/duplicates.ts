import type { DuplicatePair, DuplicateReason, DuplicatesPage, DuplicatesQuery } from '@data-platform/shared/duplicates';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { recordName } from '@data-platform/shared/entities/record-name';
import { textTypes } from '@data-platform/shared/fields/field-types';
import { type SQL, sql } from 'drizzle-orm';
import { readableScope } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { ROOT, selectionSql, whereSql } from '../crud/list-compiler.ts';
import { column, pgArrayLiteral, searchFields, searchParts, searchPartText, valueExpr } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';

/**
 * Likely duplicates of an entity's records (decision 0032): pairs with the
 * same value of a key field (`dedupKeys`, ignoring case) or display names
 * spelled alike (pg_trgm), each pair once, both records readable by the
 * caller, pairs dismissed as "Not duplicates" left out.
 *
 * Bounded work per page: it looks at SCANNED records in id order, and for
 * each at most `limit` later records found through the entity's trigram
 * index (the one `q` reads: its searched fields hold the display name and,
 * for companies and contacts, the domain or email); the next page goes on
 * after the last record looked at.
 */

/** Records a page looks at, at most: a page with few duplicates still ends soon. */
const SCANNED = 200;
/** How alike two names must be (pg_trgm similarity of their lowercase, 0 to 1) to count as a reason. */
const MIN_NAME_SCORE = 0.5;
/**
 * The threshold of the index search for candidates (word similarity of the
 * name to the other record's searched text), a little below MIN_NAME_SCORE:
 * what it lets through is then measured name against name.
 */
const WORD_SIMILARITY_THRESHOLD = '0.45';

const LEFT = 'a';

/** The key fields that pair records by an equal value: text fields of the reader's description, the display name aside. */
function valueKeys(entity: EntityDescription): string[] {
  return (entity.dedupKeys ?? []).filter((name) => {
    const field = entity.fields[name];
    return name !== entity.display && field && !field.custom && textTypes.has(field.type);
  });
}

/** `value` as a LIKE pattern matching itself literally, in SQL (the value comes from another row). */
function likeLiteral(value: SQL): SQL {
  return sql`replace(replace(replace(${value}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
}

interface PairRow {
  a: number | string;
  b: number | string;
  score: number | null;
  keys: boolean[] | string;
}

/** The pairs among the records after `query.cursor`, with the cursor of the next page. */
export async function findDuplicates(
  database: Database,
  entity: EntityDescription,
  described: EntityDescription,
  actor: Actor,
  query: DuplicatesQuery,
): Promise<DuplicatesPage> {
  const table = sql.identifier(entity.table);
  const scope = readableScope(entity, actor);
  const keys = valueKeys(described);
  const searched = searchFields(described);
  // The searched text holding a field (its trigram index's expression), for a key searched through it.
  const textOf = (name: string) =>
    searchPartText(searchParts(described).find((part) => part.includes(name)) ?? [name], (field) =>
      valueExpr(ROOT, field),
    );
  const display = described.display;
  const nameSimilar = searched.includes(display) && textTypes.has(described.fields[display]?.type ?? 'text');
  const keyMatch = (name: string) =>
    sql`(${valueExpr(LEFT, name)} <> '' and lower(${valueExpr(ROOT, name)}) = lower(${valueExpr(LEFT, name)}))`;
  const candidates: SQL[] = keys.map((name) =>
    // Through the trigram index when the key is searched: the other record's text contains the value.
    searched.includes(name)
      ? sql`((${textOf(name)}) ilike '%' || ${likeLiteral(valueExpr(LEFT, name))} || '%' and ${keyMatch(name)})`
      : keyMatch(name),
  );
  const score = nameSimilar
    ? sql`similarity(lower(${valueExpr(ROOT, display)}), lower(${valueExpr(LEFT, display)}))`
    : sql`null::real`;
  if (nameSimilar) {
    candidates.push(
      sql`(${valueExpr(ROOT, display)} %> ${valueExpr(LEFT, display)} and ${score} >= ${MIN_NAME_SCORE})`,
    );
  }
  if (candidates.length === 0) return { data: [], nextCursor: null };
  const after = query.cursor === undefined ? 0 : Number(query.cursor);
  const keyFlags = keys.length > 0 ? sql`array[${sql.join(keys.map(keyMatch), sql`, `)}]` : sql`array[]::boolean[]`;
  const rows = await database.db.transaction(async (tx) => {
    // Local to this transaction: the index search's threshold (pg_trgm's setting, read by `%>`).
    await database.rows(
      sql`select set_config('pg_trgm.word_similarity_threshold', ${WORD_SIMILARITY_THRESHOLD}, true)`,
      tx,
    );
    return database.rows<PairRow & { scanned: number | string; last: number | string | null }>(
      sql`with lefts as (
          select ${column(ROOT, 'id')} as id from ${table} ${sql.identifier(ROOT)}
          where ${column(ROOT, 'id')} > ${after} and ${whereSql(entity, {}, scope)}
          order by ${column(ROOT, 'id')} limit ${SCANNED}),
        stats as (select count(*) as scanned, max(id) as last from lefts)
        select p.a, p.b, p.score, p.keys, s.scanned, s.last from stats s
        left join lateral (
          select l.id as a, m.id as b, m.score, m.keys from lefts l
          join ${table} ${sql.identifier(LEFT)} on ${column(LEFT, 'id')} = l.id
          cross join lateral (
            select ${column(ROOT, 'id')} as id, ${score} as score, ${keyFlags} as keys
            from ${table} ${sql.identifier(ROOT)}
            where ${column(ROOT, 'id')} > ${column(LEFT, 'id')} and (${sql.join(candidates, sql` or `)})
              and ${whereSql(entity, {}, scope)}
              and not exists (select 1 from duplicate_dismissals d where d.entity = ${entity.name}
                and d.low_id = ${column(LEFT, 'id')} and d.high_id = ${column(ROOT, 'id')})
            order by ${column(ROOT, 'id')} limit ${query.limit}) m
        ) p on true
        order by p.a, p.b`,
      tx,
    );
  });
  const scanned = Number(rows[0]?.scanned ?? 0);
  const last = rows[0]?.last === null || rows[0]?.last === undefined ? null : Number(rows[0].last);
  const found = rows.filter((row) => row.a !== null && row.a !== undefined);
  // Whole groups of one record's pairs, up to the limit; the next page starts after the last record whose pairs were all given.
  const page: PairRow[] = [];
  let nextCursor: string | null = scanned === SCANNED && last !== null ? String(last) : null;
  for (let i = 0; i < found.length; ) {
    const left = Number(found[i]?.a);
    let end = i;
    while (end < found.length && Number(found[end]?.a) === left) end++;
    if (page.length > 0 && page.length + (end - i) > query.limit) {
      nextCursor = String(left - 1);
      break;
    }
    page.push(...found.slice(i, end));
    i = end;
  }
  return { data: await pairsOf(database, entity, described, keys, page), nextCursor };
}

/** The pairs with both records as the reader reads them and the reasons they look alike. */
async function pairsOf(
  database: Database,
  entity: EntityDescription,
  described: EntityDescription,
  keys: string[],
  rows: PairRow[],
): Promise<DuplicatePair[]> {
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.flatMap((row) => [Number(row.a), Number(row.b)]))];
  const records = await database.rows<{ row: string }>(
    sql`select ${selectionSql(described, { join: [] })}::text as row from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
      where ${column(ROOT, 'id')} = any(${pgArrayLiteral(ids)}::bigint[])`,
  );
  const byId = new Map<number, Record<string, unknown>>();
  for (const { row } of records) {
    const values = JSON.parse(row) as Record<string, unknown>;
    byId.set(Number(values.id), values);
  }
  const record = (id: number) => {
    const values = byId.get(id) ?? { id };
    return { id, version: Number(values.version ?? 0), name: recordName(described, values), values };
  };
  return rows.map((row) => {
    const a = record(Number(row.a));
    const b = record(Number(row.b));
    const flags = typeof row.keys === 'string' ? parseBooleanArray(row.keys) : row.keys;
    const reasons: DuplicateReason[] = keys
      .filter((_, i) => flags[i])
      .map((field) => ({ kind: 'sameValue', field, value: String(a.values[field] ?? '') }));
    if (row.score !== null && Number(row.score) >= MIN_NAME_SCORE) {
      reasons.push({ kind: 'similarName', field: described.display, score: Math.round(Number(row.score) * 100) / 100 });
    }
    return { records: [a, b], reasons };
  });
}

/** A Postgres boolean array as text (`{t,f}`), as a driver may answer it. */
function parseBooleanArray(text: string): boolean[] {
  return text
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter((v) => v !== '')
    .map((v) => v === 't' || v === 'true');
}

/**
 * "Not duplicates": the pair is no longer listed (for anyone). One statement: the pair is stored only when both
 * records exist within the actor's row scope; the ids it did not find are answered (404 for the caller).
 */
export async function dismissPair(
  database: Database,
  entity: EntityDescription,
  ids: readonly [number, number],
  actor: Actor,
): Promise<number[]> {
  const [low, high] = ids[0] < ids[1] ? ids : [ids[1], ids[0]];
  const [row] = await database.rows<{ found: (number | string)[] | string | null }>(
    sql`with found as (
        select array_agg(${column(ROOT, 'id')}) as ids from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
        where ${column(ROOT, 'id')} in (${low}, ${high}) and ${whereSql(entity, {}, readableScope(entity, actor))}),
      stored as (
        insert into duplicate_dismissals (entity, low_id, high_id, dismissed_by_id)
        select ${entity.name}, ${low}, ${high}, ${actor.userId} from found where cardinality(found.ids) = 2
        on conflict do nothing)
      select ids as found from found`,
  );
  const found = new Set(parseIds(row?.found ?? null));
  return [low, high].filter((id) => !found.has(id));
}

/** A Postgres bigint array as the driver answers it (an array, or its text `{1,2}`). */
function parseIds(value: (number | string)[] | string | null): number[] {
  if (value === null) return [];
  const items =
    typeof value === 'string'
      ? value
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter((v) => v !== '')
      : value;
  return items.map(Number);
}
