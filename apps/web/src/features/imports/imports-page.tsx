import { Alert, Anchor, Button, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useImportHistoryInfiniteQuery } from '../../entity/import/import-api.ts';
import { ImportsTable } from '../../entity/import/imports-table.tsx';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAppSelector } from '../../store/hooks.ts';
import { importableLists, importJobPath } from './import-links.ts';

/**
 * Imports: every import of the signed-in user, of any kind of record, newest
 * first, a page at a time; Open goes to the records' list with the wizard on
 * the job (its result, bad rows, undo).
 */
export function ImportsPage() {
  const { t } = useTranslation(['transfer', 'common', 'entities']);
  const localized = useLocalizedPath();
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  const { data, error, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useImportHistoryInfiniteQuery(
    undefined,
    { refetchOnMountOrArgChange: true },
  );
  const jobs = data?.pages.flatMap((page) => page.data) ?? [];
  const lists = importableLists(user);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('imports.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('imports.intro')}
      </Text>
      {error ? (
        <Alert color="red" role="alert">
          {error.message}
        </Alert>
      ) : null}
      {isLoading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      {data && jobs.length === 0 ? (
        <Stack gap="xs" data-testid="imports-empty">
          <Text>{t('imports.empty')}</Text>
          {lists.length > 0 ? (
            <>
              <Text size="sm">{t('imports.howToStart')}</Text>
              <List size="sm" aria-label={t('imports.lists')}>
                {lists.map((route) => (
                  <List.Item key={route.path}>
                    <Anchor component={Link} to={localized(route.path)}>
                      {route.labelKey ? t(`common:${route.labelKey}`) : t(`entities:resources.${route.resource}.other`)}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            </>
          ) : null}
        </Stack>
      ) : null}
      {jobs.length > 0 ? (
        <div data-testid="imports">
          <ImportsTable
            jobs={jobs}
            withRecordType
            openingOf={(job) => {
              const path = importJobPath(user, job);
              return path === undefined ? undefined : { to: localized(path) };
            }}
          />
        </div>
      ) : null}
      {hasNextPage ? (
        <Group justify="center">
          <Button variant="default" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {t('common:actions.loadMore')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
