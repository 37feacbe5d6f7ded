import type { Permission } from '@data-platform/shared/permissions';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { TOKEN_STORAGE_KEY } from '../constants.ts';
import { apiRequest, toFailure } from './http.ts';
import { createApiThunk } from './thunk.ts';

/** The signed-in user as `/auth/me` answers it: the user with its role and the role's permissions. */
export interface CurrentUser {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string;
  status: string;
  role: { id: number; name: string; permissions: Permission[] } | null;
}

/** What sign-in answers. */
export interface SignInResponse {
  accessToken: string;
  user: CurrentUser;
}

export interface AuthState {
  token: string | null;
  loading: boolean;
  /** The sign-in response (token and user), refreshed by loading the current user. */
  currentUser: SignInResponse | null;
  /** True when this session was started through a `token` parameter in the address (an accepted invitation). */
  tokenParamLogin: boolean;
}

function storedToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export const initialAuthState = (): AuthState => ({
  token: storedToken(),
  loading: false,
  currentUser: null,
  tokenParamLogin: false,
});

export const login = createApiThunk(
  'auth/login',
  async (credentials: { email: string; password: string }, { rejectWithValue }) => {
    try {
      return await apiRequest<SignInResponse>('/api/v1/auth/login', { method: 'POST', body: credentials });
    } catch (error) {
      return rejectWithValue(toFailure(error));
    }
  },
);

export const loadCurrentUser = createApiThunk(
  'auth/loadCurrentUser',
  async (_arg: undefined, { getState, rejectWithValue }) => {
    try {
      return await apiRequest<CurrentUser>('/api/v1/auth/me', { token: getState().auth.token });
    } catch (error) {
      return rejectWithValue(toFailure(error));
    }
  },
);

/** Signs out here at once, and revokes the session on the server (whatever it answers). */
export const endSession = createApiThunk('auth/endSession', async (_arg: undefined, { getState, dispatch }) => {
  const { token } = getState().auth;
  dispatch(authSlice.actions.logout());
  if (token) await apiRequest('/api/v1/auth/logout', { method: 'POST', token }).catch(() => undefined);
});

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    logout(state) {
      state.token = null;
      state.currentUser = null;
      state.loading = false;
      state.tokenParamLogin = false;
    },
    /** A session started through the address's `token` parameter (an accepted invitation). */
    loginWithTokenParam(state, action: PayloadAction<string>) {
      state.token = action.payload;
      state.tokenParamLogin = true;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(login.pending, (state) => {
        state.token = null;
        state.loading = true;
      })
      .addCase(login.fulfilled, (state, action) => {
        state.token = action.payload.accessToken;
        state.currentUser = action.payload;
        state.loading = false;
      })
      .addCase(login.rejected, (state) => {
        state.token = null;
        state.loading = false;
      })
      .addCase(loadCurrentUser.fulfilled, (state, action) => {
        if (state.token) state.currentUser = { accessToken: state.token, user: action.payload };
      });
  },
});

export const { logout, loginWithTokenParam } = authSlice.actions;
