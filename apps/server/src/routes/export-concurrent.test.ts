import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, unique } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * An export read while rows are inserted and deleted. Filtered on a text
 * (the city), it reads keyset pages with bound parameters on both databases
 * (PostgreSQL's one-snapshot `COPY` serves exports whose parameters are all
 * numbers: no text goes into a statement's text), as the client takes the
 * file, so rows written meanwhile land behind or ahead of where it has read:
 * every row present at the start and not deleted before the export reached
 * it is written exactly once; a row deleted ahead of it is not; one inserted
 * ahead is, one inserted behind is not.
 */

let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
});
afterAll(async () => server?.close());

const ROWS = 6000;
/**
 * Each row carries this much text, so that the file (about 24 MB) is much
 * larger than what the sockets between server and client can hold while the
 * client is not reading: the server must wait for the client, and is still
 * on the first pages when the writes come. (Measured on Linux loopback: with
 * 400 characters, a 2.4 MB file, the server had read it all before the
 * writes; with 1,000, 6 MB, it had not yet reached the last thousand rows.)
 */
const DESCRIPTION_CHARS = 4000;
/** Rows read before writing: a few, so that the writes land while the export is on its first pages. */
const READ_BEFORE_WRITING = 100;

interface Company {
  id: number;
  name: string;
  status: string | null;
}

/**
 * The documented order of `sort=-status,name` (not taken from the server):
 * status descending (by its place among the field's options, a picklist's
 * defined order) with empty ones first, then name, then id ascending.
 */
const statusOptions = ['Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'];

function compare(a: Company, b: Company): number {
  if (a.status !== b.status) {
    if (a.status === null) return -1;
    if (b.status === null) return 1;
    return statusOptions.indexOf(a.status) < statusOptions.indexOf(b.status) ? 1 : -1;
  }
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id - b.id;
}

/** Reads a streamed CSV export, calling `midway` once the first `after` data rows have arrived; the rows, parsed. */
async function readExport(path: string, after: number, midway: () => Promise<void>): Promise<string[][]> {
  const answer = await server.fetch(path);
  expect(answer.status).toBe(200);
  if (!answer.body) throw new Error('The export answered no body');
  const decoder = new TextDecoder();
  let text = '';
  let wrote = false;
  for await (const chunk of answer.body) {
    text += decoder.decode(chunk, { stream: true });
    // Row text has no line breaks or quotes here: a line is a row.
    if (!wrote && text.split('\n').length - 2 >= after) {
      wrote = true;
      await midway();
    }
  }
  text += decoder.decode();
  expect(wrote).toBe(true);
  return parse(text, { bom: true }) as string[][];
}

describe('an export while rows are inserted and deleted', () => {
  it('writes every row present at the start and not deleted ahead of it exactly once, in order', async () => {
    const city = unique('Exportton');
    const rows = await server.database.rows<Company>(sql`
      insert into companies (name, city, status, description)
      select 'Export ' || lpad(((g * 7919) % 1500)::text, 4, '0'), ${city},
        (array[null, 'Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'])[g % 6 + 1],
        repeat('x', ${DESCRIPTION_CHARS})
      from generate_series(1, ${ROWS}) g
      returning id::int as id, name, status`);
    expect(rows).toHaveLength(ROWS);
    const order = [...rows].sort(compare);
    /** How many times each id must be written. */
    const expected = new Map(rows.map((row) => [row.id, 1]));
    const inserted: Company[] = [];

    const csv = await readExport(
      `/api/v1/companies/export?select=name,status,description&sort=-status,name&filter[city][eq]=${encodeURIComponent(city)}`,
      READ_BEFORE_WRITING,
      async () => {
        // Deleted behind the export (already written) and far ahead of it (in its last thousand rows).
        const victims = [...order.slice(0, 20), ...order.slice(ROWS - 1000).filter((_, i) => i % 50 === 0)];
        for (const victim of victims) {
          const answer = await api.delete(`/api/v1/companies/${victim.id}`);
          expect(answer.status).toBe(204);
        }
        for (const victim of victims.slice(20)) expected.set(victim.id, 0);
        // Inserted behind (no status, the name first of all: the top of the file) and ahead (the last status, the last names).
        for (const [status, name, times] of [
          [null, 'Export 0000 again', 0],
          ['Active', 'Export 9999', 1],
        ] as const) {
          for (let i = 0; i < 10; i++) {
            const answer = await api.post('/api/v1/companies', { name, status, city, description: 'new' });
            expect(answer.status).toBe(201);
            inserted.push({ id: answer.body.id, name, status });
            expected.set(answer.body.id, times);
          }
        }
      },
    );

    expect(csv[0]).toEqual(['ID', 'Name', 'Status', 'Description']);
    const written = csv.slice(1).map(([id, name, status]) => ({ id: Number(id), name, status: status || null }));
    const times = new Map<number, number>();
    for (const row of written) times.set(row.id, (times.get(row.id) ?? 0) + 1);
    const wrong = [...expected].filter(([id, n]) => (times.get(id) ?? 0) !== n);
    expect(wrong.map(([id, n]) => ({ id, expected: n, written: times.get(id) ?? 0 }))).toEqual([]);
    expect([...times.keys()].filter((id) => !expected.has(id))).toEqual([]);
    const survivors = [...order, ...inserted].filter((row) => expected.get(row.id) === 1).sort(compare);
    expect(written.map((row) => row.id)).toEqual(survivors.map((row) => row.id));
    expect(written).toHaveLength(ROWS - 20 + 10);
  });
});
