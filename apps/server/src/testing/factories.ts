import type { ListResponse } from '@data-platform/shared/query/list-query';
import type { ErrorBody } from '../http/errors.ts';

/** A row as the API answers it: `id` plus whatever was selected or joined. */
export type Row = { id: number } & Record<string, unknown>;

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  /** the parsed JSON body, or the text when the answer is not JSON */
  body: T;
}

type Query = Record<string, string | number | undefined>;

/** `?a=1&b=2` from an object, skipping undefined values; keys such as `filter[name][eq]` are written as they are. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * A small client for the real server over HTTP (global fetch, no app.inject).
 * `defaultHeaders` go with every request (e.g. credentials).
 */
export function apiClient(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  async function send<T>(
    method: string,
    path: string,
    init: { body?: unknown; headers?: RequestInit['headers'] } = {},
  ) {
    const headers = new Headers(defaultHeaders);
    for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
    let body: RequestInit['body'];
    if (init.body !== undefined) {
      if (typeof init.body === 'string' || init.body instanceof FormData || init.body instanceof Uint8Array) {
        body = init.body as RequestInit['body'];
      } else {
        body = JSON.stringify(init.body);
        headers.set('content-type', 'application/json');
      }
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('application/json');
    return {
      status: response.status,
      headers: response.headers,
      body: (isJson && text ? JSON.parse(text) : text) as T,
    } satisfies Answer<T>;
  }
  return {
    send,
    get: <T = Row>(path: string, query?: Query) => send<T>('GET', `${path}${queryString(query)}`),
    list: <R = Row>(path: string, query?: Query) => send<ListResponse<R>>('GET', `${path}${queryString(query)}`),
    query: <R = Row>(path: string, body: unknown) => send<ListResponse<R>>('POST', `${path}/query`, { body }),
    post: <T = Row>(path: string, body: unknown) => send<T>('POST', path, { body }),
    patch: <T = Row>(path: string, body: unknown, version?: number | string) =>
      send<T>('PATCH', path, { body, headers: version === undefined ? {} : { 'if-match': String(version) } }),
    delete: <T = ''>(path: string, version?: number) =>
      send<T>('DELETE', path, { headers: version === undefined ? {} : { 'if-match': String(version) } }),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** A client signed in as the test server's administrator (every /api/v1 route needs a token). */
export function adminClient(server: { url: string; token: string }): ApiClient {
  return apiClient(server.url, { authorization: `Bearer ${server.token}` });
}

/** The error body of an answer, asserting its shape `{ error: { code, message, fields? } }`. */
export function errorOf(answer: Answer<unknown>): ErrorBody['error'] {
  const body = answer.body as Partial<ErrorBody>;
  if (!body || typeof body !== 'object' || !body.error) {
    throw new Error(`Expected an error body, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return body.error;
}

/** Uploads bytes as `POST /api/v1/files?entity=&recordId=` with one multipart part named `file`. */
export function uploadFile(
  api: ApiClient,
  entity: string,
  recordId: number,
  bytes: Uint8Array,
  name: string,
  type = 'application/octet-stream',
) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  return api.send<Row>('POST', `/api/v1/files${queryString({ entity, recordId })}`, { body: form });
}

let sequence = 0;
/** A name no other test in this process has used. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix} ${sequence}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Factories that create records over HTTP with sensible defaults; any value
 * can be overridden. Each answers the created row and fails on anything but 201.
 */
export function factories(api: ApiClient) {
  async function create(resource: string, values: Record<string, unknown>): Promise<Row> {
    const answer = await api.post(`/api/v1/${resource}`, values);
    if (answer.status !== 201) {
      throw new Error(`Creating ${resource} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }
  return {
    create,
    company: (values: Record<string, unknown> = {}) => create('companies', { name: unique('Company'), ...values }),
    firm: (values: Record<string, unknown> = {}) => create('firms', { name: unique('Firm'), ...values }),
    fund: (values: Record<string, unknown> = {}) =>
      create('funds', { name: unique('Fund'), currency: 'USD', ...values }),
    deal: (values: Record<string, unknown> = {}) => create('deals', { name: unique('Deal'), ...values }),
    investor: (values: Record<string, unknown> = {}) => create('investors', { name: unique('Investor'), ...values }),
    contact: (values: Record<string, unknown> = {}) => {
      const last = unique('Lovelace').replace(/ /g, '');
      return create('contacts', {
        firstName: 'Ada',
        lastName: last,
        email: `${last.toLowerCase()}@example.com`,
        ...values,
      });
    },
    fundPerformance: (fundId: number, values: Record<string, unknown> = {}) =>
      create('fundPerformances', { fundId, asOfDate: '2024-12-31', currency: 'USD', ...values }),
    note: (entity: string, recordId: number, body = 'A note') => create('notes', { entity, recordId, body }),
    /** A link row in a link collection such as contactCompanies. */
    link: (collection: string, values: Record<string, unknown>) => create(collection, values),
    /** A file uploaded to a record (multipart, one part named `file`). */
    async file(
      entity: string,
      recordId: number,
      bytes: Uint8Array = new TextEncoder().encode('hello'),
      name = 'a.txt',
    ) {
      const answer = await uploadFile(api, entity, recordId, bytes, name);
      if (answer.status !== 201) throw new Error(`Upload answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
  };
}

export type Factories = ReturnType<typeof factories>;
