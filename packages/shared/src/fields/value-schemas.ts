import { z } from 'zod';
import { boundsOf, ruleMessage } from './field-messages.ts';
import type { FieldDescription } from './field-types.ts';
import { fieldTypeModule } from './field-types.ts';

/**
 * The zod half of the field type modules. A module's `valueSchema` and
 * `filterValueSchema` get this kit instead of importing zod, so that what
 * only needs a type's facts (the entity registry, the web app's first
 * screens, its grid) loads no zod: the import graph, not the calls, decides
 * what a bundle holds (issue #11, docs/decisions/0017).
 */

// A missing value reads "Required" everywhere (forms and API alike), not zod's type message; so does a null
// where no null is taken (a required field).
z.config({
  customError: (issue) =>
    issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null) ? 'Required' : undefined,
});

/**
 * A schema's own error that still says "Required" for a missing or null value: a schema's error outranks the
 * global one above, so a required reference left empty read "Expected the id of a record". Null reaches a
 * schema only where the field takes no null (a required field).
 */
function missingOr<I extends { input?: unknown }, R>(message: string | ((issue: I) => R)) {
  return (issue: I) =>
    issue.input === undefined || issue.input === null
      ? 'Required'
      : typeof message === 'string'
        ? message
        : message(issue);
}

const isoDate = z.iso.date({ error: missingOr('Expected a date as YYYY-MM-DD') });
const isoDateTime = z.iso.datetime({ offset: true, error: missingOr('Expected a date and time in ISO 8601') });
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'Expected an ISO 4217 currency code such as USD');
const finite = z.number({ error: missingOr('Expected a number') }).finite();

/** PostgreSQL cannot store the NUL character in text. */
const withoutNul = /^[^\0]*$/;
const nulMessage = 'Cannot contain the NUL character';

/**
 * A number of the field: of its type (`whole`: an integer), within its
 * bounds. A year that cannot be in the future ends this year, read from the
 * clock when a value is checked, not when the schema was built. Every
 * refusal says what the field takes, derived from its description
 * (field-messages.ts): "Employees must be a whole number of 0 or more".
 */
function fieldNumber(field: FieldDescription, whole: boolean): z.ZodType<number> {
  const message = () => ruleMessage(field) ?? 'Expected a number';
  const { min, max } = boundsOf({ ...field, notFuture: false });
  let s = z.number({ error: missingOr(message) }).finite({ error: message });
  if (whole) s = s.int({ error: message });
  if (min !== undefined) s = s.min(min, { error: message });
  if (max !== undefined) s = s.max(max, { error: message });
  return field.notFuture ? s.refine((value) => value <= (boundsOf(field).max ?? value), { error: message }) : s;
}

/** Trimmed text of at most the field's length (or the type's), without NUL; required means not blank. */
function textSchema(field: FieldDescription, fallbackMax: number): z.ZodString {
  const max = field.maxLength ?? fallbackMax;
  const s = z.string().trim().max(max, `At most ${max} characters`).regex(withoutNul, nulMessage);
  return field.required ? s.min(1, 'Required') : s;
}

/** A number written as text; blank text is refused rather than read as 0. */
function numberText(message: string, refine: (n: z.ZodNumber) => z.ZodNumber): z.ZodType {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .transform(Number)
    .pipe(refine(z.number({ error: message })));
}

/** The field's options as a zod enum. */
function optionsSchema(field: FieldDescription): z.ZodType<string> {
  return z.enum(field.options as [string, ...string[]], { error: `Expected one of: ${field.options?.join(', ')}` });
}

/** Filter text of any text-like type. */
const anyText = () => z.string().max(500);

/** What the field type modules build their schemas with: zod, and the pieces several types share. */
const schemaKit = {
  z,
  isoDate,
  isoDateTime,
  currencyCode,
  finite,
  withoutNul,
  nulMessage,
  fieldNumber,
  textSchema,
  numberText,
  optionsSchema,
  anyText,
};

export type SchemaKit = typeof schemaKit;

/**
 * The schema of one non-null value of the field, as the API reads and writes it. A type's own error
 * (`z.number({ error: 'Expected the id of a record' })`) says "Required" for a missing or null value: a
 * schema's error outranks the global one above, and null reaches it only where the field takes none (a
 * required field). Wrapped here rather than in each type, whose modules the first screens load (zod aside).
 */
export function valueSchema(field: FieldDescription): z.ZodType {
  const schema = fieldTypeModule(field.type).valueSchema(field, schemaKit);
  const own = schema._zod.def.error;
  return own ? schema.clone({ ...schema._zod.def, error: missingOr((issue) => own(issue as never)) }) : schema;
}

/**
 * Each field's filter value schema, built once: a list request with a filter
 * read its value with a schema built for it (about 0.1 ms of zod's set-up and
 * its garbage a request, as much as the rest of the list's work in Node).
 * Keyed by the description object: descriptions are not changed once made (a
 * custom field's new options make a new description), and one a process no
 * longer holds lets its schema go.
 */
const filterValueSchemas = new WeakMap<FieldDescription, z.ZodType>();

/**
 * How one filter value written in a query string (always text) is read for a
 * field. Money and amount filter on the amount.
 */
export function filterValueSchema(field: FieldDescription): z.ZodType {
  let schema = filterValueSchemas.get(field);
  if (!schema) {
    schema = fieldTypeModule(field.type).filterValueSchema(field, schemaKit);
    filterValueSchemas.set(field, schema);
  }
  return schema;
}
