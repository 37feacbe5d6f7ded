import type { ListenerMiddlewareInstance, Middleware, Reducer } from '@reduxjs/toolkit';
import { api } from './api.ts';
import { login, loginWithTokenParam, logout } from './auth-slice.ts';
import { invalidateAcrossAreas } from './invalidation.ts';
import { forgetServerLayouts } from './layouts-slice.ts';
import { dataApis, loadCountries } from './resource-slices.ts';
import { savedViewsApi } from './saved-views-api.ts';
import { type AppStore, dataAreasLoaded, type RootReducer, type RootState } from './store.ts';

/** What of a store the data areas join: its reducer (to inject into), its listeners and its dynamic middleware. */
export interface StoreParts {
  store: AppStore;
  reducer: RootReducer;
  listeners: ListenerMiddlewareInstance<RootState>;
  addMiddleware: (...middleware: Middleware[]) => unknown;
}

/** Every RTK Query api of the app: the resources' and custom fields' areas, the saved views and the account calls (`api`). */
const areas = [api, ...dataApis, savedViewsApi];

/**
 * Injects the data areas into a store made by `createStore` (the first
 * signed-in screen, an account screen or a session asks, store.ts): their
 * reducers, their middleware, the listeners that read again what a write
 * changes, forget everything at sign-out and fetch the countries once a token
 * is held. Called once per store.
 */
export function attachDataAreas({ store, reducer, listeners, addMiddleware }: StoreParts): void {
  for (const area of areas) reducer.inject({ reducerPath: area.reducerPath, reducer: area.reducer as Reducer });
  // Typed loosely: each area's middleware names only its own slice of the state, which the state holds under its name.
  addMiddleware(...areas.map((area) => area.middleware as Middleware));

  // Nothing of a session stays for the next one.
  listeners.startListening({
    actionCreator: logout,
    effect: (_action, { dispatch }) => {
      for (const area of areas) dispatch(area.util.resetApiState());
      // The saved views cached were this user's (and their colleagues' shared ones).
      dispatch(forgetServerLayouts());
    },
  });
  invalidateAcrossAreas(listeners);
  // Countries are fetched once a token is held: at sign-in, or now with a token already held.
  listeners.startListening({
    matcher: (action) => login.fulfilled.match(action) || loginWithTokenParam.match(action),
    effect: (_action, { dispatch }) => {
      dispatch(loadCountries());
    },
  });

  store.dispatch(dataAreasLoaded());
  if (store.getState().auth.token) store.dispatch(loadCountries());
}
