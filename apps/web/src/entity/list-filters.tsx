import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { ActionIcon, Badge, Button, Group } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterCondition } from '../store/layouts-slice.ts';
import { useFieldLabel } from './cell-value.tsx';
import { ReferenceName } from './field-widgets/reference-name.tsx';

const AddFilterForm = lazy(async () => ({ default: (await import('./add-filter.tsx')).AddFilter }));

/** The filters of a list as removable chips, and a form to add one, with the operators of each field's type. */
export function ListFilters({
  entity,
  filters,
  onChange,
}: {
  entity: EntityDescription;
  filters: FilterCondition[];
  onChange: (filters: FilterCondition[]) => void;
}) {
  const { t } = useTranslation(['common', 'options']);
  const label = useFieldLabel(entity.name);
  const fields = allFields(entity);

  const chipText = (condition: FilterCondition) => {
    const field = fields[condition.field];
    const fieldLabel = label(condition.field, field);
    const op = t(`ops.${condition.op}`);
    if (condition.value === undefined) return t('list.filterNoValue', { field: fieldLabel, op });
    if (field?.type === 'reference' && field.to) {
      return (
        <>
          {fieldLabel} {op} <ReferenceName resource={field.to} id={condition.value} />
        </>
      );
    }
    const value = field?.options
      ? condition.value
          .split(',')
          .map((v) => t(v, { ns: 'options', keySeparator: false, nsSeparator: false }))
          .join(', ')
      : condition.value;
    return t('list.filter', { field: fieldLabel, op, value });
  };

  return (
    <Group gap="xs" role="group" aria-label={t('list.filters')}>
      <AddFilter entity={entity} onAdd={(added) => onChange([...filters, ...added])} />
      {filters.map((condition, index) => (
        <Badge
          key={`${condition.field}-${condition.op}-${condition.value ?? ''}`}
          variant="light"
          tt="none"
          size="lg"
          data-testid="filter-chip"
          rightSection={
            <ActionIcon
              size="xs"
              variant="transparent"
              aria-label={t('list.removeFilter')}
              onClick={() => onChange(filters.filter((_, i) => i !== index))}
            >
              <IconX size={12} aria-hidden />
            </ActionIcon>
          }
        >
          {chipText(condition)}
        </Badge>
      ))}
      {filters.length > 0 ? (
        <Button variant="subtle" size="xs" onClick={() => onChange([])}>
          {t('actions.clearFilters')}
        </Button>
      ) : null}
    </Group>
  );
}

/** The "Add filter" button, also the target of its form's popover (add-filter.tsx). */
export function addFilterButton(label: string, onClick: () => void) {
  return (
    <Button variant="default" size="xs" leftSection={<IconFilter size={14} aria-hidden />} onClick={onClick}>
      {label}
    </Button>
  );
}

/**
 * "Add filter": a button until first used, then its form, opened by that
 * click: the form's pickers and value inputs load with it, not with the list
 * (issue #11).
 */
function AddFilter(props: { entity: EntityDescription; onAdd: (conditions: FilterCondition[]) => void }) {
  const { t } = useTranslation();
  const [used, setUsed] = useState(false);
  const button = addFilterButton(t('list.addFilter'), () => setUsed(true));
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <AddFilterForm {...props} />
    </Suspense>
  );
}
