import type { ImportPreview } from '@data-platform/shared/imports';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_SCAN_ROWS } from '../io/import-preview.ts';
import { adminClient, type Factories, factories, unique } from '../testing/factories.ts';
import { startImport, waitForImport } from '../testing/import-jobs.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Files as providers and spreadsheets write them (issues 14 and 15): a value
 * for every row of a field no column maps to (an index series' Index), read
 * as that field's cells are; dates and numbers in the forms Excel, Google
 * Sheets, Numbers, LibreOffice and index providers write, each column read
 * one way decided from all its values, the day/month order chosen when
 * every value could be read either way.
 */
let server: TestServer;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  make = factories(adminClient(server));
});
afterAll(async () => {
  await server?.close();
});

type Answer<T> = { status: number; body: T & { error?: { message: string; fields?: Record<string, string> } } };

async function upload(
  entity: string,
  name: string,
  bytes: Uint8Array | string,
  language?: string,
): Promise<Answer<ImportPreview>> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const answer = await server.fetch(`/api/v1/imports/uploads?entity=${entity}`, {
    method: 'POST',
    body: form,
    ...(language ? { headers: { 'accept-language': language } } : {}),
  });
  return { status: answer.status, body: (await answer.json()) as ImportPreview };
}

async function preview(body: Record<string, unknown>, language?: string): Promise<Answer<ImportPreview>> {
  const answer = await server.fetch('/api/v1/imports/preview', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(language ? { 'accept-language': language } : {}) },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as ImportPreview };
}

/**
 * An index-level upload of date and level columns imported into `indexName` by a caller speaking `language`
 * who chose no reading (unless `settings` do), waited for to its end.
 */
async function importedLevels(
  uploadId: number,
  indexName: string,
  language: string,
  settings: Record<string, unknown> = {},
) {
  const answer = await server.fetch('/api/v1/imports', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': language },
    body: JSON.stringify({
      entity: 'indexLevels',
      uploadId,
      mapping: [{ field: 'date' }, { field: 'level' }],
      fixed: { indexId: indexName },
      ...settings,
    }),
  });
  expect(answer.status).toBe(202);
  return waitForImport(server, ((await answer.json()) as { id: number }).id);
}

/** The same by a French-speaking caller. */
const importedInFrench = (uploadId: number, indexName: string) => importedLevels(uploadId, indexName, 'fr');

/** An index to load levels into. */
const newIndex = async (name = unique('MSCI World (demo)')) => ({
  name,
  id: (await make.create('benchmarkIndexes', { name, currency: 'USD' })).id,
});

async function levelsOf(indexId: number): Promise<{ date: string; level: number }[]> {
  const answer = await server.fetch(`/api/v1/indexLevels?filter[indexId][eq]=${indexId}&sort=date&pageSize=100`);
  const rows = ((await answer.json()) as { data: { date: string; level: number | string }[] }).data;
  return rows.map((row) => ({ date: row.date.slice(0, 10), level: Number(row.level) }));
}

/** A provider's total-return export as a spreadsheet saves it: no Index column, the level under the index's own name. */
const msciExport = [
  'Date,MSCI WORLD',
  '"Dec 31, 2004","3,421.567"',
  '"Jan 31, 2005","3,338.41"',
  '"Feb 28, 2005","3,460.002"',
].join('\r\n');
const dateAndLevel = [{ field: 'date' }, { field: 'level' }];

describe('a value for every row', () => {
  it('loads a provider export into index levels with the Index fixed, named like a cell would name it', async () => {
    const index = await newIndex();
    const uploaded = await upload('indexLevels', 'msci.csv', msciExport);
    expect(uploaded.status).toBe(201);
    // "Date" is the field's label; the level column is the index's name, which names no field.
    expect(uploaded.body.columns.map((c) => c.target)).toEqual([{ field: 'date' }, null]);
    // The Index, required, has no column: each row says so until it is given.
    expect(Object.keys(uploaded.body.rows[0]?.problems ?? {})).toContain('indexId');

    const settings = {
      entity: 'indexLevels',
      uploadId: uploaded.body.uploadId,
      mapping: dateAndLevel,
      fixed: { indexId: index.name.toUpperCase() },
    };
    const previewed = await preview(settings);
    expect(previewed.status).toBe(200);
    expect(previewed.body.rows).toEqual([
      {
        row: 2,
        values: { indexId: index.id, date: '2004-12-31', level: 3421.567 },
        names: { indexId: index.name },
        previous: {},
        previousNames: {},
        problems: {},
        action: null,
      },
      expect.objectContaining({ values: { indexId: index.id, date: '2005-01-31', level: 3338.41 }, problems: {} }),
      expect.objectContaining({ values: { indexId: index.id, date: '2005-02-28', level: 3460.002 }, problems: {} }),
    ]);
    expect(previewed.body.columns.map((c) => c.format)).toEqual([
      { dateOrder: null, dateOrderFrom: null, decimalMark: null, decimalMarkFrom: null },
      { dateOrder: null, dateOrderFrom: null, decimalMark: '.', decimalMarkFrom: 'values' },
    ]);
    expect(previewed.body.dateOrderNeeded).toBe(false);

    // The same value by the index's id, as the wizard's picker gives it.
    const started = await startImport(server, { ...settings, fixed: { indexId: String(index.id) } });
    expect(started.status).toBe(202);
    const job = await waitForImport(server, started.body.id);
    expect(job).toMatchObject({ status: 'succeeded', created: 3, problems: [] });
    expect(await levelsOf(index.id)).toEqual([
      { date: '2004-12-31', level: 3421.567 },
      { date: '2005-01-31', level: 3338.41 },
      { date: '2005-02-28', level: 3460.002 },
    ]);
  });

  it('makes a fixed reference that matches nothing a problem on every row, never an empty value', async () => {
    const uploaded = await upload('indexLevels', 'msci.csv', msciExport);
    const settings = {
      entity: 'indexLevels',
      uploadId: uploaded.body.uploadId,
      mapping: dateAndLevel,
      fixed: { indexId: 'No Such Index' },
    };
    const previewed = await preview(settings);
    expect(previewed.status).toBe(200);
    expect(previewed.body.rows.map((r) => r.problems)).toEqual([
      { indexId: 'No benchmark index named No Such Index' },
      { indexId: 'No benchmark index named No Such Index' },
      { indexId: 'No benchmark index named No Such Index' },
    ]);
    const started = await startImport(server, settings);
    const job = await waitForImport(server, started.body.id);
    expect(job).toMatchObject({ status: 'failed', created: 0, failed: 3, problemCount: 3 });
    expect(job.problems.map((p) => [p.row, p.field])).toEqual([
      [2, 'indexId'],
      [3, 'indexId'],
      [4, 'indexId'],
    ]);
  });

  it('reads a fixed picklist value by its option and a fixed part of a value (a currency), and names what is not an option', async () => {
    const name = unique('Fixed Co');
    const csv = `Name,Revenue\r\n${name} A,"$1,200.50"\r\n${name} B,"(1,200)"\r\n`;
    const uploaded = await upload('companies', 'fixed.csv', csv);
    const mapping = [{ field: 'name' }, { field: 'revenue', part: 'amount' }];
    const base = { entity: 'companies', uploadId: uploaded.body.uploadId, mapping };
    const good = await preview({ ...base, fixed: { stage: 'Seed', 'revenue.currency': 'usd' } });
    expect(good.status).toBe(200);
    expect(good.body.rows.map((r) => [r.values, r.problems])).toEqual([
      [{ name: `${name} A`, stage: 'Seed', revenue: { amount: 1200.5, currency: 'USD' } }, {}],
      [{ name: `${name} B`, stage: 'Seed', revenue: { amount: -1200, currency: 'USD' } }, {}],
    ]);
    const bad = await preview({ ...base, fixed: { stage: 'Not a stage' } });
    // Without its currency the revenue is incomplete too.
    expect(bad.body.rows.map((r) => Object.keys(r.problems).sort())).toEqual([
      ['revenue', 'stage'],
      ['revenue', 'stage'],
    ]);
    expect(bad.body.rows[0]?.problems.stage).toMatch(/^Expected one of: /);
  });

  it('refuses a fixed value for an unknown field, the record id, a field a column maps to, and a blank or long one', async () => {
    const uploaded = await upload('indexLevels', 'msci.csv', msciExport);
    const base = { entity: 'indexLevels', uploadId: uploaded.body.uploadId, mapping: dateAndLevel };
    const unknownField = await preview({ ...base, fixed: { nothing: 'x', id: '4' } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error?.fields).toEqual({
      'fixed.nothing': 'Index levels have no field nothing an import can write',
      'fixed.id': 'Every row cannot have the same record id',
    });
    const mapped = await preview({ ...base, fixed: { date: '2004-12-31' } });
    expect(mapped.body.error?.fields).toEqual({
      'fixed.date': 'Column 1 is mapped to Date; a value for every row is for a field no column maps to',
    });
    const blank = await preview({ ...base, fixed: { indexId: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error?.fields).toEqual({ 'fixed.indexId': 'Give a value, or leave the field out' });
    const long = await startImport(server, { ...base, fixed: { indexId: 'x'.repeat(1001) } });
    expect(long.status).toBe(400);
    expect(long.body.error?.fields).toEqual({ 'fixed.indexId': 'At most 1000 characters' });
  });
});

describe('the contract', () => {
  it('documents the fixed values and the date order in the OpenAPI document', async () => {
    type Schema = {
      properties?: Record<string, Schema>;
      additionalProperties?: Schema;
      maxLength?: number;
      enum?: string[];
      items?: Schema;
      anyOf?: Schema[];
    };
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
    };
    for (const path of ['/api/v1/imports/preview', '/api/v1/imports']) {
      const body = document.paths[path]?.post?.requestBody?.content['application/json']?.schema;
      expect(body?.properties?.fixed?.additionalProperties?.maxLength, path).toBe(1000);
      expect(body?.properties?.dateOrder?.enum, path).toEqual(['dmy', 'mdy']);
      // A column's own order and mark, on its target in the mapping.
      const target = body?.properties?.mapping?.items?.anyOf?.find((item) => item.properties);
      expect(target?.properties?.dateOrder?.enum, path).toEqual(['dmy', 'mdy']);
      expect(target?.properties?.decimalMark?.enum, path).toEqual(['.', ',']);
    }
  });
});

describe('dates as files write them', () => {
  /** The dates of an index-level file whose Date column holds these texts, previewed. */
  async function datesOf(texts: string[], settings: Record<string, unknown> = {}, language?: string) {
    const index = await newIndex();
    const csv = ['Date,Level', ...texts.map((text) => `"${text}",100`)].join('\n');
    const uploaded = await upload('indexLevels', 'dates.csv', csv, language);
    const previewed = await preview(
      {
        entity: 'indexLevels',
        uploadId: uploaded.body.uploadId,
        mapping: [{ field: 'date' }, { field: 'level' }],
        fixed: { indexId: index.name },
        ...settings,
      },
      language,
    );
    expect(previewed.status).toBe(200);
    return {
      index,
      uploadId: uploaded.body.uploadId,
      preview: previewed.body,
      dates: previewed.body.rows.map((r) => r.problems.date ?? r.values.date),
      format: previewed.body.columns[0]?.format,
    };
  }

  it('reads ISO dates, month names first or after the day, and spreadsheet dates in one column', async () => {
    const { dates, preview: previewed } = await datesOf([
      '2004-12-31',
      'Dec 31, 2004',
      'January 3, 2005',
      '31 Dec 2004',
      '31-Dec-2004',
      '31-Jan-05',
      '2005-02-01T00:00:00Z',
    ]);
    expect(dates).toEqual([
      '2004-12-31',
      '2004-12-31',
      '2005-01-03',
      '2004-12-31',
      '2004-12-31',
      '2005-01-31',
      '2005-02-01',
    ]);
    expect(previewed.dateOrderNeeded).toBe(false);
  });

  it('takes the day/month order of numeric dates from a value with a part over 12', async () => {
    const monthFirst = await datesOf(['12/31/2004', '01/02/2005']);
    expect(monthFirst.dates).toEqual(['2004-12-31', '2005-01-02']);
    expect(monthFirst.format).toMatchObject({ dateOrder: 'mdy', dateOrderFrom: 'values' });
    // Whatever the language suggests: the values tell.
    const dayFirst = await datesOf(['31/12/2004', '01/02/2005'], {}, 'en-US');
    expect(dayFirst.dates).toEqual(['2004-12-31', '2005-02-01']);
    expect(dayFirst.format).toMatchObject({ dateOrder: 'dmy', dateOrderFrom: 'values' });
    expect(dayFirst.preview.dateOrderNeeded).toBe(false);
  });

  it('says when every numeric date could be either way: the language suggests the order, the caller chooses it, the job keeps it', async () => {
    const french = await datesOf(['01/02/2005', '03/04/2005'], {}, 'fr-FR,fr;q=0.9,en;q=0.5');
    expect(french.preview).toMatchObject({ dateOrder: 'dmy', dateOrderNeeded: true });
    expect(french.format).toMatchObject({ dateOrder: 'dmy', dateOrderFrom: 'choice' });
    expect(french.dates).toEqual(['2005-02-01', '2005-04-03']);

    const english = await datesOf(['01/02/2005', '03/04/2005'], {}, 'en');
    expect(english.preview).toMatchObject({ dateOrder: 'mdy', dateOrderNeeded: true });
    expect(english.dates).toEqual(['2005-01-02', '2005-03-04']);

    const chosen = await datesOf(['01/02/2005', '03/04/2005'], { dateOrder: 'mdy' }, 'fr');
    expect(chosen.preview).toMatchObject({ dateOrder: 'mdy', dateOrderNeeded: true });
    expect(chosen.dates).toEqual(['2005-01-02', '2005-03-04']);

    // Started without an order by a French-speaking caller: the job reads as the preview suggested.
    expect(await importedInFrench(french.uploadId, french.index.name)).toMatchObject({
      status: 'succeeded',
      created: 2,
    });
    expect((await levelsOf(french.index.id)).map((l) => l.date)).toEqual(['2005-02-01', '2005-04-03']);

    // Chosen month first.
    const started = await startImport(server, {
      entity: 'indexLevels',
      uploadId: chosen.uploadId,
      mapping: [{ field: 'date' }, { field: 'level' }],
      fixed: { indexId: chosen.index.name },
      dateOrder: 'mdy',
    });
    expect((await waitForImport(server, started.body.id)).status).toBe('succeeded');
    expect((await levelsOf(chosen.index.id)).map((l) => l.date)).toEqual(['2005-01-02', '2005-03-04']);
  });

  it('flags every numeric date of a column that writes them both ways, and what names no day', async () => {
    const { dates, format } = await datesOf(['13/01/2005', '01/13/2005', 'Dec 31, 2004', '31/04/2005', 'soon']);
    expect(format).toMatchObject({ dateOrder: null, dateOrderFrom: 'mixed' });
    expect(dates.slice(0, 2)).toEqual([
      expect.stringMatching(/both day first \(31\/12\/2004\) and month first/),
      expect.stringMatching(/both day first/),
    ]);
    expect(dates[2]).toBe('2004-12-31');
    expect(dates[3]).toMatch(/both day first/);
    expect(dates[4]).toMatch(/^Expected a date such as 2004-12-31, Dec 31, 2004/);
  });
});

describe('numbers as files write them', () => {
  /** The levels of an index-level file whose Level column holds these texts, previewed. */
  async function levelsRead(texts: string[], chosen: Record<string, unknown> = {}, language?: string) {
    const index = await newIndex();
    const csv = ['Date;Level', ...texts.map((text, i) => `2005-01-${String(i + 1).padStart(2, '0')};"${text}"`)].join(
      '\n',
    );
    const uploaded = await upload('indexLevels', 'levels.csv', csv, language);
    const previewed = await preview(
      {
        entity: 'indexLevels',
        uploadId: uploaded.body.uploadId,
        mapping: [{ field: 'date' }, { field: 'level' }],
        fixed: { indexId: String(index.id) },
        ...chosen,
      },
      language,
    );
    expect(previewed.status).toBe(200);
    return {
      index,
      uploadId: uploaded.body.uploadId,
      preview: previewed.body,
      levels: previewed.body.rows.map((r) => r.problems.level ?? r.values.level),
      format: previewed.body.columns[1]?.format,
    };
  }

  it('says when every mark of a column could be either: the language suggests it, the caller chooses it, the job keeps it', async () => {
    const french = await levelsRead(['3,421', '1.234', '12'], {}, 'fr-FR,fr;q=0.9');
    expect(french.preview).toMatchObject({ decimalMark: ',', decimalMarkNeeded: true });
    expect(french.format).toMatchObject({ decimalMark: ',', decimalMarkFrom: 'choice' });
    expect(french.levels).toEqual([3.421, 1234, 12]);

    const english = await levelsRead(['3,421', '1.234'], {}, 'en');
    expect(english.preview).toMatchObject({ decimalMark: '.', decimalMarkNeeded: true });
    expect(english.levels).toEqual([3421, 1.234]);

    const chosen = await levelsRead(['3,421'], { decimalMark: '.' }, 'fr');
    expect(chosen.preview).toMatchObject({ decimalMark: '.', decimalMarkNeeded: true });
    expect(chosen.levels).toEqual([3421]);

    // A value that tells its mark decides the column: nothing to choose.
    const told = await levelsRead(['3,421', '1,5'], {}, 'en');
    expect(told.preview.decimalMarkNeeded).toBe(false);
    expect(told.levels).toEqual([3.421, 1.5]);

    // Started without a mark by a French-speaking caller: the job reads as the preview suggested.
    expect(await importedInFrench(french.uploadId, french.index.name)).toMatchObject({
      status: 'succeeded',
      created: 3,
    });
    expect((await levelsOf(french.index.id)).map((l) => l.level)).toEqual([3.421, 1234, 12]);
  });

  it('reads thousands commas and a decimal point', async () => {
    const { levels, format } = await levelsRead(['3,421.567', '3,421', '12']);
    expect(levels).toEqual([3421.567, 3421, 12]);
    expect(format).toMatchObject({ decimalMark: '.', decimalMarkFrom: 'values' });
  });

  it('reads spaces or points between thousands and a decimal comma, decided for the whole column', async () => {
    const spaced = await levelsRead(['3 421,567', '3\u00a0338,41', '3,421']);
    expect(spaced.levels).toEqual([3421.567, 3338.41, 3.421]);
    expect(spaced.format).toMatchObject({ decimalMark: ',', decimalMarkFrom: 'values' });
    const dotted = await levelsRead(['3.421,567', '1.234']);
    expect(dotted.levels).toEqual([3421.567, 1234]);
  });

  it('reads a column whose marks could be either with the mark chosen, and names what is not a number', async () => {
    const { levels, format } = await levelsRead(['1,234', 'n/a', '12 apples']);
    expect(format).toMatchObject({ decimalMark: '.', decimalMarkFrom: 'choice' });
    expect(levels[0]).toBe(1234);
    expect(levels[1]).toMatch(/Level must be/);
    expect(levels[2]).toMatch(/Level must be/);
  });
});

describe('a reading per column', () => {
  /** Funds whose two date columns and two number columns could each be read either way. */
  const fundsFile = (prefix: string) =>
    [
      'Name,Currency,First close,Final close,Target size,Hard cap',
      `${prefix} A,USD,01/02/2005,03/04/2006,"3,421","1.234"`,
      `${prefix} B,USD,05/06/2005,07/08/2006,"1,500","2.500"`,
    ].join('\r\n');
  const fundsMapping = (first: object = {}, target: object = {}) => [
    { field: 'name' },
    { field: 'currency' },
    { field: 'firstCloseDate', ...first },
    { field: 'finalCloseDate' },
    { field: 'targetSize', ...target },
    { field: 'hardCap' },
  ];
  type Fund = { name: string; firstCloseDate: string; finalCloseDate: string; targetSize: string; hardCap: string };
  async function fundsNamed(prefix: string): Promise<Fund[]> {
    const answer = await server.fetch(`/api/v1/funds?filter[name][contains]=${encodeURIComponent(prefix)}&sort=name`);
    return ((await answer.json()) as { data: Fund[] }).data;
  }

  it("reads a column with its own order and mark, the others with the import's, and the job keeps both", async () => {
    const prefix = unique('Per Column Fund');
    const uploaded = await upload('funds', 'funds.csv', fundsFile(prefix), 'en');
    const settings = {
      entity: 'funds',
      uploadId: uploaded.body.uploadId,
      mapping: fundsMapping({ dateOrder: 'dmy' }, { decimalMark: ',' }),
    };
    // Whatever the language suggests (en: month first, a point), the column's own choice is its.
    const previewed = await preview(settings, 'en');
    expect(previewed.status).toBe(200);
    expect(previewed.body).toMatchObject({
      dateOrder: 'mdy',
      dateOrderNeeded: true,
      decimalMark: '.',
      decimalMarkNeeded: true,
    });
    expect(previewed.body.columns.slice(2).map((c) => c.format)).toEqual([
      { dateOrder: 'dmy', dateOrderFrom: 'choice', decimalMark: null, decimalMarkFrom: null },
      { dateOrder: 'mdy', dateOrderFrom: 'choice', decimalMark: null, decimalMarkFrom: null },
      { dateOrder: null, dateOrderFrom: null, decimalMark: ',', decimalMarkFrom: 'choice' },
      { dateOrder: null, dateOrderFrom: null, decimalMark: '.', decimalMarkFrom: 'choice' },
    ]);
    // The mapping as sent, each column's own reading with it.
    expect(previewed.body.columns[2]?.target).toEqual({ field: 'firstCloseDate', dateOrder: 'dmy' });
    expect(
      previewed.body.rows.map(({ values: v }) => [v.firstCloseDate, v.finalCloseDate, v.targetSize, v.hardCap]),
    ).toEqual([
      ['2005-02-01', '2006-03-04', 3.421, 1.234],
      ['2005-06-05', '2006-07-08', 1.5, 2.5],
    ]);

    // The import's own order and mark changed: the columns with their own keep theirs.
    const turned = await preview({ ...settings, dateOrder: 'dmy', decimalMark: ',' }, 'en');
    expect(turned.body.rows[0]?.values).toMatchObject({
      firstCloseDate: '2005-02-01',
      finalCloseDate: '2006-04-03',
      targetSize: 3.421,
      hardCap: 1234,
    });
    const otherWay = await preview({ ...settings, mapping: fundsMapping({ dateOrder: 'mdy' }) }, 'fr');
    expect(otherWay.body.rows[0]?.values).toMatchObject({ firstCloseDate: '2005-01-02', finalCloseDate: '2006-04-03' });

    // A job started without the import's order and mark keeps the language's, and each column's own.
    const started = await startImport(server, settings);
    expect(started.status).toBe(202);
    expect(await waitForImport(server, started.body.id)).toMatchObject({ status: 'succeeded', created: 2 });
    const stored = await fundsNamed(prefix);
    expect(stored.map((f) => [f.firstCloseDate.slice(0, 10), f.finalCloseDate.slice(0, 10)])).toEqual([
      ['2005-02-01', '2006-03-04'],
      ['2005-06-05', '2006-07-08'],
    ]);
    expect(stored.map((f) => [Number(f.targetSize), Number(f.hardCap)])).toEqual([
      [3.421, 1.234],
      [1.5, 2.5],
    ]);

    // The next file with the same headings is mapped as this one was, but its values are its own to read.
    const again = await upload('funds', 'funds.csv', fundsFile(unique('Next Fund')), 'en');
    expect(again.body.columns.map((c) => [c.target, c.suggestedBy])).toEqual(
      fundsMapping().map((target) => [target, 'remembered']),
    );
    expect(again.body.columns[2]?.format).toMatchObject({ dateOrder: 'mdy', dateOrderFrom: 'choice' });
  });

  it("keeps what a column's values say over its own choice", async () => {
    const { format, dates } = await datesOfColumn(['13/01/2005', '01/02/2005'], { dateOrder: 'mdy' });
    expect(format).toMatchObject({ dateOrder: 'dmy', dateOrderFrom: 'values' });
    expect(dates).toEqual(['2005-01-13', '2005-02-01']);
  });

  it('refuses an order for a column of no dates and a mark for a column of no numbers, and an unknown one', async () => {
    const uploaded = await upload('funds', 'funds.csv', fundsFile(unique('Refused Fund')));
    const base = { entity: 'funds', uploadId: uploaded.body.uploadId };
    const mapping = [
      { field: 'name', dateOrder: 'dmy' },
      ...fundsMapping({ decimalMark: ',' }, { dateOrder: 'dmy' }).slice(1),
    ];
    const refused = await preview({ ...base, mapping });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.fields).toEqual({
      'mapping.0.dateOrder': 'Name holds no dates',
      'mapping.2.decimalMark': 'First close date holds no numbers',
      'mapping.4.dateOrder': 'Target size holds no dates',
    });
    expect((await startImport(server, { ...base, mapping })).status).toBe(400);
    const unknown = await preview({ ...base, mapping: fundsMapping({ dateOrder: 'ymd' }) });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.error?.fields ?? {})).toEqual(['mapping.2.dateOrder']);
  });
});

/** The Date column of an index-level file of these texts, previewed with the column's own readings. */
async function datesOfColumn(texts: string[], own: Record<string, unknown>) {
  const index = await newIndex();
  const csv = ['Date,Level', ...texts.map((text) => `"${text}",100`)].join('\n');
  const uploaded = await upload('indexLevels', 'dates.csv', csv);
  const previewed = await preview({
    entity: 'indexLevels',
    uploadId: uploaded.body.uploadId,
    mapping: [{ field: 'date', ...own }, { field: 'level' }],
    fixed: { indexId: index.name },
  });
  expect(previewed.status).toBe(200);
  return {
    dates: previewed.body.rows.map((r) => r.problems.date ?? r.values.date),
    format: previewed.body.columns[0]?.format,
  };
}

describe('workbooks', () => {
  it('keeps date and number cells as they are and reads text cells as CSV cells are', async () => {
    const index = await newIndex();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Levels');
    sheet.addRow(['Date', 'Level']);
    sheet.addRow([new Date(Date.UTC(2004, 11, 31)), 3421.567]);
    sheet.addRow(['Jan 31, 2005', '3.338,41']);
    sheet.addRow(['28/02/2005', 3460]);
    sheet.getColumn(1).numFmt = 'dd/mm/yyyy';
    const uploaded = await upload('indexLevels', 'levels.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(uploaded.status).toBe(201);
    const previewed = await preview({
      entity: 'indexLevels',
      uploadId: uploaded.body.uploadId,
      mapping: [{ field: 'date' }, { field: 'level' }],
      fixed: { indexId: index.name },
    });
    expect(previewed.body.rows.map((r) => [r.values.date, r.values.level, r.problems])).toEqual([
      ['2004-12-31', 3421.567, {}],
      ['2005-01-31', 3338.41, {}],
      ['2005-02-28', 3460, {}],
    ]);
  });
});

describe('the one-request import', () => {
  it('reads dates and numbers the same way, a column at a time', async () => {
    const index = await newIndex();
    const csv = `Index,Date,Level\r\n${index.name},31/12/2004,"3 421,567"\r\n${index.name},01/02/2005,"3 338,41"\r\n`;
    const form = new FormData();
    form.append('file', new Blob([csv]), 'levels.csv');
    const answer = await server.fetch('/api/v1/indexLevels/import', { method: 'POST', body: form });
    const body = (await answer.json()) as { created: number; error?: unknown };
    expect(answer.status, JSON.stringify(body)).toBe(201);
    expect(body.created).toBe(2);
    expect(await levelsOf(index.id)).toEqual([
      { date: '2004-12-31', level: 3421.567 },
      { date: '2005-02-01', level: 3338.41 },
    ]);
  });
});

describe('a preview that read the whole file', () => {
  /** A Level column whose marks could be either (`1.234`): its format is the choice, a point in English. */
  const levelsCsv = (levels: string[]) =>
    ['Date;Level', ...levels.map((level, i) => `2006-01-${String(i + 1).padStart(2, '0')};"${level}"`)].join('\n');
  const none = { dayFirst: 0, monthFirst: 0, eitherWay: 0, point: 0, comma: 0, eitherMark: 0 };

  const scanOf = async (uploadId: number) =>
    (await server.database.rows<{ scan: unknown }>(sql`select scan from imports where id = ${uploadId}`))[0]?.scan;

  /** Makes the kept scan say that the Level column's numbers write a decimal comma, as no value of the file does. */
  const keptScanSaysComma = (uploadId: number) =>
    server.database.rows(
      sql`update imports set scan = jsonb_set(scan, '{columns,1,number}', ${JSON.stringify({ ...none, comma: 1 })}::jsonb)
        where id = ${uploadId}`,
    );

  it('keeps what it found of each column with the upload; the job decides from it, not reading the file first', async () => {
    const index = await newIndex();
    const uploaded = await upload('indexLevels', 'levels.csv', levelsCsv(['1.234', '12']), 'en');
    expect(uploaded.status).toBe(201);
    const { uploadId } = uploaded.body;
    expect(await scanOf(uploadId)).toEqual({
      sheet: null,
      headerRow: null,
      rows: 2,
      columns: { 0: { date: none }, 1: { number: { ...none, eitherMark: 1 } } },
    });
    // What reading the file decides: a point, the English choice.
    const previewed = await preview({
      entity: 'indexLevels',
      uploadId,
      mapping: [{ field: 'date' }, { field: 'level' }],
      fixed: { indexId: index.name },
    });
    expect(previewed.body.rows.map((row) => row.values.level)).toEqual([1.234, 12]);
    // The job follows the kept scan: told a comma, it reads 1.234 as a thousand and more.
    await keptScanSaysComma(uploadId);
    expect(await importedLevels(uploadId, index.name, 'en')).toMatchObject({
      status: 'succeeded',
      created: 2,
      rowsTotal: 2,
    });
    expect((await levelsOf(index.id)).map((level) => level.level)).toEqual([1234, 12]);
  });

  it('is not what a job started with another heading row decides from: the job reads the file', async () => {
    const index = await newIndex();
    const { uploadId } = (await upload('indexLevels', 'levels.csv', levelsCsv(['1.234', '12']), 'en')).body;
    await keptScanSaysComma(uploadId);
    expect(await importedLevels(uploadId, index.name, 'en', { headerRow: 1 })).toMatchObject({ status: 'succeeded' });
    expect((await levelsOf(index.id)).map((level) => level.level)).toEqual([1.234, 12]);
  });

  it(`is not kept for a file longer than the ${PREVIEW_SCAN_ROWS} rows a preview reads: the job decides over every row`, async () => {
    const index = await newIndex();
    const first = Date.UTC(1950, 0, 1);
    const day = (i: number) => new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    // Every level could be read either way but the last, past what the preview reads, which writes a comma.
    const lines = ['Date;Level'];
    for (let i = 0; i < PREVIEW_SCAN_ROWS; i++) lines.push(`${day(i)};"1.234"`);
    lines.push(`${day(PREVIEW_SCAN_ROWS)};"2,5"`);
    const uploaded = await upload('indexLevels', 'levels.csv', lines.join('\n'), 'en');
    expect(uploaded.status).toBe(201);
    expect(await scanOf(uploaded.body.uploadId)).toBeNull();
    const job = await importedLevels(uploaded.body.uploadId, index.name, 'en', { mode: 'allOrNothing' });
    expect(job).toMatchObject({ status: 'succeeded', created: PREVIEW_SCAN_ROWS + 1 });
    const last = await server.fetch(`/api/v1/indexLevels?filter[indexId][eq]=${index.id}&sort=-date&pageSize=2`);
    const levels = ((await last.json()) as { data: { level: number | string }[] }).data.map((row) => Number(row.level));
    expect(levels).toEqual([2.5, 1234]);
  }, 120_000);
});
