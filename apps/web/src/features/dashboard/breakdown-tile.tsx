import type { GroupCount } from '@data-platform/shared/summaries';
import { Anchor, Card, Skeleton, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFieldLabel } from '../../entity/cell-value.tsx';
import { filterSearch, listPathOf } from '../../entity/resource-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { AXIS_HEIGHT, BAR_ROW } from './chart-size.ts';

// The charting library (recharts) loads with the first chart shown, not with the dashboard's code.
const BreakdownChart = lazy(() => import('./breakdown-chart.tsx'));

/**
 * Counts of one picklist field's values as a bar chart (a pipeline as a
 * funnel, in the picklist's order), and the same figures as a table: each
 * value a link to the list filtered on it, with the sums of the money field
 * per currency where the breakdown has one. The table is what screen readers
 * and keyboards use; the chart is hidden from them.
 */
export function BreakdownTile({
  title,
  testId,
  resource,
  field,
  amountField,
  groups,
}: {
  title: string;
  testId: string;
  resource: string;
  field: string;
  amountField: string | undefined;
  groups: GroupCount[];
}) {
  const { t } = useTranslation(['dashboard', 'common', 'options', 'entities']);
  const format = useFormat();
  const localized = useLocalizedPath();
  const fieldLabel = useFieldLabel(resource);
  const listPath = listPathOf(resource);
  const countLabel = t(`entities:resources.${resource}.other`);
  const named = groups.map((group) => ({
    ...group,
    label:
      group.value === null
        ? t('common:values.notSet')
        : t(group.value, { ns: 'options', keySeparator: false, nsSeparator: false }),
  }));
  const withAmounts = amountField !== undefined && groups.some((group) => group.amounts !== undefined);
  const empty = groups.every((group) => group.count === 0);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {empty ? (
        <Text c="dimmed" size="sm">
          {t('noData')}
        </Text>
      ) : (
        <>
          <div aria-hidden data-testid="breakdown-chart">
            <Suspense fallback={<Skeleton height={named.length * BAR_ROW + AXIS_HEIGHT} />}>
              <BreakdownChart
                bars={named.map(({ label, count }) => ({ label, count }))}
                countLabel={countLabel}
                numberFormat={format.number}
              />
            </Suspense>
          </div>
          <Table fz="sm" verticalSpacing={4} mt="sm" data-testid="breakdown-table">
            <VisuallyHidden component="caption">{t('chartAsTable', { title })}</VisuallyHidden>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{fieldLabel(field)}</Table.Th>
                <Table.Th scope="col" ta="end">
                  {countLabel}
                </Table.Th>
                {withAmounts ? (
                  <Table.Th scope="col" ta="end">
                    {fieldLabel(amountField)}
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {named.map(({ value, label, count, amounts }) => {
                const search = value === null ? filterSearch(field, 'isNull') : filterSearch(field, 'eq', value);
                return (
                  <Table.Tr key={value ?? ''}>
                    <Table.Th scope="row" fw="normal">
                      {listPath ? (
                        <Anchor component={Link} to={localized(`${listPath}${search}`)} size="sm">
                          {label}
                        </Anchor>
                      ) : (
                        label
                      )}
                    </Table.Th>
                    <Table.Td ta="end">{format.number(count)}</Table.Td>
                    {withAmounts ? (
                      <Table.Td ta="end">
                        {amounts && amounts.length > 0 ? amounts.map((money) => format.money(money)).join(' · ') : '—'}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Card>
  );
}
