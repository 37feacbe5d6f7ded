import { heardPosition, readAfter } from './read-after.ts';

/** An API failure as the client keeps it: serializable, so it can travel in actions. */
export interface ApiFailure {
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
  /** True when the request carried a token: a 401 then means the session has ended. */
  authenticated: boolean;
  /** The server's Retry-After, in seconds, when it said it is briefly unavailable (503). */
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

export function isApiFailure(value: unknown): value is ApiFailure {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiFailure).status === 'number' &&
    typeof (value as ApiFailure).message === 'string'
  );
}

/** Any thrown value as an ApiFailure. */
export function toFailure(error: unknown): ApiFailure {
  if (error instanceof ApiError) return error.failure;
  if (isApiFailure(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return { status: 0, code: 'network_error', message, authenticated: false };
}

type QueryValue = string | number | undefined;

/**
 * `a=1&b=2` with the list grammar's punctuation left readable
 * (`join=states(id,name)`, `filter[stage][eq]=Seed`).
 */
export function queryString(query: Record<string, QueryValue> | [string, string][]): string {
  const entries = Array.isArray(query) ? query : Object.entries(query);
  const encode = (text: string) =>
    encodeURIComponent(text).replace(/%2C/gi, ',').replace(/%5B/gi, '[').replace(/%5D/gi, ']');
  return entries
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${encode(key)}=${encode(String(value))}`)
    .join('&');
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
  /** Extra request headers (`If-Match` of an update). */
  headers?: Record<string, string>;
}

/** Sends one request; a failure (no answer, or an error status) is thrown as ApiError with the server's message. */
async function send(
  path: string,
  { method = 'GET', body, token, signal, headers: extra }: RequestOptions,
  accept: string,
): Promise<Response> {
  const headers: Record<string, string> = { accept, ...extra };
  const position = readAfter();
  // READ_AFTER_HEADER of the shared package, written out: importing it added 13 bytes (gzip) to the first
  // screens' store chunk, which has almost none left (web-bundle.test.ts; measured in session 25).
  if (position) headers['read-after'] = position;
  // A form (a file to import) goes as multipart, its boundary chosen by the browser.
  const multipart = body instanceof FormData;
  if (body !== undefined && !multipart) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  // The interface's language (i18n keeps it on <html lang>), not the browser's: mails a request sends are in it.
  const language = document.documentElement.lang;
  if (language) headers['accept-language'] = language;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: multipart ? body : body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw new ApiError({
      status: 0,
      code: 'network_error',
      message: error instanceof Error ? error.message : String(error),
      authenticated: Boolean(token),
    });
  }
  heardPosition(response.headers.get('read-after'));
  if (!response.ok) {
    const text = await response.text();
    const parsed: unknown = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null;
    const error = (parsed as { error?: { code?: string; message?: string; fields?: Record<string, string> } })?.error;
    const retryAfter = response.headers.get('retry-after');
    throw new ApiError({
      status: response.status,
      code: error?.code ?? 'http_error',
      message: error?.message ?? (response.statusText || `HTTP ${response.status}`),
      fields: error?.fields,
      authenticated: Boolean(token),
      ...(retryAfter !== null && /^\d+$/.test(retryAfter) ? { retryAfterSeconds: Number(retryAfter) } : {}),
    });
  }
  return response;
}

/** The one way the web app talks to the API: JSON in and out, errors as ApiError with the server's message. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  const text = await response.text();
  return (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
}

/** A file the API answers (an export, an uploaded file's bytes), with the name the server gives it. */
export async function apiDownload(path: string, options: RequestOptions = {}): Promise<{ blob: Blob; name?: string }> {
  const response = await send(path, options, '*/*');
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { blob: await response.blob(), name };
}

/** Hands bytes to the browser as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * POSTs one file as multipart with XMLHttpRequest, whose upload events tell
 * the progress (fetch does not); answers the created row, or throws ApiError
 * with the server's message.
 */
export function apiUpload<T>(
  path: string,
  file: File,
  token: string | null,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('accept', 'application/json');
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      if (request.status >= 200 && request.status < 300) return resolve(body as T);
      reject(
        new ApiError({
          status: request.status,
          code: body?.error?.code ?? 'http_error',
          message: body?.error?.message ?? (request.statusText || `HTTP ${request.status}`),
          fields: body?.error?.fields,
          authenticated: Boolean(token),
        }),
      );
    };
    request.onerror = () =>
      reject(new ApiError({ status: 0, code: 'network_error', message: '', authenticated: Boolean(token) }));
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
