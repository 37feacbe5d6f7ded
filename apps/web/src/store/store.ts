import {
  combineReducers,
  configureStore,
  createListenerMiddleware,
  isRejectedWithValue,
  type Middleware,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, persistReducer, persistStore, REGISTER, REHYDRATE } from 'redux-persist';
import storage from 'redux-persist/es/storage';
import { PERSIST_TIMEOUT_MS, TOKEN_STORAGE_KEY } from '../constants.ts';
import { api } from './api.ts';
import { authSlice, login, loginWithTokenParam, logout } from './auth-slice.ts';
import { configsSlice } from './configs-slice.ts';
import { isApiFailure } from './http.ts';
import { invalidateAcrossAreas } from './invalidation.ts';
import { landsSlice } from './lands-slice.ts';
import { layoutsSlice } from './layouts-slice.ts';
import { dataApis, dataReducers, loadCountries } from './resource-slices.ts';

/** Only the layouts survive a reload; everything else is fetched again. */
const persistedLayouts = persistReducer({ key: 'layouts', storage, timeout: PERSIST_TIMEOUT_MS }, layoutsSlice.reducer);

const rootReducer = combineReducers({
  auth: authSlice.reducer,
  lands: landsSlice.reducer,
  configs: configsSlice.reducer,
  layouts: persistedLayouts,
  ...dataReducers,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** A rejected API call whose request carried a token and got 401: the session has ended. */
export function isSessionEnd(action: UnknownAction): boolean {
  return isRejectedWithValue(action) && isApiFailure(action.payload) && action.payload.status === 401
    ? action.payload.authenticated
    : false;
}

// Typed loosely: each area's middleware names only its own slice of the state, which RootState holds under its name.
const dataMiddleware = dataApis.map((data) => data.middleware as Middleware);

export function createStore() {
  const listeners = createListenerMiddleware<RootState>();
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } })
        .prepend(listeners.middleware)
        .concat(api.middleware, ...dataMiddleware),
  });

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
      dispatch(logout());
    },
  });
  // Nothing of a session stays for the next one.
  listeners.startListening({
    actionCreator: logout,
    effect: (_action, { dispatch }) => {
      dispatch(api.util.resetApiState());
      for (const data of dataApis) dispatch(data.util.resetApiState());
    },
  });
  invalidateAcrossAreas(listeners);
  // Countries are fetched once a token is held: at sign-in, or at start with a kept token.
  listeners.startListening({
    matcher: (action) => login.fulfilled.match(action) || loginWithTokenParam.match(action),
    effect: (_action, { dispatch }) => {
      dispatch(loadCountries());
    },
  });

  const persistor = persistStore(store);
  if (store.getState().auth.token) store.dispatch(loadCountries());
  return { store, persistor, listeners };
}

export type AppStore = ReturnType<typeof createStore>['store'];
export type AppDispatch = AppStore['dispatch'];
export type AppListeners = ReturnType<typeof createStore>['listeners'];
