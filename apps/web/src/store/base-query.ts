import type { BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { type ApiFailure, apiRequest, type RequestOptions, toFailure } from './http.ts';
import type { TokenState } from './thunk.ts';

/** One API call as the RTK Query endpoints describe it: a path under `/api/v1`, and the request's options. */
export interface Call extends Omit<RequestOptions, 'token' | 'signal'> {
  path: string;
}

/** How many times a read is asked again when the server answers that it is briefly unavailable. */
const READ_RETRIES = 2;
/** The longest wait a Retry-After may ask of a read before it is asked again. */
const LONGEST_WAIT_SECONDS = 10;

/**
 * How long to wait before asking again, when the call is a read the server
 * refused for a moment (503 with Retry-After: its database could not be
 * reached, or no connection was free in time); undefined when the failure
 * stands. A write is never sent twice: the user sees the refusal and saves
 * again.
 */
function retryDelayMs(call: Call, failure: ApiFailure, attempt: number): number | undefined {
  if ((call.method ?? 'GET') !== 'GET' || attempt >= READ_RETRIES) return undefined;
  if (failure.status !== 503 || failure.retryAfterSeconds === undefined) return undefined;
  return Math.min(failure.retryAfterSeconds, LONGEST_WAIT_SECONDS) * 1000;
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The base query of every RTK Query api of the app: the held token, JSON in
 * and out through the app's one request function, failures as ApiFailure (a
 * 401 on a call that carried the token then ends the session, see store.ts).
 * A read answered 503 with Retry-After is asked again after that wait (twice
 * at most): a list read again after a write would otherwise keep showing what
 * it showed before, with nothing to read it again.
 */
export const baseQuery: BaseQueryFn<Call, unknown, ApiFailure> = async (call, { getState, signal }) => {
  const { path, ...options } = call;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const token = (getState() as TokenState).auth.token;
      return { data: await apiRequest<unknown>(`/api/v1${path}`, { ...options, token, signal }) };
    } catch (error) {
      const failure = toFailure(error);
      const delay = retryDelayMs(call, failure, attempt);
      if (delay === undefined || signal.aborted) return { error: failure };
      await pause(delay, signal);
      if (signal.aborted) return { error: failure };
    }
  }
};
