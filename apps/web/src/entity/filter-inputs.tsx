import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The widgets' filter inputs load with the first one shown (a filter being
 * written, a bulk edit), not with the list: they bring pickers and number
 * inputs the list's first screen does not need (issue #11).
 */
const WidgetFilter = lazy(async () => ({
  default: (await import('./field-widgets/widget-filter.tsx')).WidgetFilter,
}));

/**
 * One value of a field, typed as text the way the list grammar writes it:
 * numbers as digits, dates as YYYY-MM-DD, yes/no as true/false, picklist
 * values as themselves (several, comma-separated, with `several`).
 */
export function ValueInput({
  field,
  label,
  value,
  onChange,
  several = false,
}: {
  field: FieldDescription;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined, name?: string) => void;
  several?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Loader size="sm" role="status" aria-label={t('common:list.loading')} />}>
      <WidgetFilter field={field} label={label} value={value} onChange={onChange} several={several} />
    </Suspense>
  );
}
