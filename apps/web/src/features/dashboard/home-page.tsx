import { type BreakdownKey, breakdownAmountField, dashboardBreakdowns } from '@data-platform/shared/summaries';
import { Alert, Anchor, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { canRead } from '../../entity/access.ts';
import { listPathOf } from '../../entity/resource-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { formatTotal } from '../../i18n/totals.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { type GroupCount, loadSummaries } from '../../store/configs-slice.ts';
import { useAppDispatch, useAppSelector } from '../../store/hooks.ts';
import { PortfolioCard } from '../funds/portfolio-card.tsx';
import { ActivityCard } from './activity-card.tsx';
import { BreakdownTile } from './breakdown-tile.tsx';
import { MyRecordsCard } from './my-records-card.tsx';
import { MyTasksCard } from './my-tasks-card.tsx';
import { RecentNote } from './recent-note.tsx';

/** A link when there is somewhere to go, plain content otherwise. */
function MaybeLink({ to, children }: { to: string | undefined; children: ReactNode }) {
  return to ? (
    <Anchor component={Link} to={to} underline="hover" c="inherit" display="block">
      {children}
    </Anchor>
  ) : (
    children
  );
}

function Tile({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The landing page: the config summaries as a dashboard, each figure a way into its list. */
export function HomePage() {
  const { t } = useTranslation(['dashboard', 'common', 'entities']);
  const dispatch = useAppDispatch();
  const format = useFormat();
  const localized = useLocalizedPath();
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  const { summaries, error } = useAppSelector((state) => state.configs);
  const loading = useAppSelector((state) => state.lands.loading);

  useEffect(() => {
    void dispatch(loadSummaries());
  }, [dispatch]);

  const { counts, recentNotes, mine } = summaries;
  // Portfolio totals read the funds, their cash flows and their NAV statements (GET /analytics/portfolio).
  const readsPortfolio = ['funds', 'fundCashFlows', 'fundPerformances'].every((resource) => canRead(user, resource));

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('welcome', { name: user?.fullName ?? '' })}
        </Title>
        {loading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      </Group>
      {error ? (
        <Alert color="red" role="alert">
          {t('loadFailed', { message: error })}
        </Alert>
      ) : null}
      {counts ? (
        <section aria-label={t('counts')}>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" data-testid="dashboard-counts">
            {Object.entries(counts).map(([resource, { total, totalExact }]) => {
              const path = listPathOf(resource);
              return (
                <Card key={resource} withBorder radius="md" padding="md">
                  <MaybeLink to={path ? localized(path) : undefined}>
                    <Text size="sm" c="dimmed">
                      {t(`entities:resources.${resource}.other`)}
                    </Text>
                    <Text size="xl" fw={700}>
                      {formatTotal(total, totalExact, format, t)}
                    </Text>
                  </MaybeLink>
                </Card>
              );
            })}
          </SimpleGrid>
        </section>
      ) : null}
      {readsPortfolio ? <PortfolioCard /> : null}
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
        {mine ? <MyRecordsCard mine={mine} /> : null}
        <MyTasksCard />
        {dashboardBreakdowns.map(({ key, resource, field }) => {
          // The breakdown keys come from the descriptions at run time (see dashboardBreakdowns).
          const groups = (summaries as Partial<Record<BreakdownKey, GroupCount[]>>)[key];
          return groups ? (
            <BreakdownTile
              key={key}
              title={t(key)}
              testId={key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}
              resource={resource}
              field={field}
              amountField={breakdownAmountField(resource)}
              groups={groups}
            />
          ) : null;
        })}
        {recentNotes ? (
          <Tile title={t('recentNotes')} testId="recent-notes">
            {recentNotes.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('noNotes')}
              </Text>
            ) : (
              <Stack gap="sm">
                {recentNotes.map((note) => (
                  <RecentNote key={note.id} note={note} />
                ))}
              </Stack>
            )}
          </Tile>
        ) : null}
      </SimpleGrid>
      <ActivityCard />
    </Stack>
  );
}
