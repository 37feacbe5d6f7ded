import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { Button, Group, Popover, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterCondition } from '../store/layouts-slice.ts';
import { useFieldLabel } from './cell-value.tsx';
import { ValueInput } from './filter-inputs.tsx';
import { addFilterButton } from './list-filters.tsx';
import { conditionsOf, type FilterChoice, filterChoices } from './list-state.ts';

/**
 * The form that adds a filter: a field, one of its type's operators, and the
 * value(s). Loaded by the list's first click on "Add filter" (list-filters.tsx),
 * and open from its start.
 */
export function AddFilter({
  entity,
  onAdd,
}: {
  entity: EntityDescription;
  onAdd: (conditions: FilterCondition[]) => void;
}) {
  const { t } = useTranslation();
  const label = useFieldLabel(entity.name);
  const fields = allFields(entity);
  const filterable = Object.entries(fields).filter(([, field]) => field.filterable);
  const [opened, setOpened] = useState(true);
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
      <Popover.Target>{addFilterButton(t('list.addFilter'), () => setOpened((o) => !o))}</Popover.Target>
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
