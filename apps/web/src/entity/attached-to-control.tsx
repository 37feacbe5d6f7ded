import type { EntityDescription } from '@data-platform/shared/entities/entity';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { Select } from '@mantine/core';
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ReferencePicker } from './field-control.tsx';

/** The two fields by which a row belongs to a record (notes, files, tasks), when the form edits both. */
export function attachedToPair(
  entity: EntityDescription,
  fields: readonly [string, FieldDescription][],
): { entityField: string; idField: string; typeField: FieldDescription } | undefined {
  if (!entity.attachedTo) return undefined;
  const { entityField, idField } = entity.attachedTo;
  const typeField = fields.find(([name]) => name === entityField)?.[1];
  if (!typeField || !fields.some(([name]) => name === idField)) return undefined;
  return { entityField, idField, typeField };
}

/**
 * What a row is about, picked as a record type and then a record of that
 * type found by searching it by name, not typed as a bare id. Changing the
 * type clears the record.
 */
export function AttachedToControl({
  entityField,
  idField,
  typeField,
  labels,
  form,
}: {
  entityField: string;
  idField: string;
  typeField: FieldDescription;
  labels: { type: string; record: string };
  // biome-ignore lint/suspicious/noExplicitAny: react-hook-form's form is invariant in the form's type.
  form: UseFormReturn<any, unknown, any>;
}) {
  const { control } = form;
  const { t } = useTranslation(['entities', 'record']);
  const type = useWatch({ control, name: entityField }) as string | null | undefined;
  return (
    <>
      <Controller
        name={entityField}
        control={control}
        render={({ field: input, fieldState }) => (
          <Select
            label={labels.type}
            required={typeField.required}
            error={fieldState.error?.message}
            searchable
            clearable={!typeField.required}
            data={(typeField.options ?? []).map((name) => ({
              value: name,
              label: t(`entities:resources.${name}.one`, { defaultValue: name }),
            }))}
            value={(input.value as string | null) || null}
            onBlur={input.onBlur}
            onChange={(next) => {
              if (next !== input.value) form.setValue(idField, '');
              input.onChange(next ?? '');
            }}
          />
        )}
      />
      <Controller
        name={idField}
        control={control}
        render={({ field: input, fieldState }) =>
          type ? (
            // Keyed by type: a picker of another record type starts afresh.
            <ReferencePicker
              key={type}
              to={type}
              label={labels.record}
              required={typeField.required}
              error={fieldState.error?.message}
              value={(input.value as string | null) || null}
              onChange={(next) => input.onChange(next ?? '')}
            />
          ) : (
            <Select
              label={labels.record}
              required={typeField.required}
              error={fieldState.error?.message}
              disabled
              data={[]}
              placeholder={t('record:form.recordTypeFirst')}
            />
          )
        }
      />
    </>
  );
}
