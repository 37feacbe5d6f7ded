import type { FieldDescription, FormValue } from '@data-platform/shared/fields/field-types';
import type { TFunction } from 'i18next';
import type { ComponentType } from 'react';
import type { Control } from 'react-hook-form';
import type { Formatters } from '../../i18n/format.ts';
import type { Row } from '../../store/resource-slices.ts';

/** The translation function of cells: common texts, and the options of select fields. */
export type CellT = TFunction<['common', 'options']>;

/** What a cell needs besides its value: the row (an amount's currency), the language's texts and formats. */
export interface CellContext {
  row: Row;
  field: FieldDescription;
  t: CellT;
  format: Formatters;
}

/** A form's input of one field, bound by the generic FieldControl. */
export interface ControlProps {
  name: string;
  field: FieldDescription;
  label: string;
  value: FormValue;
  onChange: (value: FormValue) => void;
  onBlur: () => void;
  error?: string;
  /** Errors of the parts of a value of several inputs (`revenue.amount`, `revenue.currency`). */
  partErrors?: Record<string, { message?: string } | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: react-hook-form's Control is invariant in the form's type.
  control: Control<any>;
  /** The record as loaded (with its joins), to name what references point at. */
  record?: Row;
  /** The form's fields by name (a state picked within the country field, a phone's country). */
  siblings: Record<string, FieldDescription>;
}

/** One value typed in a filter or a bulk edit, as text the list grammar reads. */
export interface FilterProps {
  field: FieldDescription;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined, name?: string) => void;
  /** Several values (comma-separated), for `in`. */
  several: boolean;
}

/** A record's value on its own page. */
export interface ValueProps {
  row: Row;
  name: string;
  field: FieldDescription;
}

/**
 * How one look of values is edited in the web app: the form control, the
 * filter input, and (when it differs from the list's cell, cells.tsx) the
 * value on a record's page. Field type modules name their widget.
 */
export interface FieldWidget {
  Control: ComponentType<ControlProps>;
  Filter: ComponentType<FilterProps>;
  Value?: ComponentType<ValueProps>;
  /** The control takes a form's whole width. */
  wide?: boolean;
}

/** A field's option as people read it, in the interface's language. */
export const optionLabel = (t: TFunction<['common', 'options']> | TFunction<['record', 'options']>, text: string) =>
  (t as TFunction<'options'>)(text, { ns: 'options', keySeparator: false, nsSeparator: false });
