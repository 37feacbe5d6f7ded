// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../constants.ts';
import {
  type AuthState,
  authSlice,
  type CurrentUser,
  initialAuthState,
  loadCurrentUser,
  login,
  loginWithTokenParam,
  logout,
} from './auth-slice.ts';

const reduce = authSlice.reducer;
const user: CurrentUser = {
  id: 1,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  status: 'active',
  role: { id: 1, name: 'Administrator', permissions: ['users:manage'] },
};
const signedIn: AuthState = {
  token: 'old-token',
  loading: false,
  currentUser: { accessToken: 'old-token', user },
  tokenParamLogin: false,
};
const credentials = { email: 'ada@example.com', password: 'correct horse battery staple' };

describe('auth', () => {
  beforeEach(() => localStorage.clear());

  it('starts with the token kept in localStorage, not loading, no user, not by token parameter', () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
    expect(initialAuthState()).toEqual({ token: 'kept', loading: false, currentUser: null, tokenParamLogin: false });
    localStorage.clear();
    expect(initialAuthState().token).toBeNull();
  });

  it('a login request clears the token and sets loading', () => {
    const state = reduce(signedIn, login.pending('r1', credentials));
    expect(state.token).toBeNull();
    expect(state.loading).toBe(true);
  });

  it('a successful login sets the token from accessToken, stores the response as current user, clears loading', () => {
    const loading = reduce(signedIn, login.pending('r1', credentials));
    const response = { accessToken: 'new-token', user };
    const state = reduce(loading, login.fulfilled(response, 'r1', credentials));
    expect(state).toEqual({ token: 'new-token', loading: false, currentUser: response, tokenParamLogin: false });
  });

  it('a failed login clears the token (and loading)', () => {
    const loading = { ...reduce(signedIn, login.pending('r1', credentials)), token: 'stray' };
    const failure = { status: 401, code: 'invalid_credentials', message: 'No', authenticated: false };
    const state = reduce(loading, login.rejected(null, 'r1', credentials, failure));
    expect(state.token).toBeNull();
    expect(state.loading).toBe(false);
  });

  it('logout sets the token to null', () => {
    const state = reduce({ ...signedIn, tokenParamLogin: true }, logout());
    expect(state.token).toBeNull();
    expect(state.currentUser).toBeNull();
    expect(state.tokenParamLogin).toBe(false);
  });

  it('loading the current user replaces currentUser', () => {
    const renamed = { ...user, fullName: 'Ada King' };
    const state = reduce(signedIn, loadCurrentUser.fulfilled(renamed, 'r2', undefined));
    expect(state.currentUser).toEqual({ accessToken: 'old-token', user: renamed });
  });

  it('login with a token parameter sets the token and the token-parameter flag', () => {
    const state = reduce(initialAuthState(), loginWithTokenParam('invited-token'));
    expect(state.token).toBe('invited-token');
    expect(state.tokenParamLogin).toBe(true);
  });
});
