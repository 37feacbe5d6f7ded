import type { FundComparisonRow } from '@data-platform/shared/analytics/fund-metrics-api';
import { Alert, Anchor, Card, Group, Loader, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { recordPath } from '../../entity/record-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { isApiFailure } from '../../store/http.ts';
import { useFundComparisonQuery } from './analytics-api.ts';
import {
  type ComparisonKey,
  type ComparisonSort,
  comparisonKeys,
  nextComparisonSort,
  sortComparison,
} from './comparison.ts';
import { metricText } from './metric-text.ts';

const DEFAULT_SORT: ComparisonSort = { key: 'tvpi', direction: 'desc' };

/** `?sort=-tvpi`: the column and the direction (a minus for descending), else the default. */
function sortFrom(search: URLSearchParams): ComparisonSort {
  const text = search.get('sort') ?? '';
  const key = text.replace(/^-/, '') as ComparisonKey;
  if (!comparisonKeys.includes(key)) return DEFAULT_SORT;
  return { key, direction: text.startsWith('-') ? 'desc' : 'asc' };
}

/**
 * `/funds/compare`: every fund the user reads with its vintage, strategy,
 * size, TVPI, DPI and net IRR at its latest NAV, and its quartile by TVPI
 * among the funds of the same vintage year and strategy (with how many they
 * are), sortable on each column (`GET /funds/comparison`).
 */
export function FundComparisonPage() {
  const { t, i18n } = useTranslation(['funds', 'common', 'options', 'entities']);
  const format = useFormat();
  const localized = useLocalizedPath();
  const [search, setSearch] = useSearchParams();
  const sort = sortFrom(search);
  const { data, error, isLoading } = useFundComparisonQuery();
  const collator = useMemo(() => new Intl.Collator(i18n.resolvedLanguage, { sensitivity: 'base' }), [i18n]);
  const rows = useMemo(() => sortComparison(data?.funds ?? [], sort, collator), [data, sort, collator]);
  const fieldLabel = (key: ComparisonKey) => t(`compare.columns.${key}`);

  const onSort = (key: ComparisonKey) => {
    const next = nextComparisonSort(sort, key);
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('sort', `${next.direction === 'desc' ? '-' : ''}${key}`);
        return params;
      },
      { replace: true },
    );
  };

  const heading = (key: ComparisonKey, end = false) => {
    const active = sort.key === key;
    const Icon = active ? (sort.direction === 'asc' ? IconArrowUp : IconArrowDown) : IconSelector;
    return (
      <Table.Th
        key={key}
        scope="col"
        ta={end ? 'end' : undefined}
        aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      >
        <UnstyledButton onClick={() => onSort(key)} fw={600} fz="sm" data-testid={`sort-${key}`}>
          <Group gap={4} wrap="nowrap" justify={end ? 'flex-end' : undefined}>
            {fieldLabel(key)}
            <Icon size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

  const quartileText = (row: FundComparisonRow) =>
    row.quartile.value === null
      ? t(`compare.notRanked.${row.quartile.reason ?? 'no_peers'}`)
      : t('compare.quartile', { quartile: row.quartile.value, count: row.quartile.peers });

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to={localized('/funds')} size="sm">
          {t('compare.backToFunds')}
        </Anchor>
        <Title order={1} size="h2">
          {t('compare.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('compare.intro')}
        </Text>
      </div>
      {isLoading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      {error ? (
        <Alert color="red" role="alert" title={t('compare.failed')}>
          {isApiFailure(error) ? error.message : null}
        </Alert>
      ) : null}
      {data ? (
        <Card withBorder padding={0}>
          {rows.length === 0 ? (
            <Text size="sm" c="dimmed" p="md">
              {t('compare.none')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={900} type="native">
              <Table striped highlightOnHover verticalSpacing="xs" data-testid="comparison-table">
                <caption style={{ captionSide: 'top', textAlign: 'start', padding: 'var(--mantine-spacing-sm)' }}>
                  <Text size="sm" c="dimmed" span>
                    {t('compare.caption', {
                      count: rows.length,
                      column: fieldLabel(sort.key),
                      direction: t(`compare.${sort.direction}`),
                    })}
                  </Text>
                </caption>
                <Table.Thead>
                  <Table.Tr>
                    {heading('name')}
                    {heading('vintageYear', true)}
                    {heading('strategy')}
                    {heading('size', true)}
                    {heading('tvpi', true)}
                    {heading('dpi', true)}
                    {heading('irr', true)}
                    {heading('quartile')}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => {
                    const path = recordPath('funds', row.id, 'show');
                    const irr = metricText(t, format, row.irr, 'rate');
                    const tvpi = metricText(t, format, row.tvpi, 'multiple');
                    const dpi = metricText(t, format, row.dpi, 'multiple');
                    return (
                      <Table.Tr key={row.id} data-testid="comparison-row">
                        <Table.Th scope="row" fw="normal">
                          {path ? (
                            <Anchor component={Link} to={localized(path)} size="sm">
                              {row.name ?? `#${row.id}`}
                            </Anchor>
                          ) : (
                            row.name
                          )}
                        </Table.Th>
                        <Table.Td ta="end">{row.vintageYear ?? '—'}</Table.Td>
                        <Table.Td>
                          {row.strategy
                            ? t(row.strategy, { ns: 'options', keySeparator: false, nsSeparator: false })
                            : '—'}
                        </Table.Td>
                        <Table.Td ta="end">
                          {row.size === null
                            ? '—'
                            : row.currency
                              ? format.money({ amount: row.size, currency: row.currency })
                              : format.number(row.size)}
                        </Table.Td>
                        <Table.Td ta="end" title={tvpi.note}>
                          {tvpi.text}
                        </Table.Td>
                        <Table.Td ta="end" title={dpi.note}>
                          {dpi.text}
                        </Table.Td>
                        <Table.Td ta="end" title={irr.note}>
                          {irr.text}
                          {irr.defined && row.irr.annualised === false ? (
                            <Text span size="xs" c="dimmed" display="block">
                              {t('notAnnualisedShort')}
                            </Text>
                          ) : null}
                        </Table.Td>
                        <Table.Td data-testid="quartile">{quartileText(row)}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      ) : null}
    </Stack>
  );
}
