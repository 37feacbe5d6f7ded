import { findEntity } from '@data-platform/shared/entities/registry';
import { type SearchGroup, type SearchResult, searchTypes } from '@data-platform/shared/search';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnName } from '../db/columns.ts';
import { signInWithPermissions, uniqueEmail, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, errorOf, type Factories, factories } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * `GET /api/v1/search`: every record type the reader may read, in one
 * answer grouped by type, best first, with the rights of the reader's lists.
 */
let server: TestServer;
let admin: ApiClient;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  make = factories(admin);
});
afterAll(async () => server?.close());

/** A word no other test's records hold, so that each test reads only its own records. */
function word(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 8).replace(/\d/g, 'q')}`;
}

async function search(client: ApiClient, query: Record<string, string | number>): Promise<SearchGroup[]> {
  const answer = await client.get<SearchResult>('/api/v1/search', query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.groups;
}

const names = (groups: SearchGroup[], type: string) =>
  groups.find((group) => group.type === type)?.hits.map((hit) => hit.name) ?? [];

describe('GET /api/v1/search', () => {
  it('finds records of every type, grouped in sidebar order: the exact name, names starting with it, then other matches', async () => {
    const term = word('Zanth');
    await make.company({ name: `Bureau ${term}`, legalName: `${term} Holdings Ltd` });
    await make.company({ name: `${term} Robotics` });
    await make.company({ name: term });
    await make.fund({ name: `${term} Fund I` });
    await make.deal({ name: `${term} Series A` });
    await make.contact({ firstName: 'Ada', lastName: 'Byron', email: `ada@${term.toLowerCase()}.example` });

    const groups = await search(admin, { q: term.toLowerCase() });
    expect(groups.map((group) => group.type)).toEqual(['companies', 'funds', 'contacts', 'deals']);
    const companies = groups[0]?.hits ?? [];
    expect(companies.map((hit) => [hit.name, hit.match, hit.matched])).toEqual([
      [term, 'exact', null],
      [`${term} Robotics`, 'prefix', null],
      [`Bureau ${term}`, 'contains', null],
    ]);
    // A match on another field than the name says which value matched.
    expect(groups[2]?.hits).toEqual([
      expect.objectContaining({ name: 'Ada Byron', matched: `ada@${term.toLowerCase()}.example`, match: 'contains' }),
    ]);
  });

  it('finds companies and contacts by their city, and says the city matched', async () => {
    const city = word('Vill');
    const company = await make.company({ name: word('Plain'), city });
    const contact = await make.contact({ firstName: 'Jo', lastName: word('Lee'), city: `${city} Nord` });
    const groups = await search(admin, { q: city, types: 'companies,contacts' });
    expect(groups.find((g) => g.type === 'companies')?.hits).toEqual([
      { id: company.id, name: company.name, matched: city, match: 'contains' },
    ]);
    expect(groups.find((g) => g.type === 'contacts')?.hits).toEqual([
      expect.objectContaining({ id: contact.id, matched: `${city} Nord`, match: 'contains' }),
    ]);
  });

  it('finds a name spelled with a typo', async () => {
    const company = await make.company({ name: 'Sequoia Heritage Systems' });
    const groups = await search(admin, { q: 'sequioa heritage', types: 'companies' });
    const hit = groups[0]?.hits.find((h) => h.id === company.id);
    expect(hit).toMatchObject({ name: 'Sequoia Heritage Systems', match: 'similar' });
  });

  it('finds a name by a typo as soon as it is written, and by its new words once renamed', async () => {
    const first = word('Quill').toLowerCase();
    const company = await make.company({ name: `${first} Dynamics` });
    // The third letter dropped, from the word's fixed start: the name's words were added by its insert. Not from its
    // random end, which can repeat a letter: "marrowqqqqqq" less one q is its prefix, found as one, not as alike.
    const dropped = (text: string) => text.slice(0, 2) + text.slice(3);
    const before = await search(admin, { q: dropped(first), types: 'companies' });
    expect(before[0]?.hits.find((h) => h.id === company.id)).toMatchObject({ match: 'similar' });

    const second = word('Marrow').toLowerCase();
    expect((await admin.patch(`/api/v1/companies/${company.id}`, { name: `${second} Dynamics` }, 1)).status).toBe(200);
    const after = await search(admin, { q: dropped(second), types: 'companies' });
    expect(after[0]?.hits.find((h) => h.id === company.id)).toMatchObject({
      name: `${second} Dynamics`,
      match: 'similar',
    });
  });

  it("takes no name as alike whose separate words share the typo's trigrams, when none of its words is alike", async () => {
    // "parnters" shares 7 of its 9 trigrams with "Parker Hunters" read as one text, but no word of it is alike
    // (parker 0.33, hunters 0.44, under 0.45): over the whole name's trigram index it came back as alike.
    const company = await make.company({ name: `Parker Hunters ${word('Pk')}` });
    const groups = await search(admin, { q: 'parnters', types: 'companies', limit: 20 });
    expect(groups.flatMap((group) => group.hits).some((hit) => hit.id === company.id)).toBe(false);
  });

  it('keeps the words of every searched name: each searched table adds them on insert and on update', async () => {
    const rows = await server.database.rows<{ table: string; trigger: string; args: string }>(
      sql`select c.relname as table, t.tgname as trigger, encode(t.tgargs, 'escape') as args
        from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname like '%search_words%'`,
    );
    const expected = searchTypes.flatMap((type) => {
      const entity = findEntity(type);
      if (!entity) throw new Error(`no entity ${type}`);
      return ['insert', 'update'].map((event) => ({
        table: entity.table,
        trigger: `${entity.table}_search_words_${event}`,
        args: `${columnName(entity.display)}\\000`,
      }));
    });
    const byTrigger = (a: { trigger: string }, b: { trigger: string }) => a.trigger.localeCompare(b.trigger);
    expect(rows.sort(byTrigger)).toEqual(expected.sort(byTrigger));
  });

  it('adds each new word of a statement once, and no stored word again, in a statement of a few rows and of 20,000', async () => {
    const stored = word('zqstored').toLowerCase();
    const fresh = word('zqfresh').toLowerCase();
    const bulk = word('zqbulk').toLowerCase();
    const counts = async (words: string[]) => {
      const rows = await server.database.rows<{ word: string; n: number | string }>(
        sql`select w as word, (select count(*) from search_words s where s.word = w) as n
          from unnest(${`{${words.join(',')}}`}::text[]) w`,
      );
      return Object.fromEntries(rows.map((row) => [row.word, Number(row.n)]));
    };
    await make.company({ name: `${stored} One` });
    // A few rows (each word looked up in the word index): the stored word stays once, the new one is added once.
    await server.database.rows(
      sql`insert into companies (name) values (${`${stored} ${fresh}`}), (${`${fresh} Two`}), (${`x ${fresh}`})`,
    );
    expect(await counts([stored, fresh])).toEqual({ [stored]: 1, [fresh]: 1 });
    // 20,000 rows in one statement (the stored words hashed once): the same rule.
    await server.database.rows(
      sql`insert into companies (name) select ${`${stored} ${fresh} ${bulk}`} from generate_series(1, 20000)`,
    );
    expect(await counts([stored, fresh, bulk])).toEqual({ [stored]: 1, [fresh]: 1, [bulk]: 1 });
    await server.database.rows(sql`delete from companies where name like ${`${stored} %`}`);
  });

  it('finds a record by a custom text field, and says which value matched', async () => {
    const field = await admin.post<{ key: string }>('/api/v1/custom-data', {
      entity: 'companies',
      name: 'Nickname',
      type: 'text',
    });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const nickname = word('Quib');
    const company = await make.company({ name: word('Plain'), [field.body.key]: `the ${nickname} one` });
    const groups = await search(admin, { q: nickname });
    expect(groups).toEqual([
      {
        type: 'companies',
        hits: [{ id: company.id, name: company.name, matched: `the ${nickname} one`, match: 'contains' }],
      },
    ]);
  });

  it('answers only the record types the reader may read: a Viewer without deals:read finds no deal', async () => {
    const term = word('Vexa');
    await make.company({ name: `${term} Labs` });
    await make.deal({ name: `${term} Seed` });
    const reader = await signInWithPermissions(server, ['companies:read']);
    const api = withToken(server.url, reader.token);
    expect((await search(api, { q: term })).map((group) => group.type)).toEqual(['companies']);
    expect(names(await search(api, { q: term, types: 'deals' }), 'deals')).toEqual([]);
    expect(names(await search(admin, { q: term }), 'deals')).toEqual([`${term} Seed`]);
  });

  it("keeps each type's row scope: a colleague who has not joined is found only by readers of user accounts", async () => {
    const email = uniqueEmail(word('invitee'));
    const roles = await admin.list<{ id: number; name: string }>('/api/v1/roles', { pageSize: 100 });
    const viewerRole = roles.body.data.find((role) => role.name === 'Viewer');
    const invited = await admin.post('/api/v1/users/invitations', { email, roleId: viewerRole?.id });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(names(await search(admin, { q: email, types: 'users' }), 'users')).toEqual([email]);
    const viewer = await signInWithPermissions(server, ['companies:read']);
    expect(await search(withToken(server.url, viewer.token), { q: email, types: 'users' })).toEqual([]);
    // Joined colleagues are found by name by everyone, as every list names them.
    const joined = await signInWithPermissions(server, ['companies:read']);
    const me = await admin.get<{ fullName: string }>(`/api/v1/users/${joined.userId}`);
    const found = await search(withToken(server.url, viewer.token), { q: me.body.fullName, types: 'users' });
    expect(found[0]?.hits[0]).toMatchObject({ id: joined.userId, name: me.body.fullName, match: 'exact' });
  });

  it('searches only the types asked, at most `limit` records each', async () => {
    const term = word('Lumo');
    for (let i = 0; i < 4; i++) await make.company({ name: `${term} ${i}` });
    await make.firm({ name: `${term} Partners` });
    const groups = await search(admin, { q: term, types: 'companies,firms', limit: 2 });
    expect(groups.map((group) => [group.type, group.hits.length])).toEqual([
      ['companies', 2],
      ['firms', 1],
    ]);
    expect(names(await search(admin, { q: term, types: 'firms' }), 'firms')).toEqual([`${term} Partners`]);
  });

  it('takes % and _ literally', async () => {
    const term = word('Pct');
    await make.company({ name: `${term} 100% Organic` });
    await make.company({ name: `${term} 1000 Organic` });
    const [group] = await search(admin, { q: `${term} 100%`, types: 'companies' });
    // "1000" holds no "100%": it can come only as a similar spelling, after the literal match.
    expect(group?.hits[0]).toMatchObject({ name: `${term} 100% Organic`, match: 'prefix' });
    expect(group?.hits.filter((hit) => hit.match !== 'similar')).toHaveLength(1);
  });

  it('refuses bad input with 400 and a message per field', async () => {
    const answer = await admin.get('/api/v1/search', { q: 'x'.repeat(101), types: 'companies,secrets', limit: 0 });
    expect(answer.status).toBe(400);
    const error = errorOf(answer);
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['limit', 'q', 'types']);
    expect(error.fields?.types).toContain('companies');
    const empty = await admin.get('/api/v1/search', { q: '   ' });
    expect(empty.status).toBe(400);
    expect(Object.keys(errorOf(empty).fields ?? {})).toEqual(['q']);
    expect((await admin.get('/api/v1/search', { q: 'a', limit: 21 })).status).toBe(400);
  });

  it('needs a signed-in user', async () => {
    const answer = await fetch(`${server.url}/api/v1/search?q=acme`);
    expect(answer.status).toBe(401);
  });
});
