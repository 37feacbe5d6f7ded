import { allPermissions } from '@data-platform/shared/permissions';
import { AppShell, Burger, Group, Image, NavLink, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconArrowsExchange,
  IconBuildingBank,
  IconBuildingSkyscraper,
  IconChartBar,
  IconChartLine,
  IconCoins,
  IconDatabaseCog,
  IconFileImport,
  IconHome,
  IconListCheck,
  IconMail,
  IconPigMoney,
  IconSearch,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { canImportAny, canRead, holds } from '../entity/access.ts';
import { RecordModalSlot, type RecordModals } from '../entity/record-modal-slot.tsx';
import { availableResourceRoutes } from '../entity/resource-routes.ts';
import { loadToasts } from '../entity/toasts.ts';
import { loadFeatureNamespaces } from '../i18n/i18n.ts';
import { stripLanguage } from '../i18n/languages.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useAppSelector } from '../store/hooks.ts';
import logo from './logo.svg';
import { InsideMain } from './main-landmark.ts';
import classes from './shell.module.css';
import { signInPathFor } from './sign-in-path.ts';
import { UserMenu } from './user-menu.tsx';

const icons: Record<string, typeof IconHome> = {
  companies: IconBuildingSkyscraper,
  funds: IconPigMoney,
  contacts: IconUsersGroup,
  firms: IconBuildingBank,
  deals: IconArrowsExchange,
  investors: IconCoins,
  fundPerformances: IconChartLine,
  tasks: IconListCheck,
  users: IconUsers,
  entityFieldTypes: IconDatabaseCog,
};

/** The create and edit modals of resources that do not use the generic ones (the spec's route table). */
const featureModals: Record<string, RecordModals> = {
  users: {
    create: lazy(async () => ({ default: (await import('../features/users/invite-user-modal.tsx')).InviteUserModal })),
    edit: lazy(async () => ({ default: (await import('../features/users/edit-user-modal.tsx')).EditUserModal })),
  },
};

/** The search palette, fetched with its texts when first opened: the shell holds only its button and shortcut. */
const CommandPalette = lazy(async () => {
  const [loaded] = await Promise.all([
    import('../features/search/command-palette.tsx'),
    loadFeatureNamespaces('search'),
  ]);
  return { default: loaded.CommandPalette };
});

/** Ctrl-K, or ⌘-K on a Mac, anywhere: opens the search palette. */
function useSearchShortcut(open: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open]);
}

/** The signed-in layout: header with the search, the user's menu, sidebar, and the page. */
export function Shell() {
  // The signed-in pages show messages through react-toastify directly: its container mounts with the shell.
  useEffect(() => {
    void loadToasts();
  }, []);
  const { t } = useTranslation(['common', 'entities']);
  const [opened, { toggle, close }] = useDisclosure();
  // Mounted from the first opening on, so that it keeps its state (and its code stays unfetched until then).
  const [search, setSearch] = useState<'never' | 'open' | 'closed'>('never');
  const openSearch = useMemo(() => () => setSearch('open'), []);
  useSearchShortcut(openSearch);
  // Below the `sm` breakpoint the closed sidebar is off screen: out of the tab order and the accessibility tree too.
  const narrow = useMediaQuery('(max-width: 47.99em)');
  const location = useLocation();
  const localized = useLocalizedPath();
  const token = useAppSelector((state) => state.auth.token);
  const user = useAppSelector((state) => state.auth.currentUser?.user);

  // The session ended (signed out elsewhere, expired, revoked): sign in, then come back here.
  if (!token) return <Navigate to={signInPathFor(location.pathname, location.search)} replace />;

  const current = stripLanguage(location.pathname);
  // A list screen (its root or one of its saved views) opens the create or edit modal when asked by `?create=1`, `?edit=<id>`.
  const listResource = availableResourceRoutes.find(
    (route) => current === route.path || current.startsWith(`${route.path}/views/`),
  )?.resource;
  const links = [
    { path: '/', label: t('nav.home'), Icon: IconHome },
    ...availableResourceRoutes
      .filter((route) => route.sidebar !== false && canRead(user, route.resource))
      .flatMap((route) => [
        {
          path: route.path,
          label: route.labelKey ? t(route.labelKey) : t(`entities:resources.${route.resource}.other`),
          Icon: icons[route.resource] ?? IconDatabaseCog,
        },
        // The comparison of funds sits under the funds.
        ...(route.resource === 'funds'
          ? [{ path: '/funds/compare', label: t('nav.compareFunds'), Icon: IconChartBar }]
          : []),
      ]),
    // Past imports of every kind, for whoever may import any.
    ...(canImportAny(user) ? [{ path: '/imports', label: t('nav.imports'), Icon: IconFileImport }] : []),
    // The outbox shows mail (with sign-in links) to administrators only: every permission.
    ...(holds(user, allPermissions) ? [{ path: '/outbox', label: t('nav.outbox'), Icon: IconMail }] : []),
  ];
  // The link whose path is the longest start of the current one (segment by segment): /funds/compare is not /funds.
  const activePath = links
    .map((link) => link.path)
    .filter((path) => current === path || (path !== '/' && current.startsWith(`${path}/`)))
    .sort((a, b) => b.length - a.length)[0];
  const isActive = (path: string) => path === activePath;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <a href="#main" className={classes.skip}>
        {t('nav.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.toggle')} />
            <UnstyledButton component={Link} to={localized('/')} className={classes.brand}>
              <Group gap="xs" wrap="nowrap">
                <Image src={logo} alt="" w={28} h={28} />
                <Text fw={700}>{t('appName')}</Text>
              </Group>
            </UnstyledButton>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <UnstyledButton className={classes.search} onClick={openSearch} aria-keyshortcuts="Control+K Meta+K">
              <IconSearch size={16} aria-hidden />
              <span className={classes.searchLabel}>{t('list.search')}</span>
              <kbd className={classes.kbd} aria-hidden>
                {/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl K'}
              </kbd>
            </UnstyledButton>
            {user ? <UserMenu user={user} /> : null}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('nav.main')} inert={narrow && !opened}>
        {/* The browser's own scrolling: Mantine's ScrollArea would bring its positioning library to every first screen (issue #11). */}
        <div className={classes.links}>
          {links.map(({ path, label, Icon }) => (
            <NavLink
              key={path}
              component={Link}
              to={localized(path)}
              label={label}
              leftSection={<Icon size={18} aria-hidden />}
              active={isActive(path)}
              aria-current={isActive(path) ? 'page' : undefined}
              onClick={close}
            />
          ))}
        </div>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <InsideMain.Provider value={true}>{user ? <Outlet /> : null}</InsideMain.Provider>
        {user && listResource ? <RecordModalSlot resource={listResource} modals={featureModals[listResource]} /> : null}
        {search === 'never' ? null : (
          <Suspense fallback={null}>
            <CommandPalette opened={search === 'open'} onClose={() => setSearch('closed')} />
          </Suspense>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
