import { createSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { zodResolver } from '@hookform/resolvers/zod';
import { SimpleGrid } from '@mantine/core';
import { useMemo, useRef } from 'react';
import { type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { useAppSelector } from '../store/hooks.ts';
import type { ApiFailure } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';
import { AttachedToControl, attachedToPair } from './attached-to-control.tsx';
import { useFieldLabel } from './cell-value.tsx';
import { useEntity } from './custom-fields.ts';
import { FieldControl, isWideControl, siblingsOf } from './field-control.tsx';
import { useFirstFieldFocus } from './first-field-focus.ts';
import { type ApiValues, apiValuesOf, type FormValues, formFields, formValuesOf } from './record-values.ts';

export type RecordFormMode = 'create' | 'edit';

/**
 * A form over a resource's writable fields, validated by the same zod schema
 * the API applies (the form's values are first turned into the API's body),
 * so client and server agree; submitting yields that body.
 */
export function useRecordForm(resource: string, mode: RecordFormMode, record?: Row) {
  const { entity } = useEntity(resource);
  const resolver = useMemo((): Resolver<FormValues, unknown, ApiValues> => {
    const validate = zodResolver(mode === 'create' ? createSchema(entity) : updateSchema(entity));
    // The schema reads the API's body: the form's values are turned into it first.
    return (values, context, options) =>
      validate(apiValuesOf(entity, mode, values), context, options as never) as ReturnType<
        Resolver<FormValues, unknown, ApiValues>
      >;
  }, [entity, mode]);
  const userId = useAppSelector((state) => state.auth.currentUser?.user.id);
  const defaultValues = useMemo(() => {
    const values = formValuesOf(entity, mode, record);
    // A new row is the signed-in user's unless they pick someone else (a task's owner).
    if (mode === 'create' && entity.ownedBy && !values[entity.ownedBy] && userId !== undefined) {
      values[entity.ownedBy] = String(userId);
    }
    return values;
  }, [entity, mode, record, userId]);
  return useForm<FormValues, unknown, ApiValues>({
    resolver,
    defaultValues,
    // Checked on submit, then again on each change. Checking on blur too ('onTouched') lost errors: the
    // blur of the last field typed in, racing the submit's check, left only that field's error shown.
    mode: 'onSubmit',
  });
}

/** Puts the server's per-field messages (`error.fields`) under their fields; true when there were some. */
export function showServerErrors(form: UseFormReturn<FormValues, unknown, ApiValues>, failure: ApiFailure): boolean {
  const fields = Object.entries(failure.fields ?? {});
  for (const [name, message] of fields) form.setError(name, { type: 'server', message }, { shouldFocus: true });
  return fields.length > 0;
}

/** Every writable field of the resource, each with the control its type calls for. */
export function RecordFields({
  resource,
  mode,
  form,
  record,
}: {
  resource: string;
  mode: RecordFormMode;
  form: UseFormReturn<FormValues, unknown, ApiValues>;
  record?: Row;
}) {
  const { entity } = useEntity(resource);
  const label = useFieldLabel(resource);
  const fields = formFields(entity, mode);
  const siblings = siblingsOf(fields);
  const attached = attachedToPair(entity, fields);
  const grid = useRef<HTMLDivElement>(null);
  useFirstFieldFocus(grid);
  return (
    <SimpleGrid ref={grid} cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      {attached ? (
        <AttachedToControl
          {...attached}
          labels={{ type: label(attached.entityField, attached.typeField), record: label(attached.idField) }}
          form={form}
        />
      ) : null}
      {fields
        .filter(([name]) => name !== attached?.entityField && name !== attached?.idField)
        .map(([name, field]) => (
          <div key={name} style={isWideControl(field) ? { gridColumn: '1 / -1' } : undefined}>
            <FieldControl
              name={name}
              field={field}
              label={label(name, field)}
              control={form.control}
              record={record}
              siblings={siblings}
            />
          </div>
        ))}
    </SimpleGrid>
  );
}
