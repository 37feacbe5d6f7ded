/**
 * The HTTP floor: the least a Node.js HTTP server can do around a scenario's
 * main statement, to compare the API with (`npm run bench` starts it as a
 * child process, on PostgreSQL). Per request: Node's own `http` server, one
 * named statement on a pool of node-postgres connections, the row JSON the
 * statement built sent as it came. No routing, session, validation, access
 * decision or logging: what the API does beyond this is its own cost.
 *
 * Configured by the HTTP_FLOOR environment variable (JSON, `HttpFloorConfig`);
 * prints `listening <port>` once it takes requests.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { CONNECTION_OPTIONS } from '../src/db/connection-options.ts';

export interface HttpFloorStatement {
  text: string;
  params: unknown[];
  /** Parameters bound to one random id in [1, maxId] on each request. */
  slots: number[];
  maxId: number;
  /** One row (get by id) answers its row; otherwise `{"data":[rows]}`. */
  one: boolean;
}

export interface HttpFloorConfig {
  databaseUrl: string;
  /** Connections of the pool: the server's own pool size. */
  poolSize: number;
  /** Statements by request path (`/0`, `/1`…). */
  statements: Record<string, HttpFloorStatement>;
}

const config = JSON.parse(process.env.HTTP_FLOOR ?? '{}') as HttpFloorConfig;
const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.poolSize, options: CONNECTION_OPTIONS });
const named = new Map(
  Object.entries(config.statements).map(([path, s], i) => [path, { ...s, name: `http_floor_${i}` }]),
);

const server = createServer((request, response) => {
  const statement = named.get(request.url ?? '');
  if (!statement) {
    response.writeHead(404).end();
    return;
  }
  const values = [...statement.params];
  const id = 1 + Math.floor(Math.random() * statement.maxId);
  for (const slot of statement.slots) values[slot] = id;
  pool.query<{ row: string }>({ name: statement.name, text: statement.text, values }).then(
    (result) => {
      const body = statement.one
        ? (result.rows[0]?.row ?? 'null')
        : `{"data":[${result.rows.map((r) => r.row).join(',')}]}`;
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    },
    (error: Error) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(error.message);
    },
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
