import { createHash } from 'node:crypto';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { parseGetQuery, parseListQueryString } from '@data-platform/shared/query/list-query';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { getSql, listSql, type SearchPlan } from '../src/crud/list-compiler.ts';
import { createRecordSql, updateRecordSql } from '../src/crud/records.ts';
import { plannedOnce, repeatsItsPlan } from '../src/crud/repeats-its-plan.ts';
import { pgArrayLiteral } from '../src/crud/sql-fragments.ts';
import type { Database } from '../src/db/client.ts';
import { CONNECTION_OPTIONS } from '../src/db/connection-options.ts';

/**
 * One statement of the SQL floor: the text and parameters the server's own
 * compiler makes for a scenario, and how the parameters change from one
 * execution to the next (another id, another name), as the API's requests do.
 */
export interface FloorStatement {
  text: string;
  params: unknown[];
  next(): unknown[];
  /** Writes: an execution that changes no row (a stale version) is a failure, as the API's 412 is. */
  mustChangeRow: boolean;
  /** Indexes of the parameters `next` binds anew each time (the HTTP floor binds a random id there). */
  slots: number[];
}

const dialect = new PgDialect();

/**
 * Text and parameters of a drizzle SQL object, as the server's driver sends
 * them. `varying` maps a parameter the statement was built with (a value that
 * occurs nowhere else in it) to the source of the value each execution binds
 * there, at every place the statement binds it (an update names its row twice).
 */
export function floorStatement(
  query: SQL,
  varying: [unknown, () => unknown][] = [],
  mustChangeRow = false,
): FloorStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  // A value is bound as itself, or (an insert's column, see columnarInsertSql) as the one item of an array.
  const asItem = (value: unknown) => pgArrayLiteral([value]);
  const slots = varying.map(([placeholder, value]) => {
    const itself = params.flatMap((param, index) => (param === placeholder ? [index] : []));
    const items = params.flatMap((param, index) => (param === asItem(placeholder) ? [index] : []));
    if (itself.length + items.length === 0) throw new Error(`The floor statement binds ${String(placeholder)} nowhere`);
    return { itself, items, value };
  });
  return {
    text,
    params,
    mustChangeRow,
    slots: slots.flatMap(({ itself, items }) => [...itself, ...items]),
    next() {
      const bound = [...params];
      for (const { itself, items, value } of slots) {
        const chosen = value();
        for (const index of itself) bound[index] = chosen;
        for (const index of items) bound[index] = asItem(chosen);
      }
      return bound;
    },
  };
}

/** The list parameters of a query string, as the route parses them. */
export function listQueryOf(entity: EntityDescription, queryString: string): ListQuery {
  return parseListQueryString(entity, Object.fromEntries(new URLSearchParams(queryString)));
}

/** The sort values a list cursor carries (its `v`), so that the floor's page starts where the API's does. */
export function cursorValues(cursor: string | undefined): unknown[] | undefined {
  if (!cursor) return undefined;
  return (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v: unknown[] }).v;
}

/**
 * The page statement of `GET /{resource}?<queryString>`: the scenario's main
 * statement, a ranked search read as the API reads it (`search`, from
 * `searchPlan` on the same database), on `kind` of database.
 */
export function listFloor(
  entity: EntityDescription,
  queryString: string,
  search: SearchPlan | undefined,
  kind: Database['kind'],
): FloorStatement {
  const query = listQueryOf(entity, queryString);
  // Values bound as the API binds them: out of the planner's sight where it names the statement (decisions 0054, 0055).
  const unseen = plannedOnce(query, repeatsItsPlan(entity, query, undefined, search), kind);
  return floorStatement(listSql(entity, query, cursorValues(query.cursor), undefined, search, { unseen }));
}

/** Values that appear in no statement the bench builds, to find where a varying value is bound. */
const PLACEHOLDER_ID = -7_654_321;
/** A number field's value in a write the floor binds anew each time. */
export const PLACEHOLDER_NUMBER = -7_654_322;
/** A text field's value in a write the floor binds anew each time. */
export const PLACEHOLDER_TEXT = 'bench floor placeholder';

/** `GET /{resource}/{id}` with a new id each time. */
export function getFloor(entity: EntityDescription, id: () => number): FloorStatement {
  return floorStatement(getSql(entity, PLACEHOLDER_ID, parseGetQuery(entity, {})), [[PLACEHOLDER_ID, id]]);
}

/** Where the bench's writes come from, as the API records it in their audit events. */
const benchOrigin = { ip: '127.0.0.1' };

/**
 * The statement `POST /{resource}` runs (crud/records.ts `createRecordSql`):
 * the insert returning the row as JSON text, with its audit event. `values` as
 * the route validated them, with a text field set to `PLACEHOLDER_TEXT` given
 * a new value each time by `name`.
 */
export function createFloor(
  entity: EntityDescription,
  values: Record<string, unknown>,
  userId: number,
  name: () => string,
): FloorStatement {
  return floorStatement(createRecordSql(entity, values, { userId }, benchOrigin), [[PLACEHOLDER_TEXT, name]], true);
}

/**
 * The statement `PATCH /{resource}/{id}` with `If-Match: <version>` runs
 * (crud/records.ts `updateRecordSql`): the version checked in the statement
 * itself, with its audit event. `values` holds one field set to
 * `PLACEHOLDER_NUMBER`, bound to `value()` each time, and the row to `id()`.
 */
export function updateFloor(
  entity: EntityDescription,
  values: Record<string, unknown>,
  version: number,
  userId: number,
  id: () => number,
  value: () => number,
): FloorStatement {
  const query = updateRecordSql(entity, PLACEHOLDER_ID, version, values, { userId }, { origin: benchOrigin });
  if (!query) throw new Error('The update floor sets no field');
  return floorStatement(
    query,
    [
      [PLACEHOLDER_ID, id],
      [String(PLACEHOLDER_NUMBER), () => String(value())],
    ],
    true,
  );
}

/** What one floor run measured. */
export interface FloorRun {
  transactions: number;
  seconds: number;
  /** Milliseconds per execution, sorted. */
  latencies: number[];
  failures: number;
}

/** Runs statements over `connections` connections for a time: the database's own speed for them. */
export interface FloorRunner {
  run(statement: FloorStatement, connections: number, seconds: number): Promise<FloorRun>;
  close(): Promise<void>;
}

/** The rows a statement answered with a row: a write that changed nothing answers none, or a marker row whose `row` is null. */
const written = (rows: { row?: unknown }[]): number => rows.filter((r) => r.row !== null && r.row !== undefined).length;

type Execute = (connection: number, statement: FloorStatement, name: string) => Promise<number>;

/** Each connection runs the statement again as soon as it has the answer, until the time is up. */
async function loop(execute: Execute, statement: FloorStatement, connections: number, seconds: number) {
  const name = `floor_${createHash('sha1').update(statement.text).digest('hex').slice(0, 16)}`;
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, connection) => {
      while (performance.now() < end) {
        const sent = performance.now();
        try {
          const changed = await execute(connection, statement, name);
          if (statement.mustChangeRow && changed === 0) failures++;
        } catch {
          failures++;
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { transactions: latencies.length, seconds: (performance.now() - started) / 1000, latencies, failures };
}

/**
 * node-postgres connections of their own, one per concurrent loop, each
 * running the statement as a named (prepared) statement: parsed and planned
 * once per connection, as a server keeping its statements prepared would.
 */
export function postgresFloor(url: string): FloorRunner {
  const clients: pg.Client[] = [];
  const connect = async (count: number) => {
    while (clients.length < count) {
      // As the server's connections are set (no JIT), so that the floor runs the statement as the API does.
      const client = new pg.Client({ connectionString: url, options: CONNECTION_OPTIONS });
      await client.connect();
      clients.push(client);
    }
  };
  return {
    async run(statement, connections, seconds) {
      await connect(connections);
      return loop(
        async (connection, s, name) => {
          const client = clients[connection] as pg.Client;
          const result = await client.query<{ row?: unknown }>({ name, text: s.text, values: s.next() });
          return written(result.rows);
        },
        statement,
        connections,
        seconds,
      );
    },
    async close() {
      await Promise.all(clients.map((c) => c.end()));
    },
  };
}

/**
 * The statements run on PGlite in this process (the server stopped: PGlite
 * opens in one process at a time). PGlite answers one statement at a time, so
 * the loops queue on it as the server's requests do.
 */
export function pgliteFloor(database: Database): FloorRunner {
  const client = (database.db as unknown as { $client: PGlite }).$client;
  return {
    run(statement, connections, seconds) {
      return loop(
        async (_connection, s) => written((await client.query<{ row?: unknown }>(s.text, s.next())).rows),
        statement,
        connections,
        seconds,
      );
    },
    close: () => database.close(),
  };
}
