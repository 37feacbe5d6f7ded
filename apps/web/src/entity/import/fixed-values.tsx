import { fieldTypeModule, fieldTypes } from '@data-platform/shared/fields/field-types';
import type { ColumnTarget, FixedValues as Fixed, ImportPreview } from '@data-platform/shared/imports';
import { CloseButton, Fieldset, Group, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ReferencePicker } from '../field-widgets/reference.tsx';
import { optionLabel } from '../field-widgets/widget.ts';
import { useImportFieldLabel } from './map-step.tsx';
import { type FixedTarget, unmappedTargets } from './wizard-logic.ts';

/** The separator of several picklist options in one cell, as the import reads a cell (`a; b`). */
const LIST_SEPARATOR = '; ';

/**
 * "Same value for every row": for fields no column maps to (an index
 * series' Index, a contact list's Firm), one value the import reads in each
 * row as it reads that field's cells. Required fields without a column are
 * listed at once (their control clears them); any other can be added, and
 * removed. A control fits the field: a
 * record picker for a reference, the options for a picklist, yes or no,
 * a date, text otherwise.
 */
export function FixedValues({
  resource,
  preview,
  mapping,
  fixed,
  onFixed,
}: {
  resource: string;
  preview: ImportPreview;
  mapping: readonly (ColumnTarget | null)[];
  fixed: Fixed;
  onFixed: (fixed: Fixed) => void;
}) {
  const { t } = useTranslation('transfer');
  const fieldLabel = useImportFieldLabel(resource);
  const targets = unmappedTargets(preview.fields, mapping);
  const labelOf = (target: FixedTarget) => {
    const label = fieldLabel(target.field.name, target.field.label);
    return target.part
      ? t('wizard.part', { field: label, part: t(`wizard.parts.${target.part}`, target.part) })
      : label;
  };
  const listed = (target: FixedTarget) => (target.field.required && !target.part) || target.key in fixed;
  const shown = targets.filter(listed);
  const addable = targets.filter((target) => !listed(target));
  if (targets.length === 0) return null;
  const set = (key: string, value: string) => onFixed({ ...fixed, [key]: value });
  const remove = (key: string) => onFixed(Object.fromEntries(Object.entries(fixed).filter(([k]) => k !== key)));

  return (
    <Fieldset legend={t('wizard.fixedTitle')} data-testid="import-fixed">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('wizard.fixedHint')}
        </Text>
        {shown.map((target) => (
          <Group key={target.key} align="flex-end" wrap="nowrap">
            <FixedControl
              target={target}
              label={labelOf(target)}
              value={fixed[target.key] ?? ''}
              onChange={(value) => set(target.key, value)}
            />
            {target.key in fixed && !target.field.required ? (
              <CloseButton
                mb={4}
                aria-label={t('wizard.fixedRemove', { field: labelOf(target) })}
                onClick={() => remove(target.key)}
              />
            ) : null}
          </Group>
        ))}
        {addable.length > 0 ? (
          <Select
            label={t('wizard.fixedAdd')}
            placeholder={t('wizard.fixedAddPlaceholder')}
            data={addable.map((target) => ({ value: target.key, label: labelOf(target) }))}
            value={null}
            searchable
            w={320}
            onChange={(key) => key && set(key, '')}
          />
        ) : null}
      </Stack>
    </Fieldset>
  );
}

/** The control of one fixed value, as fits its field; the value as the file's cell would write it. */
function FixedControl({
  target,
  label,
  value,
  onChange,
}: {
  target: FixedTarget;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation(['transfer', 'common', 'options']);
  const { field } = target;
  const required = field.required && !target.part;
  const error = required && value.trim() === '' ? t('transfer:wizard.fixedRequired') : undefined;
  const common = { label, required, error, w: 320 };
  // A part (a currency) is text; a field of a type this app does not know, too.
  const type = fieldTypes.find((known) => known === field.type);
  const widget = target.part || !type ? 'text' : fieldTypeModule(type).widget.name;
  if (widget === 'reference' && field.to) {
    return (
      <div style={{ width: 320 }}>
        <ReferencePicker
          to={field.to}
          label={label}
          required={required}
          error={error}
          value={value || null}
          onChange={(next) => onChange(next ?? '')}
        />
      </div>
    );
  }
  const options = (field.options ?? []).map((option) => ({ value: option, label: optionLabel(t, option) }));
  if (widget === 'multiSelect') {
    return (
      <MultiSelect
        {...common}
        data={options}
        searchable
        value={value ? value.split(LIST_SEPARATOR.trim()).map((item) => item.trim()) : []}
        onChange={(next) => onChange(next.join(LIST_SEPARATOR))}
      />
    );
  }
  if (widget === 'select' || widget === 'boolean') {
    const data =
      widget === 'boolean'
        ? [
            { value: 'true', label: t('common:values.yes') },
            { value: 'false', label: t('common:values.no') },
          ]
        : options;
    return (
      <Select
        {...common}
        data={data}
        searchable={data.length > 8}
        clearable
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
      />
    );
  }
  return (
    <TextInput
      {...common}
      type={widget === 'date' ? 'date' : 'text'}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
