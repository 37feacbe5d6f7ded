import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { ActionIcon, Badge, Button, Group, Popover, Select, Stack } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterCondition } from '../store/layouts-slice.ts';
import { useFieldLabel } from './cell-value.tsx';
import { ReferenceName, ValueInput } from './filter-inputs.tsx';
import { conditionsOf, type FilterChoice, filterChoices } from './list-state.ts';

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

function AddFilter({ entity, onAdd }: { entity: EntityDescription; onAdd: (conditions: FilterCondition[]) => void }) {
  const { t } = useTranslation();
  const label = useFieldLabel(entity.name);
  const fields = allFields(entity);
  const filterable = Object.entries(fields).filter(([, field]) => field.filterable);
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState<string | null>(null);
  const [choice, setChoice] = useState<FilterChoice | null>(null);
  const [value, setValue] = useState<string | undefined>();
  const [to, setTo] = useState<string | undefined>();
  const field = name ? fields[name] : undefined;
  const choices = field ? filterChoices(field) : [];
  const conditions = name && choice ? conditionsOf(name, choice, value, to) : [];

  const reset = () => {
    setName(null);
    setChoice(null);
    setValue(undefined);
    setTo(undefined);
  };
  const choiceLabel = (c: FilterChoice) => (c === 'between' ? t('list.between') : t(`ops.${c}`));

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={320} trapFocus withinPortal>
      <Popover.Target>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFilter size={14} aria-hidden />}
          onClick={() => setOpened((o) => !o)}
        >
          {t('list.addFilter')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (conditions.length === 0) return;
            onAdd(conditions);
            reset();
            setOpened(false);
          }}
        >
          <Stack gap="xs">
            <Select
              label={t('list.filterField')}
              data={filterable.map(([n, f]) => ({ value: n, label: label(n, f) }))}
              value={name}
              onChange={(next) => {
                setName(next);
                const nextField = next ? fields[next] : undefined;
                setChoice(nextField ? (filterChoices(nextField)[0] ?? null) : null);
                setValue(undefined);
                setTo(undefined);
              }}
              searchable
              comboboxProps={{ withinPortal: false }}
            />
            {field ? (
              <Select
                label={t('list.filterOperator')}
                data={choices.map((c) => ({ value: c, label: choiceLabel(c) }))}
                value={choice}
                onChange={(next) => setChoice(next as FilterChoice | null)}
                allowDeselect={false}
                comboboxProps={{ withinPortal: false }}
              />
            ) : null}
            {field && choice && choice !== 'isNull' && choice !== 'notNull' ? (
              <ValueInput
                field={field}
                label={choice === 'between' ? t('list.from') : t('list.filterValue')}
                value={value}
                onChange={(next) => setValue(next)}
                several={choice === 'in'}
              />
            ) : null}
            {field && choice === 'between' ? (
              <ValueInput field={field} label={t('list.to')} value={to} onChange={(next) => setTo(next)} />
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" size="xs" disabled={conditions.length === 0}>
                {t('list.applyFilter')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
