import { Card, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format.ts';
import type { Row } from '../../store/resource-slices.ts';
import { CashFlowPanel } from './cash-flow-panel.tsx';

/** The field of a fund performance record saying whether it was entered by hand or computed from the flows. */
export const SOURCE_FIELD = 'source';

/**
 * On a fund performance record's page: whether it was entered by hand or
 * computed from the fund's cash flows, and for a computed one the flows that
 * produced it (those of its fund on or before its as-of date).
 */
export function PerformanceSourceSection({ record }: { id: number; record: Row }) {
  const { t } = useTranslation('funds');
  const format = useFormat();
  const computed = record[SOURCE_FIELD] === 'computed';
  const fundId = typeof record.fundId === 'number' ? record.fundId : undefined;
  const asOf = typeof record.asOfDate === 'string' ? record.asOfDate : undefined;
  return (
    <>
      <Card withBorder component="section" aria-labelledby="performance-source-title" data-testid="performance-source">
        <Title order={2} size="h4" id="performance-source-title" mb="xs">
          {t('source.title')}
        </Title>
        <Text size="sm" data-testid="performance-source-text">
          {computed ? t('source.computedText', { date: asOf ? format.date(asOf) : '—' }) : t('source.manualText')}
        </Text>
      </Card>
      {computed && fundId !== undefined && asOf ? (
        <CashFlowPanel
          fundId={fundId}
          until={asOf}
          editable={false}
          title={t('source.flowsTitle', { date: format.date(asOf) })}
        />
      ) : null}
    </>
  );
}
