import { createAsyncThunk } from '@reduxjs/toolkit';
import type { AuthState } from './auth-slice.ts';
import type { ApiFailure } from './http.ts';

/** The part of the state every API thunk reads: the token. */
export interface TokenState {
  auth: Pick<AuthState, 'token'>;
}

/** createAsyncThunk for API calls: failures are the rejected action's payload, an ApiFailure. */
export const createApiThunk = createAsyncThunk.withTypes<{ state: TokenState; rejectValue: ApiFailure }>();
