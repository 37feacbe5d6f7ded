import type { FundMetricsAnswer } from '@data-platform/shared/analytics/fund-metrics-api';
import { Card, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format.ts';
import { JCurveChart, LinesChart } from './lazy-charts.tsx';
import { compactMoney, metricText, percentOf } from './metric-text.ts';
import { quarterPoints } from './series.ts';

/**
 * The fund's quarters as two charts, TVPI, DPI and RVPI with the net IRR, and
 * the J-curve of cumulative net cash flow, then the same figures as a table
 * (what screen readers and keyboards use: the charts are hidden from them).
 */
export function FundCharts({ answer, currency }: { answer: FundMetricsAnswer; currency: string | null }) {
  const { t, i18n } = useTranslation('funds');
  const format = useFormat();
  const money = (amount: number) => (currency ? format.money({ amount, currency }) : format.number(amount));
  const points = quarterPoints(answer.series);
  const withIndex = answer.index !== null;
  if (points.length === 0) {
    return (
      <Card withBorder component="section" aria-labelledby="fund-charts-title">
        <Title order={2} size="h4" id="fund-charts-title" mb="sm">
          {t('charts.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('charts.empty')}
        </Text>
      </Card>
    );
  }
  return (
    <Card withBorder component="section" aria-labelledby="fund-charts-title" data-testid="fund-charts">
      <Title order={2} size="h4" id="fund-charts-title" mb="sm">
        {t('charts.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <div>
          <Title order={3} size="h5" mb="xs">
            {t('charts.multiples')}
          </Title>
          <LinesChart
            testId="multiples-chart"
            points={points}
            series={[
              { key: 'tvpi', name: t('metrics.tvpi') },
              { key: 'dpi', name: t('metrics.dpi') },
              { key: 'rvpi', name: t('metrics.rvpi') },
              { key: 'irr', name: t('metrics.irr'), right: true },
            ]}
            dateFormat={format.date}
            leftFormat={format.multiple}
            rightFormat={(value) => percentOf(format, value)}
          />
        </div>
        <div>
          <Title order={3} size="h5" mb="xs">
            {t('charts.jCurve')}
          </Title>
          <JCurveChart
            testId="j-curve-chart"
            points={points.map(({ date, netCashFlow }) => ({ date, netCashFlow }))}
            name={t('charts.netCashFlow')}
            dateFormat={format.date}
            moneyFormat={(amount) =>
              currency ? compactMoney(i18n.resolvedLanguage ?? 'en', currency, amount) : format.compact(amount)
            }
          />
        </div>
      </SimpleGrid>
      <details data-testid="quarters-details">
        <summary>
          <Text span size="sm">
            {t('charts.asTable')}
          </Text>
        </summary>
        <Table.ScrollContainer minWidth={760} type="native">
          <Table fz="sm" verticalSpacing={4} data-testid="quarters-table">
            <caption>{t('charts.tableCaption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('charts.quarterEnd')}</Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('metrics.paidIn')}
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('metrics.distributed')}
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('metrics.nav')}
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('charts.netCashFlow')}
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('metrics.dpi')}
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('metrics.rvpi')}
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('metrics.tvpi')}
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  {t('metrics.irr')}
                </Table.Th>
                {withIndex ? (
                  <>
                    <Table.Th scope="col" ta="end">
                      {t('pme.ksPme')}
                    </Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('pme.directAlpha')}
                    </Table.Th>
                  </>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {answer.series.map((point) => {
                const cell = (text: string, note?: string) => (
                  <Table.Td ta="end" title={note}>
                    {text}
                  </Table.Td>
                );
                const shown = (metric: Parameters<typeof metricText>[2], kind: Parameters<typeof metricText>[3]) => {
                  const text = metricText(t, format, metric, kind, currency);
                  return cell(text.text, text.note);
                };
                return (
                  <Table.Tr key={point.date}>
                    <Table.Th scope="row" fw="normal">
                      {format.date(point.date)}
                    </Table.Th>
                    {cell(money(point.paidIn))}
                    {cell(money(point.distributed))}
                    {cell(
                      point.navKind === 'cost' ? t('charts.atCost', { amount: money(point.nav) }) : money(point.nav),
                    )}
                    {cell(money(point.netCashFlow))}
                    {shown(point.dpi, 'multiple')}
                    {shown(point.rvpi, 'multiple')}
                    {shown(point.tvpi, 'multiple')}
                    {shown(point.irr, 'rate')}
                    {withIndex ? (
                      <>
                        {shown(point.ksPme ?? { value: null }, 'multiple')}
                        {shown(point.directAlpha ?? { value: null }, 'rate')}
                      </>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </details>
    </Card>
  );
}
