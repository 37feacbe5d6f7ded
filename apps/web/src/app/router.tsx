import type { Permission } from '@data-platform/shared/permissions';
import { type ComponentType, isValidElement, type ReactElement, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createBrowserRouter,
  data,
  type LoaderFunctionArgs,
  Outlet,
  type RouteObject,
  redirect,
  ScrollRestoration,
  useLoaderData,
  useLocation,
} from 'react-router';
import { allPermissions, canImportAny, canRead, holds } from '../entity/access.ts';
import { type RecordSections, recordPageRoutes } from '../entity/record-page-routes.tsx';
import { availableResourceRoutes } from '../entity/resource-routes.ts';
import { i18n, loadFeatureNamespaces, loadSignedInNamespaces } from '../i18n/i18n.ts';
import { languageOfPath, languages } from '../i18n/languages.ts';
import { type CurrentUser, loadCurrentUser } from '../store/auth-slice.ts';
import type { ResourceArea } from '../store/resource-slices.ts';
import type { AppStore, LoadDataAreas } from '../store/store.ts';
import { ErrorPage } from './error-page.tsx';
import { PublicLayout } from './public-layout.tsx';
import { signInPathFor } from './sign-in-path.ts';

/** The router's top: follows a language named in the address, restores scrolling. */
function Root() {
  const { i18n: instance } = useTranslation();
  const language = languageOfPath(useLocation().pathname);
  useEffect(() => {
    if (language && language !== instance.resolvedLanguage) void instance.changeLanguage(language);
  }, [language, instance]);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** Nothing shows while the first loaders run: the splash covers that moment. */
function NothingYet() {
  return null;
}

type Guard = (args: LoaderFunctionArgs) => Promise<unknown>;

/** The page its route's loader loaded (see guardedPage). */
function LoadedPage() {
  return useLoaderData<ReactElement>();
}

/**
 * A route whose module loads only once its guard lets the user through: a
 * route's `lazy` loads in parallel with its loader, so a signed-out visit of
 * `/` would fetch the home page's code only to be sent to sign-in (issue #11:
 * the first screen's JavaScript is budgeted). With a kept session (a token)
 * the code loads while the guard asks the server who the user is. The loader
 * answers the page's element, made once.
 */
function guardedPage(
  guard: Guard,
  load: () => Promise<ReactElement>,
  mayLoadEarly: () => boolean,
): Pick<RouteObject, 'loader' | 'Component'> {
  let loading: Promise<ReactElement> | undefined;
  const loadOnce = () => {
    if (!loading) {
      loading = load();
      // A failed load is tried again on the next visit.
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  };
  return {
    loader: async (args) => {
      const early = mayLoadEarly() ? loadOnce() : undefined;
      await guard(args);
      return early ?? loadOnce();
    },
    Component: LoadedPage,
  };
}

/** List screens that are more than the generic list (users: invitations, access requests, Manage roles; custom data: its groups). */
const featureListPages: Partial<Record<ResourceArea, () => Promise<ComponentType>>> = {
  users: async () => (await import('../features/users/users-page.tsx')).UsersPage,
  entityFieldTypes: async () => (await import('../features/custom-data/custom-data-page.tsx')).CustomDataPage,
  funds: async () => (await fundScreens()).listPage(),
  deals: async () => (await pipelineScreens()).dealsListPage(),
};

/** The funds screens' loaders, one small module (see features/funds/screens.ts). */
const fundScreens = async () => (await import('../features/funds/screens.ts')).fundScreens;

/** The deal pipeline's screens: the deals list with its Board toggle, the board (features/pipeline/screens.ts). */
const pipelineScreens = async () => (await import('../features/pipeline/screens.ts')).pipelineScreens;

/** Show pages with a section of their own: a fund's analytics and cash flows, how a performance record was made, a deal's stages. */
const recordSections: RecordSections = {
  funds: async () => (await fundScreens()).fundSection(),
  fundPerformances: async () => (await fundScreens()).performanceSection(),
  deals: async () => (await pipelineScreens()).stageSection(),
};

const forbidden = () => data(null, { status: 403, statusText: i18n.t('errors:forbidden') });

/**
 * Builds the routes; loaders read the store (who is signed in, what they may
 * do). The screens that call the server through RTK Query (the signed-in
 * shell's, the account screens) show once `loadDataAreas` has injected the
 * data areas into the store.
 */
export function createAppRouter(store: AppStore, loadDataAreas: LoadDataAreas) {
  let loadingUser: Promise<unknown> | undefined;

  /** The signed-in user, loading it once when only the token is known (a kept session). */
  async function signedInUser(): Promise<CurrentUser | undefined> {
    const { auth } = store.getState();
    if (!auth.token) return undefined;
    if (auth.currentUser) return auth.currentUser.user;
    loadingUser ??= store.dispatch(loadCurrentUser()).finally(() => {
      loadingUser = undefined;
    });
    const result = await loadingUser;
    const user = store.getState().auth.currentUser?.user;
    if (!user && store.getState().auth.token && loadCurrentUser.rejected.match(result)) {
      // Not a session end (that signs out): the server is down or failing.
      throw data(null, { status: result.payload?.status || 503, statusText: result.payload?.message });
    }
    return user;
  }

  async function requireUser({ request }: LoaderFunctionArgs): Promise<CurrentUser> {
    const user = await signedInUser();
    if (!user) {
      const url = new URL(request.url);
      throw redirect(signInPathFor(url.pathname, url.search));
    }
    return user;
  }

  const requireRead = (resource: string) => async (args: LoaderFunctionArgs) => {
    if (!canRead(await requireUser(args), resource)) throw forbidden();
    return null;
  };
  const requirePermission =
    (...permissions: Permission[]) =>
    async (args: LoaderFunctionArgs) => {
      if (!holds(await requireUser(args), permissions)) throw forbidden();
      return null;
    };
  const requireImportRight = async (args: LoaderFunctionArgs) => {
    if (!canImportAny(await requireUser(args))) throw forbidden();
    return null;
  };

  /** A public screen's module; an account screen's also waits for the data areas (its calls are RTK Query's). */
  const publicPage = (load: () => Promise<ComponentType>, callsServer: boolean) => async () => {
    const [Component] = await Promise.all([load(), callsServer ? loadDataAreas() : undefined]);
    return { Component };
  };
  const publicRoutes: RouteObject[] = [
    {
      path: 'sign-in',
      lazy: publicPage(async () => (await import('../features/auth/sign-in-page.tsx')).SignInPage, false),
    },
    {
      path: 'forgot-password',
      lazy: publicPage(
        async () => (await import('../features/auth/forgot-password-page.tsx')).ForgotPasswordPage,
        true,
      ),
    },
    {
      path: 'reset-password',
      lazy: publicPage(async () => (await import('../features/auth/reset-password-page.tsx')).ResetPasswordPage, true),
    },
    {
      path: 'register',
      lazy: publicPage(async () => (await import('../features/auth/register-page.tsx')).RegisterPage, true),
    },
  ];

  // With a kept session the page's code loads while the user is fetched; signed out, only after sign-in.
  const hasToken = () => store.getState().auth.token !== null;
  const page = (guard: Guard, load: () => Promise<ComponentType | ReactElement>) =>
    guardedPage(
      guard,
      async () => {
        const Page = await load();
        return isValidElement(Page) ? Page : <Page />;
      },
      hasToken,
    );

  const signedInRoutes: RouteObject[] = [
    {
      index: true,
      ...page(requireUser, async () => {
        const [{ HomePage }] = await Promise.all([
          import('../features/dashboard/home-page.tsx'),
          loadFeatureNamespaces('activity', 'funds'),
        ]);
        return HomePage;
      }),
    },
    // A list at its root path, and its saved views at `<root>/views/<slug>`.
    ...availableResourceRoutes.flatMap((route) =>
      [route.path.slice(1), `${route.path.slice(1)}/views/:slug`].map(
        (path): RouteObject => ({
          path,
          ...page(requireRead(route.resource), async () => {
            const feature = featureListPages[route.resource];
            if (feature) return feature();
            const { ListPage } = await import('../entity/list-page.tsx');
            return <ListPage resource={route.resource} rootPath={route.path} />;
          }),
        }),
      ),
    ),
    ...recordPageRoutes(
      requireUser,
      recordSections,
      async () => (await import('../features/history/parts.ts')).historyParts,
    ),
    {
      path: 'deals/board',
      ...page(requireRead('deals'), async () => (await pipelineScreens()).boardPage()),
    },
    {
      path: 'funds/compare',
      ...page(requireRead('funds'), async () => (await fundScreens()).comparisonPage()),
    },
    {
      path: ':resource/duplicates',
      ...page(requireUser, async () => (await import('../features/duplicates/screens.ts')).duplicatesPage()),
    },
    {
      path: 'users/:id/show',
      ...page(requireRead('users'), async () => (await import('../features/users/user-show-page.tsx')).UserShowPage),
    },
    {
      path: 'roles',
      ...page(
        requirePermission('roles:manage'),
        async () => (await import('../features/users/roles-page.tsx')).RolesPage,
      ),
    },
    {
      path: 'change-password',
      ...page(requireUser, async () => (await import('../features/auth/change-password-page.tsx')).ChangePasswordPage),
    },
    {
      path: 'imports',
      // The user's own imports, of every kind of record they may import.
      ...page(requireImportRight, async () => {
        const [{ ImportsPage }] = await Promise.all([
          import('../features/imports/imports-page.tsx'),
          loadFeatureNamespaces('transfer'),
        ]);
        return ImportsPage;
      }),
    },
    {
      path: 'outbox',
      // Mail with sign-in links is for administrators only (the API shows them nothing else).
      ...page(
        requirePermission(...allPermissions),
        async () => (await import('../features/outbox/outbox-page.tsx')).OutboxPage,
      ),
    },
  ];

  // The signed-in layout, the translations of the signed-in screens and the data areas come with the first signed-in
  // screen; its page shows once they are here (a route's element waits for every loader of the match).
  const loadShell = async () => {
    const [{ Shell }] = await Promise.all([import('./shell.tsx'), loadSignedInNamespaces(), loadDataAreas()]);
    return Shell;
  };

  const appRoutes: RouteObject[] = [
    { element: <PublicLayout />, children: publicRoutes },
    {
      ...page(requireUser, loadShell),
      // Errors of a signed-in page show inside the shell, with the sidebar still there.
      children: [{ errorElement: <ErrorPage />, children: signedInRoutes }],
    },
  ];

  return createBrowserRouter([
    {
      path: '/',
      element: <Root />,
      errorElement: <ErrorPage />,
      HydrateFallback: NothingYet,
      // Every screen also lives under a language prefix: /fr/deals shows the deals in French.
      children: [...appRoutes, ...languages.map((language) => ({ path: language, children: appRoutes }))],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
