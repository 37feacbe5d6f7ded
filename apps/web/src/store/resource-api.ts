import type { ExportFormat } from '@data-platform/shared/export-formats';
import type { ListResponse } from '@data-platform/shared/query/list-query';
import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery, type Call } from './base-query.ts';
import { type BulkOutcome, forEachRow } from './bulk.ts';
import { type ApiFailure, apiDownload, apiUpload, queryString, saveFile, toFailure } from './http.ts';
import { announcesWrite } from './written.ts';

/** A row as the API answers it: `id` plus what was selected and joined. */
export type Row = { id: number } & Record<string, unknown>;

/** Which rows of a resource a list reads, page after page by cursor. */
export interface ListArgs {
  /** List parameters (`select`, `join`, `filter[x][op]`, `sort`, `pageSize`...), in order; the cursor is added. */
  params: readonly [string, string][];
  /** A path under the resource, for the rows related to one record: `7/companies` reads `contacts/7/companies`. */
  under?: string;
}

export interface RecordArgs {
  id: number;
  /** The fields to read (all when absent), and the relations to join. */
  select?: readonly string[];
  join?: readonly string[];
}

export interface SearchArgs {
  display: string;
  q: string;
}

export interface UpdateArgs {
  id: number;
  /** The version the change was made from, sent as If-Match: a row changed since is refused (412). */
  version: number;
  body: Record<string, unknown>;
}

/** A row a bulk action works on, with the name the user knows it by (reported when it fails). */
export interface BulkRow {
  id: number;
  name: string;
  version?: unknown;
}

/** The rows the bulk action went through for; the others with the server's reason. */
export type BulkResult = BulkOutcome<number>;

const SEARCH_PAGE_SIZE = '20';

/** After a bulk action: the lists, and each record it went through for. */
const doneTags = (result: BulkResult | undefined) =>
  result && result.done.length > 0
    ? ['List' as const, ...result.done.map((id) => ({ type: 'Record' as const, id }))]
    : [];

/**
 * A bulk action's calls, one per row (a few at a time; a failure does not
 * stop the others). A 401 on the session's token fails the whole action with
 * it, so that the session ends here as after any call (store.ts).
 */
async function sendEach(
  rows: readonly BulkRow[],
  send: (request: Call) => PromiseLike<{ error?: ApiFailure }> | { error?: ApiFailure },
  request: (row: BulkRow) => Call,
): Promise<{ data: BulkResult } | { error: ApiFailure }> {
  let sessionEnded: ApiFailure | undefined;
  const outcome = await forEachRow(rows, async (row) => {
    const { error } = await send(request(row));
    if (!error) return row.id;
    if (error.status === 401 && error.authenticated) sessionEnded = error;
    throw error;
  });
  return sessionEnded ? { error: sessionEnded } : { data: outcome };
}

const withCursor = (params: readonly [string, string][], cursor: string | null): [string, string][] =>
  // A total is asked on the first page only; the pages after it read rows.
  cursor ? [...params.filter(([key]) => key !== 'count'), ['cursor', cursor]] : [...params];

/** The generic API's calls, built once for the endpoints and the bulk actions. */
const genericCalls = {
  list: (resource: string, { params, under }: ListArgs, cursor: string | null): Call => {
    const search = queryString(withCursor(params, cursor));
    return { path: `/${resource}${under ? `/${under}` : ''}${search ? `?${search}` : ''}` };
  },
  record: (resource: string, { id, select, join }: RecordArgs): Call => {
    const search = queryString({ select: select?.join(','), join: join?.length ? join.join(',') : undefined });
    return { path: `/${resource}/${id}${search ? `?${search}` : ''}` };
  },
  search: (resource: string, { display, q }: SearchArgs): Call => ({
    path: `/${resource}?${queryString([
      ['select', display],
      ['pageSize', SEARCH_PAGE_SIZE],
      ...(q.trim() ? [['q', q.trim()] as [string, string]] : [['sort', display] as [string, string]]),
    ])}`,
  }),
  create: (resource: string, body: Record<string, unknown>): Call => ({ path: `/${resource}`, method: 'POST', body }),
  update: (resource: string, { id, version, body }: UpdateArgs): Call => ({
    path: `/${resource}/${id}`,
    method: 'PATCH',
    body,
    headers: { 'if-match': String(version) },
  }),
  remove: (resource: string, id: number): Call => ({ path: `/${resource}/${id}`, method: 'DELETE' }),
};

/**
 * The data area of one resource: its RTK Query cache, mounted at the area's
 * name (`state.companies`). Every resource gets the same generic endpoints
 * over `/api/v1/{resource}`; each write announces itself (written.ts), and
 * store/invalidation.ts reads again what other areas show of it.
 *
 * Tags: `List` is every list, search and page of the area; `Record` one record.
 */
export function createResourceApi(resource: string) {
  return createApi({
    reducerPath: resource,
    baseQuery,
    tagTypes: ['List', 'Record'],
    // A read again asked while a read of the area is under way waits for it, then goes: a write during a
    // list's read is never lost (RTK Query's default, named because resource-slices.test.ts relies on it).
    invalidationBehavior: 'delayed',
    endpoints: (build) => ({
      /** The generic get-all: pages of `GET /{resource}` by cursor (Load More...). */
      list: build.infiniteQuery<ListResponse<Row>, ListArgs, string | null>({
        infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
        query: ({ queryArg, pageParam }) => genericCalls.list(resource, queryArg, pageParam),
        providesTags: ['List'],
      }),
      record: build.query<Row, RecordArgs>({
        query: (args) => genericCalls.record(resource, args),
        providesTags: (_result, _error, { id }) => [{ type: 'Record', id }],
      }),
      /** Records whose searchable fields match `q` (a reference picker), by their display field. */
      search: build.query<Row[], SearchArgs>({
        query: (args) => genericCalls.search(resource, args),
        transformResponse: (answer: ListResponse<Row>) => answer.data,
        providesTags: ['List'],
      }),
      create: build.mutation<Row, Record<string, unknown>>({
        query: (body) => genericCalls.create(resource, body),
        invalidatesTags: (_result, error) => (error ? [] : ['List']),
        onQueryStarted: announcesWrite(resource),
      }),
      update: build.mutation<Row, UpdateArgs>({
        query: (args) => genericCalls.update(resource, args),
        invalidatesTags: (_result, error, { id }) => (error ? [] : ['List', { type: 'Record', id }]),
        onQueryStarted: announcesWrite(resource),
      }),
      remove: build.mutation<void, number>({
        query: (id) => genericCalls.remove(resource, id),
        invalidatesTags: (_result, error, id) => (error ? [] : ['List', { type: 'Record', id }]),
        onQueryStarted: announcesWrite(resource),
      }),
      /**
       * The same change on many rows, each claiming the version it was shown
       * at: a row changed since (or refused) fails alone and is reported, the
       * others are saved. One answer, so the lists are read again once.
       */
      bulkUpdate: build.mutation<BulkResult, { rows: readonly BulkRow[]; changes: Record<string, unknown> }>({
        queryFn: ({ rows, changes }, _api, _options, send) =>
          sendEach(rows, send, (row) =>
            genericCalls.update(resource, { id: row.id, version: Number(row.version), body: changes }),
          ),
        invalidatesTags: (result) => doneTags(result),
        onQueryStarted: announcesWrite(resource),
      }),
      /** Deletes many rows; one that cannot be deleted (or is already gone) is reported, the others are deleted. */
      bulkRemove: build.mutation<BulkResult, { rows: readonly BulkRow[] }>({
        queryFn: ({ rows }, _api, _options, send) =>
          sendEach(rows, send, (row) => genericCalls.remove(resource, row.id)),
        invalidatesTags: (result) => doneTags(result),
        onQueryStarted: announcesWrite(resource),
      }),
      /** A CSV or XLSX file of new records, imported all or none. */
      importFile: build.mutation<{ created: number }, File>({
        query: (file) => {
          const form = new FormData();
          form.append('file', file, file.name);
          return { path: `/${resource}/import`, method: 'POST', body: form };
        },
        invalidatesTags: (_result, error) => (error ? [] : ['List']),
        onQueryStarted: announcesWrite(resource),
      }),
      /** Every row the list parameters match, written as CSV or XLSX and handed to the browser; answers the file name. */
      exportFile: build.mutation<string, { params: readonly [string, string][]; format: ExportFormat }>({
        queryFn: async ({ params, format }, { getState, signal }) => {
          try {
            const token = (getState() as { auth: { token: string | null } }).auth.token;
            const query = queryString([...params, ['format', format]]);
            const file = await apiDownload(`/api/v1/${resource}/export?${query}`, { token, signal });
            const name = file.name ?? `${resource}.${format}`;
            saveFile(file.blob, name);
            return { data: name };
          } catch (error) {
            return { error: toFailure(error) };
          }
        },
      }),
      /** The bytes of a row that stores them (a file), handed to the browser as a download named as the row. */
      downloadContent: build.mutation<string, { id: number; name: string }>({
        queryFn: async ({ id, name }, { getState, signal }) => {
          try {
            const token = (getState() as { auth: { token: string | null } }).auth.token;
            const file = await apiDownload(`/api/v1/${resource}/${id}/content`, { token, signal });
            saveFile(file.blob, name);
            return { data: name };
          } catch (error) {
            return { error: toFailure(error) };
          }
        },
      }),
      /** Sends one file to attach to a record (files), telling the progress as it goes. */
      upload: build.mutation<Row, { query: string; file: File; onProgress: (fraction: number) => void }>({
        queryFn: async ({ query, file, onProgress }, { getState }) => {
          try {
            const token = (getState() as { auth: { token: string | null } }).auth.token;
            return { data: await apiUpload<Row>(`/api/v1/${resource}?${query}`, file, token, onProgress) };
          } catch (error) {
            return { error: toFailure(error) };
          }
        },
        invalidatesTags: (_result, error) => (error ? [] : ['List']),
        onQueryStarted: announcesWrite(resource),
      }),
    }),
  });
}

export type ResourceApi = ReturnType<typeof createResourceApi>;
