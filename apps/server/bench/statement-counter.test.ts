import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StatementCounter, startStatementCounter } from './statement-counter.ts';

/**
 * The bench's statement counter reads PostgreSQL's frontend protocol as a
 * relay. Issue 12's "statements per request" is read off it, so what it
 * counts is checked here against a real server: a relay needs one, so this
 * file runs only with TEST_DATABASE_URL.
 */
const url = process.env.TEST_DATABASE_URL;
let counter: StatementCounter;
let client: pg.Client;

beforeAll(async () => {
  if (!url) return;
  counter = await startStatementCounter(url);
  client = new pg.Client({ connectionString: counter.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await counter?.close();
});

describe.skipIf(!url)('the statement counter', () => {
  it('counts statements, parses and round trips, and tells the empty round trips apart', async () => {
    counter.reset();
    await client.query('select 1');
    await client.query({ name: 'counted', text: 'select $1::int as n', values: [1] });
    await client.query({ name: 'counted', text: 'select $1::int as n', values: [2] });
    // The empty statement the server sends on its listening connection before a request (decision 0038).
    await client.query('');
    const counts = counter.counts();
    expect(counts.statements).toBe(3);
    expect(counts.parses).toBe(2);
    expect(counts.roundTrips).toBe(4);
    expect(counts.emptyRoundTrips).toBe(1);
    expect([...counts.texts.values()].reduce((a, b) => a + b, 0)).toBe(3);
  });
});
