import {
  allFields,
  type EntityDescription,
  isWritable,
  referenceRelationName,
} from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { type FieldDescription, type FormValue, fieldTypeModule } from '@data-platform/shared/fields/field-types';

/** How a form holds a value: each field type's module says (`toForm`, `toApi`). */
export type { FormValue } from '@data-platform/shared/fields/field-types';
export type FormValues = Record<string, FormValue>;
export type ApiValues = Record<string, unknown>;

/** The fields a form shows: the writable ones; on edit, not those written once at creation. */
export function formFields(entity: EntityDescription, mode: 'create' | 'edit'): [string, FieldDescription][] {
  return Object.entries(entity.fields).filter(
    ([, field]) => isWritable(field) && (mode === 'create' || !field.immutable),
  );
}

/** An API value as the form holds it. */
export function toFormValue(field: FieldDescription, value: unknown): FormValue {
  return fieldTypeModule(field.type).toForm(value);
}

/**
 * A form value as the API takes it. Empty optional values become null; an
 * empty required value is left for the schema to call "Required".
 */
export function toApiValue(field: FieldDescription, value: FormValue | undefined): unknown {
  return fieldTypeModule(field.type).toApi(value, field.required ? undefined : null, field);
}

/** The form's starting values: a record's, or empty ones for a new record. */
export function formValuesOf(entity: EntityDescription, mode: 'create' | 'edit', record?: ApiValues): FormValues {
  return Object.fromEntries(
    formFields(entity, mode).map(([name, field]) => [name, toFormValue(field, record?.[name])]),
  );
}

/** The body of a create or update built from the form's values. */
export function apiValuesOf(entity: EntityDescription, mode: 'create' | 'edit', values: FormValues): ApiValues {
  const body: ApiValues = {};
  for (const [name, field] of formFields(entity, mode)) {
    const value = toApiValue(field, values[name]);
    if (value !== undefined) body[name] = value;
  }
  return body;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Only what the user changed, so that a save never writes back fields it did not touch. */
export function changedValues(entity: EntityDescription, before: ApiValues, after: ApiValues): ApiValues {
  const initial = apiValuesOf(entity, 'edit', formValuesOf(entity, 'edit', before));
  return Object.fromEntries(Object.entries(after).filter(([name, value]) => !same(initial[name], value)));
}

export interface FieldChange {
  name: string;
  field: FieldDescription;
  /** When the user opened the record. */
  before: unknown;
  /** On the server now. */
  now: unknown;
  /** What the user is saving (undefined when the user left the field alone). */
  mine: unknown;
}

/**
 * The fields someone else changed since the user opened the record (what a
 * 412 is about), each with the value before, now, and the user's own if they
 * changed it too.
 */
export function conflictingChanges(
  entity: EntityDescription,
  before: ApiValues,
  now: ApiValues,
  mine: ApiValues,
): FieldChange[] {
  const normal = (field: FieldDescription, value: unknown) => toApiValue(field, toFormValue(field, value));
  return formFields(entity, 'edit').flatMap(([name, field]) => {
    const was = normal(field, before[name]);
    const is = normal(field, now[name]);
    if (same(was, is)) return [];
    return [
      { name, field, before: before[name], now: now[name], mine: Object.hasOwn(mine, name) ? mine[name] : undefined },
    ];
  });
}

/** The joins that name every record the entity references by its display field: `firm(name),createdBy(fullName)`. */
export function referenceJoins(entity: EntityDescription): string[] {
  return Object.entries(allFields(entity)).flatMap(([name, field]) => {
    const target = field.type === 'reference' && field.to ? findEntity(field.to) : undefined;
    return target && name !== 'id' ? [`${referenceRelationName(name)}(${target.display})`] : [];
  });
}

/** Splits a stored phone number into the country code it starts with and the rest. */
export function splitPhone(value: string, codes: readonly string[]): { code: string; number: string } {
  const text = normalizePhoneStart(value);
  const code = [...codes].filter((c) => c && text.startsWith(c)).sort((a, b) => b.length - a.length)[0];
  return code ? { code, number: text.slice(code.length).trim() } : { code: '', number: text };
}

/** A phone number with its country code in front: `+33 1 23 45 67 89`. */
export function joinPhone(code: string, number: string): string {
  const rest = number.trim();
  if (!rest) return '';
  return code && !rest.startsWith('+') ? `${code} ${rest}` : rest;
}

/**
 * A country calling code as people write it: `+1-242` → `+1 242`, `55` →
 * `+55`; none for what no code can be (`+0055`: codes never start with 0).
 */
export function normalizePhoneCode(code: string | null | undefined): string {
  const found = /^\+?(\d+)(?:[-\s](\d+))?/.exec((code ?? '').trim());
  if (!found?.[1] || found[1].startsWith('0')) return '';
  return found[2] ? `+${found[1]} ${found[2]}` : `+${found[1]}`;
}

export interface PhoneCountry {
  id: number | string;
  name: string;
  phoneCode: string | null;
}

/** One choice of a phone's country code: the country (`value`, its id) and its code, read `+55 Brazil`. */
export interface PhoneCodeOption {
  value: string;
  label: string;
  code: string;
}

/** The countries' calling codes, normalized, each with its country's name, by name. */
export function phoneCodeOptions(countries: readonly PhoneCountry[]): PhoneCodeOption[] {
  return countries
    .map((country) => ({ country, code: normalizePhoneCode(country.phoneCode) }))
    .filter(({ code }) => code !== '')
    .sort((a, b) => a.country.name.localeCompare(b.country.name))
    .map(({ country, code }) => ({ value: String(country.id), label: `${code} ${country.name}`, code }));
}

/** A stored number's code as the options write it (`+1-242 555` → `+1 242 555`), the rest as it is. */
export const normalizePhoneStart = (value: string) => value.trim().replace(/^\+0*(\d+)-(\d+)/, '+$1 $2');
