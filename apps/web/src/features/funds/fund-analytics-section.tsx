import type { FundMetricsAnswer } from '@data-platform/shared/analytics/fund-metrics-api';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListInfiniteQuery } from '../../entity/record-api.ts';
import { useFormat } from '../../i18n/format.ts';
import { isApiFailure } from '../../store/http.ts';
import type { Row } from '../../store/resource-slices.ts';
import { useFundMetricsQuery } from './analytics-api.ts';
import { CashFlowPanel } from './cash-flow-panel.tsx';
import { ComputePerformances } from './compute-performances.tsx';
import { FundCharts } from './fund-charts-card.tsx';
import { type MetricKind, metricText, type RateLike } from './metric-text.ts';
import { MetricTile } from './metric-tile.tsx';

/** The benchmark indexes to compare with, by name (the first hundred: a user uploads a handful). */
const INDEX_PARAMS: [string, string][] = [
  ['select', 'name,currency'],
  ['sort', 'name'],
  ['pageSize', '100'],
];

type Metrics = FundMetricsAnswer['metrics'];

/** The tiles at the as-of date, in the order an LP reads them. */
const TILES: { key: string; kind: MetricKind; pick: (metrics: Metrics) => RateLike }[] = [
  { key: 'paidIn', kind: 'money', pick: (metrics) => metrics.paidIn },
  { key: 'distributed', kind: 'money', pick: (metrics) => metrics.distributed },
  { key: 'nav', kind: 'money', pick: (metrics) => metrics.nav },
  { key: 'dpi', kind: 'multiple', pick: (metrics) => metrics.dpi },
  { key: 'rvpi', kind: 'multiple', pick: (metrics) => metrics.rvpi },
  { key: 'tvpi', kind: 'multiple', pick: (metrics) => metrics.tvpi },
  { key: 'irr', kind: 'rate', pick: (metrics) => metrics.irr },
  { key: 'pic', kind: 'ratio', pick: (metrics) => metrics.pic },
];

/** Against the chosen index: Kaplan–Schoar, Long–Nickels (IRR and spread), PME+ (IRR and lambda), Direct Alpha. */
const PME_TILES: { key: string; kind: MetricKind | 'number'; pick: (metrics: Metrics) => RateLike }[] = [
  { key: 'ksPme', kind: 'multiple', pick: (metrics) => metrics.ksPme },
  { key: 'lnPmeIrr', kind: 'rate', pick: (metrics) => metrics.lnPme.irr },
  { key: 'lnPmeSpread', kind: 'ratio', pick: (metrics) => metrics.lnPme.spread },
  { key: 'pmePlusIrr', kind: 'rate', pick: (metrics) => metrics.pmePlus.irr },
  { key: 'pmePlusLambda', kind: 'number', pick: (metrics) => metrics.pmePlus.lambda },
  { key: 'directAlpha', kind: 'rate', pick: (metrics) => metrics.directAlpha },
];

/**
 * A fund's analytics on its page (issue 15): the metrics at the latest date
 * (or a date picked), PME against a benchmark index picked, the quarterly
 * charts with their table, and the cash flows with add and edit. Every figure
 * comes from `GET /funds/{id}/metrics`, computed by the same code as the API's
 * calculator.
 */
export function FundAnalyticsSection({ id, record }: { id: number; record: Row }) {
  const { t } = useTranslation(['funds', 'common']);
  const format = useFormat();
  const [asOf, setAsOf] = useState('');
  const [index, setIndex] = useState('');
  const indexes = useListInfiniteQuery({ resource: 'benchmarkIndexes', params: INDEX_PARAMS });
  const indexRows = indexes.data?.pages.flatMap((page) => page.data) ?? [];
  const { data, error, isFetching } = useFundMetricsQuery({
    id,
    ...(asOf ? { asOf } : {}),
    ...(index ? { index: Number(index) } : {}),
  });
  const currency = data?.currency ?? (typeof record.currency === 'string' ? record.currency : null);

  return (
    <Stack gap="lg" data-testid="fund-analytics">
      <Card withBorder component="section" aria-labelledby="fund-metrics-title">
        <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="fund-metrics-title">
              {t('section.title')}
            </Title>
            {data ? (
              <Text size="sm" c="dimmed" data-testid="metrics-as-of">
                {t('section.asOf', { date: format.date(data.asOf), count: data.flowCount })}
              </Text>
            ) : null}
          </div>
          <Group gap="sm" align="flex-end">
            <TextInput
              type="date"
              label={t('section.asOfPicker')}
              value={asOf || data?.asOf || ''}
              onChange={(event) => setAsOf(event.currentTarget.value)}
              size="xs"
              data-testid="as-of-picker"
            />
            {asOf ? (
              <Button variant="default" size="xs" onClick={() => setAsOf('')}>
                {t('section.latest')}
              </Button>
            ) : null}
            <NativeSelect
              label={t('section.indexPicker')}
              value={index}
              onChange={(event) => setIndex(event.currentTarget.value)}
              size="xs"
              data={[
                { value: '', label: t('section.noIndex') },
                ...indexRows.map((row) => ({
                  value: String(row.id),
                  label: row.currency ? `${String(row.name)} (${String(row.currency)})` : String(row.name),
                })),
              ]}
            />
            {isFetching ? <Loader size="xs" role="status" aria-label={t('common:list.loading')} /> : null}
            {data ? <ComputePerformances fundId={id} flowCount={data.flowCount} /> : null}
          </Group>
        </Group>
        {error ? (
          <Alert color="red" role="alert" title={t('section.failed')}>
            {isApiFailure(error) ? error.message : null}
          </Alert>
        ) : null}
        {data && data.otherCurrencyFlows > 0 ? (
          <Alert color="yellow" mb="sm" data-testid="other-currency-flows">
            {t('section.otherCurrency', { count: data.otherCurrencyFlows, currency: data.currency ?? '' })}
          </Alert>
        ) : null}
        {data ? (
          <>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="metric-tiles">
              {TILES.map(({ key, kind, pick }) => (
                <MetricTile
                  key={key}
                  testId={`metric-${key}`}
                  label={t(`metrics.${key}`)}
                  shown={metricText(t, format, pick(data.metrics), kind, currency)}
                />
              ))}
            </SimpleGrid>
            {data.navSource.kind !== 'record' ? (
              <Text size="xs" c="dimmed" mt="xs" data-testid="nav-source">
                {t('section.navCost')}
              </Text>
            ) : data.navSource.date ? (
              <Text size="xs" c="dimmed" mt="xs" data-testid="nav-source">
                {t(data.navSource.rolledForward !== 0 ? 'section.navRolled' : 'section.navFrom', {
                  date: format.date(data.navSource.date),
                  source: t(`source.${data.navSource.source ?? 'manual'}`),
                })}
              </Text>
            ) : null}
          </>
        ) : null}
      </Card>

      {data ? <FundCharts answer={data} currency={currency} /> : null}

      {data ? (
        <Card withBorder component="section" aria-labelledby="fund-pme-title" data-testid="fund-pme">
          <Title order={2} size="h4" id="fund-pme-title" mb="sm">
            {data.index ? t('pme.titleWith', { index: data.index.name }) : t('pme.title')}
          </Title>
          {data.index ? (
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
              {PME_TILES.map(({ key, kind, pick }) => {
                const metric = pick(data.metrics);
                const shown =
                  kind === 'number'
                    ? metric.value === null
                      ? metricText(t, format, metric, 'multiple')
                      : { text: format.number(metric.value), defined: true }
                    : metricText(t, format, metric, kind);
                return <MetricTile key={key} testId={`pme-${key}`} label={t(`pme.${key}`)} shown={shown} />;
              })}
            </SimpleGrid>
          ) : (
            <Text size="sm" c="dimmed">
              {indexRows.length > 0 ? t('pme.pick') : t('pme.noIndexes')}
            </Text>
          )}
        </Card>
      ) : null}

      <CashFlowPanel fundId={id} currency={currency} />
    </Stack>
  );
}
