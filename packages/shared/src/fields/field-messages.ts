import type { FieldDescription } from './field-types.ts';

/**
 * What a field takes, said to people and derived from its description: the
 * one message every refusal of a number field gives, on the server's 400
 * (in English, with the description's label) and under the form's input (in
 * the interface's language, with the translated label). "Employees must be
 * a whole number of 0 or more", "Founded must be a year from 1800 to 2026".
 */

export type MessageLanguage = 'en' | 'fr';

/** The first year any year field takes. */
export const FIRST_YEAR = 1800;
/** The last year a year field takes unless it cannot be in the future. */
export const LAST_YEAR = 2200;

/** This year, read from the clock each time it is asked (never frozen when a schema is built). */
export const currentYear = () => new Date().getUTCFullYear();

/** A field's bounds as they stand now: a year that cannot be in the future ends this year. */
export function boundsOf(field: FieldDescription): { min?: number; max?: number } {
  if (field.type === 'year') {
    const last = field.notFuture ? Math.min(currentYear(), field.max ?? LAST_YEAR) : (field.max ?? LAST_YEAR);
    return { min: field.min ?? FIRST_YEAR, max: last };
  }
  return { min: field.min, max: field.max };
}

const kinds: Partial<Record<FieldDescription['type'], Record<MessageLanguage, string>>> = {
  integer: { en: 'a whole number', fr: 'un nombre entier' },
  decimal: { en: 'a number', fr: 'un nombre' },
  amount: { en: 'a number', fr: 'un nombre' },
  percent: { en: 'a percentage', fr: 'un pourcentage' },
  multiple: { en: 'a multiple', fr: 'un multiple' },
  year: { en: 'a year', fr: 'une année' },
};

const templates: Record<MessageLanguage, { must: string; range: string; atLeast: string; atMost: string }> = {
  en: {
    must: '{label} must be {kind}',
    range: ' from {min} to {max}',
    atLeast: ' of {min} or more',
    atMost: ' of {max} or less',
  },
  fr: {
    must: '{label} doit être {kind}',
    range: ' entre {min} et {max}',
    atLeast: ' supérieur ou égal à {min}',
    atMost: ' inférieur ou égal à {max}',
  },
};

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** A bound as people write it in the language (`1,000` / `1 000`; a year as it is). */
function bound(value: number, field: FieldDescription, language: MessageLanguage): string {
  return field.type === 'year' ? String(value) : new Intl.NumberFormat(language).format(value);
}

/** Whether the field's values get a message of their own (its type says what it is: numbers). */
export const hasRuleMessage = (field: FieldDescription) => kinds[field.type] !== undefined;

/**
 * What the field takes, in a language, with its label as people read it:
 * "Employees must be a whole number of 0 or more". Undefined for types
 * without one (their schemas name what is wrong themselves).
 */
export function ruleMessage(
  field: FieldDescription,
  language: MessageLanguage = 'en',
  label: string = field.label,
): string | undefined {
  const kind = kinds[field.type];
  if (!kind) return undefined;
  const words = templates[language];
  const { min, max } = boundsOf(field);
  const values = {
    label,
    kind: kind[language],
    min: min === undefined ? '' : bound(min, field, language),
    max: max === undefined ? '' : bound(max, field, language),
  };
  let text = fill(words.must, values);
  if (min !== undefined && max !== undefined) text += fill(words.range, values);
  else if (min !== undefined) text += fill(words.atLeast, values);
  else if (max !== undefined) text += fill(words.atMost, values);
  return text;
}

/** The languages messages exist in; any other reads English. */
export const messageLanguage = (language: string | undefined): MessageLanguage =>
  language?.toLowerCase().startsWith('fr') ? 'fr' : 'en';

/**
 * A message of a form's field in the interface's language: the field's rule
 * message when the message is its English one (the form's own check, or the
 * server's 400), as it came otherwise.
 */
export function localizeFieldMessage(
  message: string | undefined,
  field: FieldDescription,
  language: string | undefined,
  label: string,
): string | undefined {
  if (message === undefined) return undefined;
  const english = ruleMessage(field, 'en');
  if (english === undefined || message !== english) return message;
  return ruleMessage(field, messageLanguage(language), label);
}
