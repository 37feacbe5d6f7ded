// @vitest-environment jsdom
import type { ImportJob, ImportJobPage } from '@data-platform/shared/imports';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../../constants.ts';
import { createStore } from '../../store/store.ts';
import { IMPORTS_PAGE, importApi } from './import-api.ts';
import { sampleJob } from './sample-job.ts';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

const job = (id: number, entity: string): ImportJob =>
  sampleJob({ id, entity, fileName: `${entity}-${id}.csv`, created: 1 });

/** Two pages of the server: the newest jobs, then (before 8) the older ones, the last. */
const pages: Record<string, ImportJobPage> = {
  [`/api/v1/imports?limit=${IMPORTS_PAGE}`]: { data: [job(9, 'firms'), job(8, 'companies')], nextBefore: 8 },
  [`/api/v1/imports?limit=${IMPORTS_PAGE}&before=8`]: { data: [job(3, 'companies')], nextBefore: null },
};

describe("the Imports screen's pages", () => {
  let asked: string[];
  beforeEach(() => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
    asked = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (!url.startsWith('/api/v1/imports')) return json({ data: [], nextCursor: null });
        asked.push(url);
        return json(pages[url] ?? { error: { code: 'notFound', message: url } });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('asks for the newest imports, then for those before the last one shown, until the server says none is left', async () => {
    const { store, loadDataAreas } = createStore();
    await loadDataAreas();
    const history = importApi.endpoints.importHistory;
    const read = () => history.select(undefined)(store.getState() as never);

    await store.dispatch(history.initiate(undefined));
    expect(read().hasNextPage).toBe(true);
    await store.dispatch(history.initiate(undefined, { direction: 'forward' }));

    expect(asked).toEqual(Object.keys(pages));
    expect(read().data?.pages.flatMap((page) => page.data.map((shown) => shown.id))).toEqual([9, 8, 3]);
    expect(read().hasNextPage).toBe(false);
  });
});
