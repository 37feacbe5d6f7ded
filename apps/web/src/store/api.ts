import { createApi } from '@reduxjs/toolkit/query/react';
import type { SignInResponse } from './auth-slice.ts';
import { baseQuery } from './base-query.ts';

interface Accepted {
  message: string;
}

/** Server calls whose answers are kept in no data area: the account screens' requests. */
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
  }),
});

export const {
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useRequestAccessMutation,
  useAcceptInvitationMutation,
  useChangePasswordMutation,
} = api;
