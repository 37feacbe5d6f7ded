import {
  combineSlices,
  configureStore,
  createAction,
  createDynamicMiddleware,
  createListenerMiddleware,
  isRejectedWithValue,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, persistReducer, persistStore, REGISTER, REHYDRATE } from 'redux-persist';
import storage from 'redux-persist/es/storage';
import { PERSIST_TIMEOUT_MS, TOKEN_STORAGE_KEY } from '../constants.ts';
import { authSlice, login, loginWithTokenParam } from './auth-slice.ts';
import { configsSlice } from './configs-slice.ts';
import { isApiFailure } from './http.ts';
import { landsSlice } from './lands-slice.ts';
import { layoutsSlice } from './layouts-slice.ts';

/** Only the layouts survive a reload; everything else is fetched again. */
const persistedLayouts = persistReducer({ key: 'layouts', storage, timeout: PERSIST_TIMEOUT_MS }, layoutsSlice.reducer);

/**
 * The state at start: what the sign-in screen needs, and the layouts kept
 * between visits. The data areas (the RTK Query caches of the resources, the
 * custom fields and the account calls) are injected into it by
 * `loadDataAreas` (data-areas.ts), with the session: RTK Query's code is not
 * part of the sign-in screen's JavaScript (issue #11, docs/decisions/0017).
 */
function createRootReducer() {
  return combineSlices(authSlice, landsSlice, configsSlice, { layouts: persistedLayouts }).withLazyLoadedSlices<
    Record<string, unknown>
  >();
}

export type RootReducer = ReturnType<typeof createRootReducer>;
export type RootState = ReturnType<RootReducer>;

/** The data areas were injected: dispatched so that the state holds them at once (an empty area each). */
export const dataAreasLoaded = createAction('store/dataAreasLoaded');

/** A rejected API call whose request carried a token and got 401: the session has ended. */
export function isSessionEnd(action: UnknownAction): boolean {
  return isRejectedWithValue(action) && isApiFailure(action.payload) && action.payload.status === 401
    ? action.payload.authenticated
    : false;
}

export function createStore() {
  const reducer = createRootReducer();
  const listeners = createListenerMiddleware<RootState>();
  // The data areas' middleware joins here when they are injected.
  const dataMiddleware = createDynamicMiddleware<RootState>();
  const store = configureStore({
    reducer,
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } })
        .prepend(listeners.middleware)
        .concat(dataMiddleware.middleware),
  });

  let loading: Promise<void> | undefined;
  /**
   * Injects the data areas once (their code is fetched then), and resolves
   * when the state holds them: what the signed-in shell and the account
   * screens wait for before they show.
   */
  const loadDataAreas = (): Promise<void> => {
    loading ??= import('./data-areas.ts').then(
      ({ attachDataAreas }) =>
        attachDataAreas({ store, reducer, listeners, addMiddleware: dataMiddleware.addMiddleware }),
      (error: unknown) => {
        // Not fetched (offline, a new build): asked again by the next screen that needs them.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  // The token is kept between visits.
  listeners.startListening({
    predicate: (_action, current, previous) => current.auth.token !== previous.auth.token,
    effect: (_action, { getState }) => {
      const { token } = getState().auth;
      try {
        if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
        else localStorage.removeItem(TOKEN_STORAGE_KEY);
      } catch {
        // Private mode without storage: the session lasts as long as the page.
      }
    },
  });
  // A 401 on a call that carried the token: sign out here too; the shell sends the user to sign in.
  listeners.startListening({
    predicate: (action) => isSessionEnd(action),
    effect: (_action, { dispatch }) => {
      dispatch(authSlice.actions.logout());
    },
  });
  // A session brings the data areas: at sign-in, or at start with a kept token (they then fetch the countries).
  listeners.startListening({
    matcher: (action) => login.fulfilled.match(action) || loginWithTokenParam.match(action),
    effect: () => loadDataAreas().catch(() => undefined),
  });

  const persistor = persistStore(store);
  if (store.getState().auth.token) void loadDataAreas().catch(() => undefined);
  return { store, persistor, listeners, loadDataAreas };
}

export type AppStore = ReturnType<typeof createStore>['store'];
export type AppDispatch = AppStore['dispatch'];
export type AppListeners = ReturnType<typeof createStore>['listeners'];
/** Injects the data areas into the store once; resolves when its state holds them. */
export type LoadDataAreas = ReturnType<typeof createStore>['loadDataAreas'];
