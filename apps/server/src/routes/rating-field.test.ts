import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, errorOf, type Factories, factories, unique } from '../testing/factories.ts';
import { importFile } from '../testing/imports.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * The rating field type (one to five stars) end to end as a custom field,
 * over HTTP against a real database: defined by an administrator, written,
 * refused out of range, filtered and sorted as a number, exported and
 * imported back.
 */
let server: TestServer;
let admin: ApiClient;
let make: Factories;
/** The custom field's key (`cf<id>`), its name heads export columns. */
let key: string;
const NAME = 'Attractiveness';

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  make = factories(admin);
  const defined = await admin.post('/api/v1/custom-data', { entity: 'companies', name: NAME, type: 'rating' });
  expect(defined.status, JSON.stringify(defined.body)).toBe(201);
  key = String(defined.body.key);
});

afterAll(async () => server?.close());

interface Company {
  name: string;
  [key: string]: unknown;
}

async function companiesIn(city: string, query: string): Promise<Company[]> {
  const answer = await server.fetch(
    `/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&select=name,${key}&${query}`,
  );
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: Company[] }).data;
}

const names = (rows: Company[]) => rows.map((row) => row.name);

describe('a rating custom field', () => {
  it('is offered among the custom field types, as "Rating"', async () => {
    const answer = await server.fetch(`/api/v1/custom-data?filter[key][eq]=${key}&select=name,type`);
    expect(((await answer.json()) as { data: unknown[] }).data).toMatchObject([{ name: NAME, type: 'rating' }]);
  });

  it('takes whole numbers of stars from 1 to 5 and refuses the others', async () => {
    const city = unique('Starville');
    const made = await make.company({ name: 'Five', city, [key]: 5 });
    expect(made[key]).toBe(5);
    for (const [value, message] of [
      [6, 'At most 5 stars'],
      [0, 'At least 1 star'],
      [2.5, 'Expected a whole number of stars from 1 to 5'],
      ['3', 'Expected a rating from 1 to 5'],
    ] as const) {
      const answer = await admin.post('/api/v1/companies', { name: 'Wrong', city, [key]: value });
      expect(answer.status).toBe(400);
      expect(errorOf(answer).fields).toEqual({ [key]: message });
    }
    expect(names(await companiesIn(city, 'sort=name'))).toEqual(['Five']);
  });

  it('filters and sorts as a number', async () => {
    const city = unique('Rankton');
    for (const [name, stars] of [
      ['Alpha', 2],
      ['Bravo', 5],
      ['Charlie', 4],
      ['Delta', null],
      ['Echo', 4],
    ] as const) {
      await make.company({ name, city, ...(stars === null ? {} : { [key]: stars }) });
    }
    expect(names(await companiesIn(city, `filter[${key}][gte]=4&sort=name`))).toEqual(['Bravo', 'Charlie', 'Echo']);
    expect(names(await companiesIn(city, `filter[${key}][in]=2,5&sort=name`))).toEqual(['Alpha', 'Bravo']);
    expect(names(await companiesIn(city, `filter[${key}][isNull]=&sort=name`))).toEqual(['Delta']);
    expect(names(await companiesIn(city, `sort=-${key},name&filter[${key}][notNull]=`))).toEqual([
      'Bravo',
      'Charlie',
      'Echo',
      'Alpha',
    ]);
    const refused = await server.fetch(`/api/v1/companies?filter[${key}][gte]=four`);
    expect(refused.status).toBe(400);
  });

  it('walks a list sorted by it page by page', async () => {
    const city = unique('Pageford');
    for (const [name, stars] of [
      ['One', 1],
      ['Three', 3],
      ['Two', 2],
    ] as const) {
      await make.company({ name, city, [key]: stars });
    }
    const first = await server.fetch(
      `/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&select=name&sort=${key}&pageSize=2`,
    );
    const page = (await first.json()) as { data: Company[]; nextCursor: string };
    expect(first.status).toBe(200);
    expect(names(page.data)).toEqual(['One', 'Two']);
    const second = await server.fetch(
      `/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&select=name&sort=${key}&pageSize=2&cursor=${page.nextCursor}`,
    );
    const body = (await second.json()) as { data: Company[] };
    expect(second.status, JSON.stringify(body)).toBe(200);
    expect(names(body.data)).toEqual(['Three']);
  });

  it('exports the number of stars and imports it back, as a number or as stars', async () => {
    const city = unique('Exportown');
    await make.company({ name: 'Kept', city, [key]: 3 });
    const exported = await server.fetch(
      `/api/v1/companies/export?select=name,city,${key}&filter[city][eq]=${encodeURIComponent(city)}`,
    );
    expect(exported.status).toBe(200);
    const lines = (await exported.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines.slice(1).map((line) => line.split(',').slice(1).join(','))).toEqual([`Kept,${city},3`]);
    expect(lines[0]).toBe(`ID,Name,City,${NAME}`);

    const again = `${city} again`;
    const csv = [`Name,City,${NAME}`, `Kept,${again},3`, `Starred,${again},★★★★`, `Unrated,${again},`].join('\n');
    expect(await importFile(server, 'companies', 'ratings.csv', csv)).toMatchObject({
      status: 201,
      body: { created: 3 },
    });
    expect(await companiesIn(again, 'sort=name')).toEqual([
      { id: expect.any(Number), name: 'Kept', [key]: 3 },
      { id: expect.any(Number), name: 'Starred', [key]: 4 },
      { id: expect.any(Number), name: 'Unrated', [key]: null },
    ]);
  });

  it('refuses an import of a rating out of range, naming the row, and writes nothing', async () => {
    const city = unique('Overrated');
    const csv = [`Name,City,${NAME}`, `Fine,${city},2`, `Too many,${city},7`].join('\n');
    const answer = await importFile(server, 'companies', 'ratings.csv', csv);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.fields).toEqual({ [`3.${key}`]: 'At most 5 stars' });
    expect(await companiesIn(city, 'sort=name')).toEqual([]);
  });
});
