import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import type { ReactNode } from 'react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type Formatters, useFormat } from '../i18n/format.ts';
import type { Row } from '../store/resource-slices.ts';
import type { Column } from './columns.ts';
import { widgetCell } from './field-widgets/cells.tsx';
import type { CellT } from './field-widgets/widget.ts';
import { LocalizedName, localizesNames } from './localized-names.tsx';

export type { CellT } from './field-widgets/widget.ts';

/**
 * A role as the roles page names it: a built-in role (their names are
 * unique, no custom role takes one) in the interface's language
 * (`users:builtInRoles`), a custom role by its own name.
 */
function roleName(name: string, t: CellT): string {
  return t(`users:builtInRoles.${name}.name`, { defaultValue: name });
}

/** A referenced row's name in the interface's language (`useLocalizedNames(resource).name`): a country's. */
export type LocalName = (id: unknown, stored: string) => string;

/**
 * One value of a row, shown as its field type's widget says, in the
 * interface's language. A function, not a component, so that a grid asks for
 * the language once rather than once per cell it shows. A grid gives
 * `localName` too, worked out once for all its rows: without it, each
 * country cell is a component asking the store and the language itself.
 */
export function cellContent(row: Row, column: Column, t: CellT, format: Formatters, localName?: LocalName): ReactNode {
  const { name, field, reference } = column;
  if (reference) {
    const related = row[reference.relation] as Record<string, unknown> | null | undefined;
    const shown = related?.[reference.display];
    if (shown === undefined || shown === null) return '';
    if (field.to === 'roles') return roleName(String(shown), t);
    // A country in the interface's language: the joined name is the stored English one.
    if (localizesNames(field.to)) {
      if (localName) return localName(related?.id ?? row[name], String(shown));
      return <LocalizedName resource={field.to ?? ''} id={related?.id ?? row[name]} stored={String(shown)} />;
    }
    return String(shown);
  }
  const value = row[name];
  if (value === null || value === undefined || value === '') return null;
  return widgetCell(field)(value, { row, field, t, format });
}

/** One value of a row, shown as its field type says, in the interface's language. */
export function CellValue({ row, column }: { row: Row; column: Column }) {
  const { t } = useTranslation(['common', 'options']);
  return cellContent(row, column, t, useFormat());
}

/** How a field's label reads: `fields.<entity>.<field>`. */
export function useFieldLabel(resource: string): (field: string, description?: FieldDescription) => string {
  const { t } = useTranslation('entities');
  // The same function while the language stays: the grid's columns, and with them every row, depend on it.
  return useCallback(
    (field, description) => t(`fields.${resource}.${field}`, { defaultValue: description?.label ?? field }),
    [t, resource],
  );
}
