import { withSuggestions } from '@data-platform/shared/imports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type Factories, factories, unique } from '../testing/factories.ts';
import { importFile, startImport, uploadImport, waitForImport } from '../testing/import-jobs.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Tags in an import (issue 14): a tags column's values are mapped onto the
 * tags already stored in the field, as picklist values are onto options; a
 * value that matches none is a new tag, kept as the file writes it.
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

async function preview(body: Record<string, unknown>) {
  const answer = await server.fetch('/api/v1/imports/preview', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Awaited<ReturnType<typeof uploadImport>>['body'] };
}

async function companiesIn(city: string): Promise<Record<string, unknown>[]> {
  const answer = await server.fetch(`/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&sort=name`);
  return ((await answer.json()) as { data: Record<string, unknown>[] }).data;
}

/** Uploads the file and imports it with the preview's mapping and the values given; the job once ended. */
async function importWith(
  csv: string,
  values: (picklists: Awaited<ReturnType<typeof preview>>['body']['picklists']) => unknown,
) {
  const uploaded = await uploadImport(server, 'companies', 'tags.csv', csv);
  expect(uploaded.status).toBe(201);
  const started = await startImport(server, {
    entity: 'companies',
    uploadId: uploaded.body.uploadId,
    mapping: uploaded.body.columns.map((c) => c.target),
    values: values(uploaded.body.picklists),
  });
  expect(started.status).toBe(202);
  return waitForImport(server, started.body.id);
}

describe('import of tags', () => {
  beforeAll(async () => {
    await make.company({ tags: ['Fintech', 'AI'] });
    await make.company({ tags: ['Fintech'] });
  });

  it('suggests the stored tags for the values of a tags column, and keeps the others as new tags', async () => {
    const city = unique('Tagville');
    const csv = ['Name,City,Tags', `Alpha,${city},fintech; ai; Climate`, `Beta,${city},AI; ai; Fintech`].join('\n');
    const uploaded = await uploadImport(server, 'companies', 'tags.csv', csv);
    expect(uploaded.status).toBe(201);
    const tags = uploaded.body.picklists.find((p) => p.field === 'tags');
    // The stored tags are its options, the most used first; a value that matches none is no problem.
    expect(tags).toMatchObject({ options: ['Fintech', 'AI'], newValuesKept: true, more: false });
    expect(tags?.values).toEqual([
      { value: 'fintech', rows: 1, option: 'Fintech', matchedBy: 'normalized' },
      { value: 'ai', rows: 2, option: 'AI', matchedBy: 'normalized' },
      { value: 'Climate', rows: 1, option: null, matchedBy: null },
      { value: 'AI', rows: 1, option: 'AI', matchedBy: 'exact' },
      { value: 'Fintech', rows: 1, option: 'Fintech', matchedBy: 'exact' },
    ]);
    expect(uploaded.body.rows.map((r) => [r.values.tags, r.problems])).toEqual([
      [['fintech', 'ai', 'Climate'], {}],
      [['AI', 'ai', 'Fintech'], {}],
    ]);

    // The suggestions accepted: the stored tags' spelling, new ones as written, one tag for "AI; ai".
    const values = withSuggestions({}, uploaded.body.picklists);
    const previewed = await preview({
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
      values,
    });
    expect(previewed.status).toBe(200);
    expect(previewed.body.rows.map((r) => [r.values.tags, r.problems])).toEqual([
      [['Fintech', 'AI', 'Climate'], {}],
      [['AI', 'Fintech'], {}],
    ]);
    expect(previewed.body.picklists.find((p) => p.field === 'tags')?.values[0]).toMatchObject({
      option: 'Fintech',
      matchedBy: 'mapping',
    });
    const started = await startImport(server, {
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
      values,
    });
    expect(started.status).toBe(202);
    expect(await waitForImport(server, started.body.id)).toMatchObject({ status: 'succeeded', created: 2 });
    expect((await companiesIn(city)).map((c) => [c.name, c.tags])).toEqual([
      ['Alpha', ['Fintech', 'AI', 'Climate']],
      ['Beta', ['AI', 'Fintech']],
    ]);
  });

  it("takes the caller's mapping over the suggestion: another stored tag, as written, or left out", async () => {
    const city = unique('Mapville');
    const csv = ['Name,City,Tags', `Gamma,${city},fintech; ai; Climate; Crypto`].join('\n');
    const job = await importWith(csv, () => ({
      tags: { fintech: 'fintech', ai: 'Fintech', Climate: 'AI', Crypto: null },
    }));
    expect(job).toMatchObject({ status: 'succeeded', created: 1 });
    expect((await companiesIn(city)).map((c) => c.tags)).toEqual([['fintech', 'Fintech', 'AI']]);
    // A value named as an object's own keys are is a tag like any other.
    const odd = unique('Oddville');
    const plain = await importWith(['Name,City,Tags', `Delta,${odd},constructor; toString`].join('\n'), () => ({
      tags: { ai: 'AI' },
    }));
    expect(plain).toMatchObject({ status: 'succeeded', created: 1 });
    expect((await companiesIn(odd)).map((c) => c.tags)).toEqual([['constructor', 'toString']]);
  });

  it('maps a custom tags field onto its own stored tags', async () => {
    const definition = await server.fetch('/api/v1/custom-data', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'companies', name: 'Themes', type: 'tags' }),
    });
    expect(definition.status).toBe(201);
    const { key } = (await definition.json()) as { key: string };
    await make.company({ [key]: ['Climate Tech', 'Water'] });
    await make.company({ [key]: ['Climate Tech'] });
    const city = unique('Themeville');
    const csv = ['Name,City,Themes', `Epsilon,${city},climate tech; WATER; Oceans`].join('\n');
    const uploaded = await uploadImport(server, 'companies', 'themes.csv', csv);
    const themes = uploaded.body.picklists.find((p) => p.field === key);
    // Its own tags only: the built-in Tags' Fintech and AI are not among them.
    expect(themes).toMatchObject({ options: ['Climate Tech', 'Water'], newValuesKept: true });
    expect(themes?.values.map((v) => [v.value, v.option])).toEqual([
      ['climate tech', 'Climate Tech'],
      ['WATER', 'Water'],
      ['Oceans', null],
    ]);
    // Without a mapping, the one-call import takes the suggestions, as the wizard does when they are accepted.
    const started = await importFile(server, { entity: 'companies' }, 'themes.csv', csv);
    expect(started.status).toBe(202);
    expect(await waitForImport(server, started.body.id)).toMatchObject({ status: 'succeeded', created: 1 });
    expect((await companiesIn(city)).map((c) => c[key])).toEqual([['Climate Tech', 'Water', 'Oceans']]);
  });
});
