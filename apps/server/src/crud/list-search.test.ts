import { companies } from '@data-platform/shared/entities/companies';
import { notes } from '@data-platform/shared/entities/notes';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexPlan } from '../db/index-plan.ts';
import { type ApiClient, adminClient, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { listSql, type SearchPlan } from './list-compiler.ts';
import { FEW_MATCHES, searchPlan } from './list-count.ts';
import { decodeCursor, listRecords } from './records.ts';
import { SEARCH_SEPARATOR } from './sql-fragments.ts';

/**
 * `q` over HTTP: one match against all searchable fields together (one
 * trigram index), exact and prefix matches of the display name first,
 * literal text, and cursors through the ranked matches.
 */

let server: TestServer;
let api: ApiClient;

/** Names of companies matching `q`, in the order answered, within the companies this file made. */
async function search(query: Record<string, string | number>): Promise<string[]> {
  const answer = await api.list('/api/v1/companies', { select: 'name', 'filter[tags][contains]': 'search', ...query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((row) => row.name as string);
}

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  const company = (name: string, values: Record<string, unknown> = {}) =>
    make.company({ name, tags: ['search'], ...values });
  await company('Big Quokka');
  await company('Quokka Labs');
  await company('Plain', { legalName: 'Quokka Holdings plc' });
  await company('Other', { website: 'https://www.quokka-partners.example/about' });
  await company('quokka');
  await company('Nothing here', { legalName: 'None at all', description: 'quokka in a field not searched' });
  await company('50% Off_Sale');
  await company('500 Offset');
  await company('Back\\slash');
  await company(`O'Brien "Quoted"`);
  // Ten that all match `wombat`, at every rank, to page through.
  for (const name of ['Wombat', 'Wombat Two', 'wombat three', 'A Wombat', 'B wombat', 'Zed']) {
    await company(name, name === 'Zed' ? { legalName: 'Wombat Zed Ltd' } : {});
  }
  for (const name of ['C Wombat', 'D Wombat', 'Wombatery', 'E wombats']) await company(name);
});

afterAll(async () => server?.close());

describe('search', () => {
  it('finds matches in each searchable field: name, legal name and domain', async () => {
    expect(new Set(await search({ q: 'quokka' }))).toEqual(
      new Set(['quokka', 'Quokka Labs', 'Big Quokka', 'Plain', 'Other']),
    );
    expect(await search({ q: 'holdings plc' })).toEqual(['Plain']);
    expect(await search({ q: 'quokka-partners.example' })).toEqual(['Other']);
    // The description is not searchable; the website is searched through its domain only.
    expect(await search({ q: 'not searched' })).toEqual([]);
    expect(await search({ q: '/about' })).toEqual([]);
  });

  it('ranks the exact name first, then names starting with it, then the rest by name', async () => {
    expect(await search({ q: 'QUOKKA' })).toEqual(['quokka', 'Quokka Labs', 'Big Quokka', 'Other', 'Plain']);
  });

  it('never matches across two fields', async () => {
    // The name ends in "Plain", the legal name starts with "Quokka".
    expect(await search({ q: 'plainquokka' })).toEqual([]);
    expect(await search({ q: 'plain quokka' })).toEqual([]);
    expect(await search({ q: `plain${SEARCH_SEPARATOR}quokka` })).toEqual([]);
    expect(await search({ q: `${SEARCH_SEPARATOR}` })).toEqual([]);
  });

  it('takes % _ \\ and quotes literally', async () => {
    expect(await search({ q: '%' })).toEqual(['50% Off_Sale']);
    expect(await search({ q: '0% o' })).toEqual(['50% Off_Sale']);
    expect(await search({ q: '_' })).toEqual(['50% Off_Sale']);
    expect(await search({ q: 'off_' })).toEqual(['50% Off_Sale']);
    expect(await search({ q: '\\' })).toEqual(['Back\\slash']);
    expect(await search({ q: 'k\\s' })).toEqual(['Back\\slash']);
    expect(await search({ q: `o'brien` })).toEqual([`O'Brien "Quoted"`]);
    expect(await search({ q: '"quoted"' })).toEqual([`O'Brien "Quoted"`]);
  });

  it('keeps the requested order when a sort is given', async () => {
    expect(await search({ q: 'quokka', sort: '-name' })).toEqual([
      'quokka',
      'Quokka Labs',
      'Plain',
      'Other',
      'Big Quokka',
    ]);
    expect(await search({ q: 'quokka', sort: 'name' })).toEqual([
      'Big Quokka',
      'Other',
      'Plain',
      'Quokka Labs',
      'quokka',
    ]);
  });

  it('pages through ranked matches with cursors, each match once, in the order of one page', async () => {
    const all = await search({ q: 'wombat', pageSize: 100 });
    expect(all).toEqual([
      'Wombat',
      'Wombat Two',
      'Wombatery',
      'wombat three',
      'A Wombat',
      'B wombat',
      'C Wombat',
      'D Wombat',
      'E wombats',
      'Zed',
    ]);
    for (const pageSize of [1, 3, 4]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const answer = await api.list('/api/v1/companies', {
          q: 'wombat',
          select: 'name',
          'filter[tags][contains]': 'search',
          pageSize,
          cursor,
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        seen.push(...answer.body.data.map((row: Row) => row.name as string));
        cursor = answer.body.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(all);
    }
    // Offset pages walk the same order.
    const pages = [1, 2, 3, 4].map((page) => search({ q: 'wombat', pageSize: 3, page }));
    expect((await Promise.all(pages)).flat()).toEqual(all);
  });

  it('a cursor from a sorted search continues that sort', async () => {
    const first = await api.list('/api/v1/companies', {
      q: 'wombat',
      sort: '-name',
      select: 'name',
      'filter[tags][contains]': 'search',
      pageSize: 4,
    });
    const rest = await api.list('/api/v1/companies', {
      q: 'wombat',
      sort: '-name',
      select: 'name',
      'filter[tags][contains]': 'search',
      pageSize: 100,
      cursor: first.body.nextCursor ?? undefined,
    });
    const names = [...first.body.data, ...rest.body.data].map((row) => row.name as string);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(names).toHaveLength(10);
  });
});

describe('the search index', () => {
  it('is a trigram index over the name, and one over the other searchable fields together', () => {
    const search = indexPlan(companies).filter((index) => index.kind === 'search');
    expect(search).toEqual([
      { kind: 'search', name: 'companies_name_trgm_idx', fields: ['name'] },
      {
        kind: 'search',
        name: 'companies_legal_name_domain_city_trgm_idx',
        fields: ['legalName', 'domain', 'city'],
      },
    ]);
  });

  it('has a prefix index over the lowercase display name where the display is searched short text', () => {
    expect(indexPlan(companies).filter((index) => index.kind === 'prefix')).toEqual([
      { kind: 'prefix', name: 'companies_name_prefix_idx', fields: ['name'] },
    ]);
    // A note's body is long text: a btree entry could not hold it.
    expect(indexPlan(notes).some((index) => index.kind === 'prefix')).toBe(false);
  });

  it('a ranked search finds the names starting with q through the prefix index, not through every match', async () => {
    const query = parseListQueryString(companies, { q: 'wombat' });
    const { database } = server;
    const plan = await database.db.transaction(async (tx) => {
      // On a table this small scans are cheaper; turned off, the prefix set must still be a range of the index.
      await database.rows(sql`set local enable_seqscan = off`, tx);
      await database.rows(sql`set local enable_bitmapscan = off`, tx);
      return database.rows<{ 'QUERY PLAN': string }>(sql`explain ${listSql(companies, query)}`, tx);
    });
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('companies_name_prefix_idx');
  });

  it('are the ones the search of a list reads', async () => {
    const query = parseListQueryString(companies, { q: 'wombat' });
    const { database } = server;
    const plan = await database.db.transaction(async (tx) => {
      // On a table this small a sequential scan is cheaper; turned off, the index must still fit the WHERE.
      await database.rows(sql`set local enable_seqscan = off`, tx);
      return database.rows<{ 'QUERY PLAN': string }>(sql`explain ${listSql(companies, query)}`, tx);
    });
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('companies_name_trgm_idx');
    expect(text).toContain('companies_legal_name_domain_city_trgm_idx');
  });
});

describe('the two ways a ranked search reads its page (decision 0043)', () => {
  it('give the same pages, by cursor and by offset', async () => {
    const { database } = server;
    const read = (query: ReturnType<typeof parseListQueryString>, plan: SearchPlan) =>
      database.rows<{ row: string }>(listSql(companies, query, decodeCursor(companies, query), undefined, plan));
    for (const q of ['wombat', 'quokka', 'o']) {
      for (const pageSize of [1, 3, 4]) {
        const base = { q, select: 'name', 'filter[tags][contains]': 'search', pageSize: String(pageSize) };
        let cursor: string | null = null;
        let pages = 0;
        do {
          const query = parseListQueryString(companies, cursor ? { ...base, cursor } : base);
          const [walked, matched] = await Promise.all([read(query, 'walk'), read(query, 'fewMatches')]);
          expect(
            matched.map((r) => r.row),
            `${q}, ${pageSize} a page, page ${pages + 1}`,
          ).toEqual(walked.map((r) => r.row));
          cursor = (await listRecords(database, companies, query)).nextCursor;
          pages += 1;
        } while (cursor);
        expect(pages).toBeGreaterThan(1);
        for (const page of [1, 2, 3]) {
          const query = parseListQueryString(companies, { ...base, page: String(page) });
          const [walked, matched] = await Promise.all([read(query, 'walk'), read(query, 'fewMatches')]);
          expect(matched.map((r) => r.row)).toEqual(walked.map((r) => r.row));
        }
      }
    }
  });

  it('is chosen by the planner: every match when it expects few, the bounded walk when it expects many', async () => {
    const { database } = server;
    await database.rows(
      sql`insert into companies (name, tags)
        select 'Frequent ' || g, '{plan}' from generate_series(1, ${FEW_MATCHES * 2}) g`,
    );
    await database.rows(sql`analyze companies`);
    const plan = (q: string) => searchPlan(database, companies, parseListQueryString(companies, { q }));
    expect(await plan('frequent')).toBe('walk');
    expect(await plan('wombat')).toBe('fewMatches');
    // Either way the answer is the ranked page.
    const frequent = await api.list('/api/v1/companies', { q: 'frequent 1', select: 'name', pageSize: 3 });
    expect(frequent.body.data.map((row: Row) => row.name)).toEqual(['Frequent 1', 'Frequent 10', 'Frequent 100']);
  });
});
