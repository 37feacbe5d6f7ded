import { Alert, Anchor, Card, Loader, NativeSelect, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { isApiFailure } from '../../store/http.ts';
import { usePortfolioQuery } from './analytics-api.ts';
import { LinesChart } from './lazy-charts.tsx';
import { compactMoney } from './metric-text.ts';

const FIGURES = ['committed', 'paidIn', 'distributed', 'nav'] as const;

/**
 * The home dashboard's portfolio totals (issue 15): committed, paid-in,
 * distributed and NAV across the funds, per currency (never added across
 * currencies), and their chart over quarters for one currency at a time with
 * the same figures as a table (`GET /analytics/portfolio`).
 */
export function PortfolioCard() {
  const { t, i18n } = useTranslation(['funds', 'common']);
  const format = useFormat();
  const localized = useLocalizedPath();
  const { data, error, isLoading } = usePortfolioQuery();
  const [picked, setPicked] = useState<string | undefined>();
  const title = t('portfolio.title');
  const currencies = data?.currencies ?? [];
  const shown = currencies.find((entry) => entry.currency === picked) ?? currencies[0];
  const money = (currency: string) => (amount: number) => format.money({ amount, currency });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid="portfolio-card">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {isLoading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      {error ? (
        <Alert color="red" role="alert" title={t('portfolio.failed')}>
          {isApiFailure(error) ? error.message : null}
        </Alert>
      ) : null}
      {data && currencies.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('portfolio.none')}
        </Text>
      ) : null}
      {data && shown ? (
        <>
          <Table fz="sm" verticalSpacing={4} data-testid="portfolio-totals">
            <VisuallyHidden component="caption">
              {t('portfolio.totalsCaption', { date: format.date(data.asOf) })}
            </VisuallyHidden>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('portfolio.currency')}</Table.Th>
                {FIGURES.map((figure) => (
                  <Table.Th key={figure} scope="col" ta="end">
                    {t(`portfolio.${figure}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {currencies.map((entry) => (
                <Table.Tr key={entry.currency}>
                  <Table.Th scope="row" fw="normal">
                    {t('portfolio.currencyFunds', { currency: entry.currency, count: entry.funds })}
                  </Table.Th>
                  {FIGURES.map((figure) => (
                    <Table.Td key={figure} ta="end">
                      {money(entry.currency)(entry[figure])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {currencies.length > 1 ? (
            <NativeSelect
              mt="sm"
              size="xs"
              w={200}
              label={t('portfolio.chartCurrency')}
              value={shown.currency}
              onChange={(event) => setPicked(event.currentTarget.value)}
              data={currencies.map((entry) => entry.currency)}
            />
          ) : null}
          {shown.series.length > 0 ? (
            <>
              <Text size="sm" mt="sm" mb={4} fw={500}>
                {t('portfolio.chartTitle', { currency: shown.currency })}
              </Text>
              <LinesChart
                testId="portfolio-chart"
                points={shown.series}
                series={FIGURES.map((figure) => ({ key: figure, name: t(`portfolio.${figure}`) }))}
                dateFormat={format.date}
                leftFormat={(amount) => compactMoney(i18n.resolvedLanguage ?? 'en', shown.currency, amount)}
              />
              <details>
                <summary>
                  <Text span size="sm">
                    {t('charts.asTable')}
                  </Text>
                </summary>
                <Table.ScrollContainer minWidth={520} type="native">
                  <Table fz="sm" verticalSpacing={4} data-testid="portfolio-series-table">
                    <caption>{t('portfolio.chartTitle', { currency: shown.currency })}</caption>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">{t('charts.quarterEnd')}</Table.Th>
                        {FIGURES.map((figure) => (
                          <Table.Th key={figure} scope="col" ta="end">
                            {t(`portfolio.${figure}`)}
                          </Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {shown.series.map((point) => (
                        <Table.Tr key={point.date}>
                          <Table.Th scope="row" fw="normal">
                            {format.date(point.date)}
                          </Table.Th>
                          {FIGURES.map((figure) => (
                            <Table.Td key={figure} ta="end">
                              {money(shown.currency)(point[figure])}
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </details>
            </>
          ) : null}
          <Anchor component={Link} to={localized('/funds/compare')} size="sm" mt="sm" display="block">
            {t('portfolio.compareLink')}
          </Anchor>
        </>
      ) : null}
    </Card>
  );
}
