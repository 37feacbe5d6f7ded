import type { ListResponse } from '@data-platform/shared/query/list-query';
import { createApi } from '@reduxjs/toolkit/query/react';
import type { SignInResponse } from './auth-slice.ts';
import { baseQuery } from './base-query.ts';
import { genericCalls, type ListArgs, type RecordArgs, type Row, type SearchArgs } from './resource-api.ts';

interface Accepted {
  message: string;
}

/** A resource the web app keeps no data area for (`clientState: false`): roles, states, the outbox... */
interface Elsewhere {
  resource: string;
}

/**
 * Server calls whose answers are kept in no data area: the account screens'
 * requests, and the reads of resources without a data area (their own
 * screens, reference pickers and filters naming them), tagged by resource.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Resource'],
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
    listElsewhere: build.infiniteQuery<ListResponse<Row>, ListArgs & Elsewhere, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg: { resource, ...args }, pageParam }) => genericCalls.list(resource, args, pageParam),
      providesTags: (_result, _error, { resource }) => [{ type: 'Resource', id: resource }],
    }),
    recordElsewhere: build.query<Row, RecordArgs & Elsewhere>({
      query: ({ resource, ...args }) => genericCalls.record(resource, args),
      providesTags: (_result, _error, { resource }) => [{ type: 'Resource', id: resource }],
    }),
    searchElsewhere: build.query<Row[], SearchArgs & Elsewhere>({
      query: ({ resource, ...args }) => genericCalls.search(resource, args),
      transformResponse: (answer: ListResponse<Row>) => answer.data,
      providesTags: (_result, _error, { resource }) => [{ type: 'Resource', id: resource }],
    }),
  }),
});

export const {
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useRequestAccessMutation,
  useAcceptInvitationMutation,
  useChangePasswordMutation,
} = api;
