import type { ListResponse } from '@data-platform/shared/query/list-query';
import { type BaseQueryFn, createApi } from '@reduxjs/toolkit/query/react';
import type { SignInResponse } from './auth-slice.ts';
import { type ApiFailure, apiRequest, queryString, type RequestOptions, toFailure } from './http.ts';
import type { TokenState } from './thunk.ts';

interface Call extends Omit<RequestOptions, 'token' | 'signal'> {
  path: string;
}

/** RTK Query over the same request function as the thunks: the held token, errors as ApiFailure. */
const baseQuery: BaseQueryFn<Call, unknown, ApiFailure> = async ({ path, ...options }, { getState, signal }) => {
  try {
    const token = (getState() as TokenState).auth.token;
    return { data: await apiRequest<unknown>(`/api/v1${path}`, { ...options, token, signal }) };
  } catch (error) {
    return { error: toFailure(error) };
  }
};

/** A mail kept in the outbox (no SMTP server configured). */
export interface OutboxMail {
  id: number;
  createdAt: string;
  to: string;
  subject: string;
  text: string;
}

interface Accepted {
  message: string;
}

const OUTBOX_PAGE_SIZE = 50;

/** Server calls whose answers are not kept in a data area: account screens and the outbox. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  endpoints: (build) => ({
    forgotPassword: build.mutation<Accepted, { email: string }>({
      query: (body) => ({ path: '/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<Accepted, { token: string; password: string }>({
      query: (body) => ({ path: '/auth/reset-password', method: 'POST', body }),
    }),
    requestAccess: build.mutation<Accepted, { email: string; firstName: string; lastName: string; password: string }>({
      query: (body) => ({ path: '/auth/register', method: 'POST', body }),
    }),
    acceptInvitation: build.mutation<
      SignInResponse,
      { token: string; firstName: string; lastName: string; password: string }
    >({
      query: (body) => ({ path: '/auth/accept-invitation', method: 'POST', body }),
    }),
    changePassword: build.mutation<Accepted, { currentPassword: string; password: string }>({
      query: (body) => ({ path: '/auth/change-password', method: 'POST', body }),
    }),
    outbox: build.infiniteQuery<ListResponse<OutboxMail>, void, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ pageParam }) => {
        const query: [string, string][] = [
          ['select', 'createdAt,to,subject,text'],
          ['pageSize', String(OUTBOX_PAGE_SIZE)],
        ];
        if (pageParam) query.push(['cursor', pageParam]);
        return { path: `/outbox?${queryString(query)}` };
      },
    }),
  }),
});

export const {
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useRequestAccessMutation,
  useAcceptInvitationMutation,
  useChangePasswordMutation,
  useOutboxInfiniteQuery,
} = api;
