/** An API failure as the client keeps it: serializable, so it can travel in actions. */
export interface ApiFailure {
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
  /** True when the request carried a token: a 401 then means the session has ended. */
  authenticated: boolean;
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

/** The one way the web app talks to the API: JSON in and out, errors as ApiError with the server's message. */
export async function apiRequest<T>(
  path: string,
  { method = 'GET', body, token, signal, headers: extra }: RequestOptions = {},
) {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
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
  const text = await response.text();
  const parsed: unknown = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; fields?: Record<string, string> } })?.error;
    throw new ApiError({
      status: response.status,
      code: error?.code ?? 'http_error',
      message: error?.message ?? (response.statusText || `HTTP ${response.status}`),
      fields: error?.fields,
      authenticated: Boolean(token),
    });
  }
  return parsed as T;
}
