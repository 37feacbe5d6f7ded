import type { BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { type ApiFailure, apiRequest, type RequestOptions, toFailure } from './http.ts';
import type { TokenState } from './thunk.ts';

/** One API call as the RTK Query endpoints describe it: a path under `/api/v1`, and the request's options. */
export interface Call extends Omit<RequestOptions, 'token' | 'signal'> {
  path: string;
}

/**
 * The base query of every RTK Query api of the app: the held token, JSON in
 * and out through the app's one request function, failures as ApiFailure (a
 * 401 on a call that carried the token then ends the session, see store.ts).
 */
export const baseQuery: BaseQueryFn<Call, unknown, ApiFailure> = async ({ path, ...options }, { getState, signal }) => {
  try {
    const token = (getState() as TokenState).auth.token;
    return { data: await apiRequest<unknown>(`/api/v1${path}`, { ...options, token, signal }) };
  } catch (error) {
    return { error: toFailure(error) };
  }
};
