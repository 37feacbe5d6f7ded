import { z } from 'zod';
import { dateOrders, decimalMarks } from './fields/cell-formats.ts';

/**
 * Imports from a file as jobs (`/api/v1/imports`): the file is uploaded
 * once and previewed (sheets, dialect, headings, a suggested mapping, the
 * first rows as they would be stored with their problems), then imported by
 * a job on the server that the caller follows, cancels and can undo.
 */

export const csvEncodings = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type CsvEncoding = (typeof csvEncodings)[number];

/** How a CSV file is written, as the server detected it. */
export const csvDialectSchema = z.object({
  encoding: z.enum(csvEncodings),
  /** Whether the file starts with a byte order mark. */
  bom: z.boolean(),
  delimiter: z.enum([',', ';', '\t']),
  lineBreak: z.enum(['crlf', 'lf', 'cr']),
});
export type CsvDialect = z.infer<typeof csvDialectSchema>;

/**
 * Where a column's values go: a field, or one part of it (a money's
 * `currency`); and, for this column only, how its values are read where
 * they could be read either way (`dateOrder` of a date field's column,
 * `decimalMark` of a number's), instead of the import's `dateOrder` and
 * `decimalMark`.
 */
export const columnTargetSchema = z.strictObject({
  field: z.string().min(1).max(100),
  part: z.string().min(1).max(50).optional(),
  dateOrder: z
    .enum(dateOrders)
    .optional()
    .describe("This column's day/month order where its dates could all be read either way; the import's by default"),
  decimalMark: z
    .enum(decimalMarks)
    .optional()
    .describe("This column's decimal mark where its numbers could all be read either way; the import's by default"),
});
export type ColumnTarget = z.infer<typeof columnTargetSchema>;

/** At most this many columns are mapped (a reader refuses wider rows). */
export const MAX_IMPORT_COLUMNS = 1000;
/** Distinct values of a picklist column the preview lists and a mapping may name. */
export const MAX_DISTINCT_VALUES = 200;
/** Tags already stored in a field that the preview offers as its options, the most used first. */
export const MAX_STORED_OPTIONS = 500;

/**
 * For a picklist field (select, multi-select, tags): a value as the file
 * writes it (trimmed) → the option it stands for, or null to leave it empty.
 * A tags field's options are the tags already stored in it: a value mapped to
 * none is kept as written (a new tag).
 */
export const valueMappingSchema = z.record(
  z.string().max(100),
  z.record(z.string().max(1000), z.string().max(1000).nullable()),
);
export type ValueMapping = z.infer<typeof valueMappingSchema>;

/** Characters of a fixed value at most (a name, a code, an id, a short text). */
export const MAX_FIXED_VALUE_CHARS = 1000;

/**
 * For fields no column maps to: one value for every row, keyed by field
 * (`indexId`) or by `<field>.<part>` for a part of a value of several
 * columns (`revenue.currency`). Written as a cell would be, it is read as
 * each row's cell of that field is (a reference by name, domain, email,
 * code or id; a picklist option; a date or number as the cells' formats).
 */
export const fixedValuesSchema = z
  .record(
    z.string().min(1).max(150),
    z
      .string()
      .trim()
      .min(1, 'Give a value, or leave the field out')
      .max(MAX_FIXED_VALUE_CHARS, `At most ${MAX_FIXED_VALUE_CHARS} characters`),
  )
  .refine((fixed) => Object.keys(fixed).length <= MAX_IMPORT_COLUMNS, {
    error: `At most ${MAX_IMPORT_COLUMNS} fixed values`,
  });
export type FixedValues = z.infer<typeof fixedValuesSchema>;

export const duplicateActions = ['skip', 'update', 'create'] as const;
export type DuplicateAction = (typeof duplicateActions)[number];
export const importModes = ['allOrNothing', 'skipBadRows'] as const;
export type ImportMode = (typeof importModes)[number];

/**
 * What a stored record is matched on: one of the entity's `dedupKeys`, or
 * `id` (a file with an ID column, such as an export); what happens to a row
 * that matches one.
 */
export const duplicateRuleSchema = z.strictObject({
  key: z.string().min(1).max(100),
  action: z.enum(duplicateActions),
});
export type DuplicateRule = z.infer<typeof duplicateRuleSchema>;

/** How an uploaded file is read and mapped: the preview's and the job's common settings. */
export const importSettingsSchema = z.strictObject({
  entity: z.string().min(1).max(100),
  uploadId: z.coerce.number().int().positive(),
  /** An XLSX sheet by name; the first by default. */
  sheet: z.string().min(1).max(200).optional(),
  /** The row of headings, as a spreadsheet numbers rows; the first row that is not blank by default. */
  headerRow: z.number().int().min(1).max(10_000).optional(),
  /** Per column (by position): its target, or null to skip it; the suggested mapping when absent. */
  mapping: z.array(columnTargetSchema.nullable()).max(MAX_IMPORT_COLUMNS).optional(),
  values: valueMappingSchema.optional(),
  fixed: fixedValuesSchema.optional(),
  /**
   * How dates written with numbers and the year last order day and month
   * (`dmy` 31/12/2004, `mdy` 12/31/2004) in columns where every such date
   * could be read either way, unless the column's mapping gives its own; a
   * column with a date over 12 in either place keeps its own order.
   * Suggested from Accept-Language when absent.
   */
  dateOrder: z.enum(dateOrders).optional(),
  /**
   * The decimal mark of columns whose numbers all have one mark that could be
   * either (`3,421`, `1.234`: a decimal or a thousands separator), unless
   * the column's mapping gives its own; a column with a number that tells
   * (`1,5`, `1,234.5`) keeps its own. Suggested from Accept-Language when
   * absent (`fr`: a comma).
   */
  decimalMark: z.enum(decimalMarks).optional(),
  duplicates: duplicateRuleSchema.optional(),
});
export type ImportSettings = z.infer<typeof importSettingsSchema>;

/** `POST /api/v1/imports`: a job over an upload with a confirmed mapping. */
export const startImportSchema = importSettingsSchema.extend({
  mapping: z.array(columnTargetSchema.nullable()).max(MAX_IMPORT_COLUMNS),
  mode: z.enum(importModes).default('allOrNothing'),
});
export type StartImport = z.infer<typeof startImportSchema>;

/**
 * `POST /api/v1/imports/file`'s `settings` part: a job's settings without an
 * upload (the file is the request's next part); without `mapping`, the one
 * the preview suggests, with the picklist values it suggests.
 */
export const fileImportSettingsSchema = startImportSchema
  .omit({ uploadId: true })
  .extend({ mapping: importSettingsSchema.shape.mapping });
export type FileImportSettings = z.infer<typeof fileImportSettingsSchema>;

/** How a column's target was suggested. */
export const suggestionSources = ['remembered', 'label', 'name', 'synonym'] as const;

/**
 * How a column of dates or numbers is read, decided from all its values
 * (never cell by cell): the day/month order of dates written with numbers
 * and the year last, and where it comes from (`values`: a date has a part
 * over 12; `choice`: every one could be read either way, so the column's
 * own `dateOrder` is used, else the import's; `mixed`: the values say both,
 * and each such date is a problem); the decimal mark of numbers (`values`;
 * `choice`: every mark could be either, so the column's `decimalMark` is
 * used, else the import's; `default`: a point, as no number has a mark;
 * `mixed`).
 */
export const columnFormatSchema = z.object({
  dateOrder: z.enum(dateOrders).nullable(),
  dateOrderFrom: z.enum(['values', 'choice', 'mixed']).nullable(),
  decimalMark: z.enum(decimalMarks).nullable(),
  decimalMarkFrom: z.enum(['values', 'choice', 'default', 'mixed']).nullable(),
});

export const previewColumnSchema = z.object({
  index: z.number(),
  heading: z.string(),
  target: columnTargetSchema.nullable(),
  /** Why this target was suggested; null when the caller's mapping set it or nothing matched. */
  suggestedBy: z.enum(suggestionSources).nullable(),
  /** How its dates or numbers are read, when its field takes them; null otherwise. */
  format: columnFormatSchema.nullable(),
});

/** A field a column can be mapped to. */
export const importFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.string(),
  required: z.boolean(),
  custom: z.boolean(),
  /** Parts beyond the main one, each a column of its own (`currency`). */
  parts: z.array(z.string()),
  /** A picklist's options. */
  options: z.array(z.string()).optional(),
  /** The referenced record type. */
  to: z.string().optional(),
});

export const previewValueSchema = z.object({
  value: z.string(),
  rows: z.number(),
  /** The option suggested (or the one the caller's mapping gives); null when none fits (a tag is then kept as written). */
  option: z.string().nullable(),
  /** How the suggestion was made: the option itself, in another case or spacing, a synonym, or the caller's. */
  matchedBy: z.enum(['exact', 'normalized', 'synonym', 'mapping']).nullable(),
});

export const previewPicklistSchema = z.object({
  field: z.string(),
  column: z.number(),
  /** The field's options; for tags, the tags already stored in the field (most used first, at most MAX_STORED_OPTIONS). */
  options: z.array(z.string()),
  /**
   * Whether a value no option matches is imported as written (tags: a new
   * tag) rather than being a problem of its rows until it is mapped.
   */
  newValuesKept: z.boolean(),
  values: z.array(previewValueSchema),
  /** More distinct values were found than listed (only the first rows are read for them). */
  more: z.boolean(),
});

export const rowActions = ['create', 'update', 'skip', 'unchanged'] as const;
export type RowAction = (typeof rowActions)[number];

export const previewRowSchema = z.object({
  row: z.number(),
  /** The record's values as they would be stored (references as ids); an update's include those it leaves as they are, and a row matching a stored record its id. */
  values: z.record(z.string(), z.unknown()),
  /** The display names of the records its references found, by field ("France" for the id of HQ country). */
  names: z.record(z.string(), z.string()),
  /** An update's fields that change, with their values before (empty for any other row). */
  previous: z.record(z.string(), z.unknown()),
  /** The display names of the records the changed references held before, by field. */
  previousNames: z.record(z.string(), z.string()),
  /** Problems by field (`row` for the row as a whole). */
  problems: z.record(z.string(), z.string()),
  /** What the row would do, when the duplicates rule is given. */
  action: z.enum(rowActions).nullable(),
});

export const importPreviewSchema = z.object({
  uploadId: z.number(),
  fileName: z.string(),
  kind: z.enum(['csv', 'xlsx']),
  sheets: z.array(z.string()),
  sheet: z.string().nullable(),
  dialect: csvDialectSchema.nullable(),
  headerRow: z.number(),
  headings: z.array(z.string()),
  columns: z.array(previewColumnSchema),
  fields: z.array(importFieldSchema),
  picklists: z.array(previewPicklistSchema),
  /** Keys a duplicate can be matched on: the entity's dedup keys, and `id` when a column is mapped to it. */
  duplicateKeys: z.array(z.string()),
  /** The order read where a column's (or a fixed value's) dates could be either way and the column has none of its own: the caller's, or suggested from Accept-Language. */
  dateOrder: z.enum(dateOrders),
  /** Whether any column or fixed value needs that order (every date in it could be read either way): the caller should confirm it. */
  dateOrderNeeded: z.boolean(),
  /** The decimal mark read where a column's numbers could be read either way and the column has none of its own: the caller's, or suggested from Accept-Language. */
  decimalMark: z.enum(decimalMarks),
  /** Whether any column or fixed value needs that mark: the caller should confirm it. */
  decimalMarkNeeded: z.boolean(),
  rows: z.array(previewRowSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/**
 * A value mapping with every value not decided yet taking the option a
 * preview suggested for it, when it suggested one: what the wizard imports
 * when its user accepts every suggestion. Values nobody decided and the
 * preview could not match stay out: a problem of their rows, or for tags
 * (`newValuesKept`) a new tag as written.
 */
export function withSuggestions(decided: ValueMapping, picklists: ImportPreview['picklists']): ValueMapping {
  const next: ValueMapping = { ...decided };
  for (const { field, values } of picklists) {
    const suggested = values.flatMap(({ value, option }) => (option === null ? [] : [[value, option] as const]));
    next[field] = { ...Object.fromEntries(suggested), ...decided[field] };
  }
  return next;
}

export const importStatuses = [
  'uploaded',
  'queued',
  'checking',
  'writing',
  'undoing',
  'succeeded',
  'failed',
  'cancelled',
  'rolledBack',
  'undone',
] as const;
export type ImportStatus = (typeof importStatuses)[number];
/** Hours an upload that no import was started from is kept; then it and its file are removed. */
export const IMPORT_UPLOAD_HOURS = 24;
/** Statuses of a job that is still going. */
export const activeImportStatuses: readonly ImportStatus[] = ['queued', 'checking', 'writing', 'undoing'];

export const importProblemSchema = z.object({ row: z.number(), field: z.string(), message: z.string() });
export type ImportProblem = z.infer<typeof importProblemSchema>;

export const importJobSchema = z.object({
  id: z.number(),
  entity: z.string(),
  fileName: z.string(),
  status: z.enum(importStatuses),
  mode: z.enum(importModes).nullable(),
  duplicates: duplicateRuleSchema.nullable(),
  /** Rows of the file under its heading (known once checked). */
  rowsTotal: z.number().nullable(),
  rowsChecked: z.number(),
  rowsDone: z.number(),
  rowsPerSecond: z.number().nullable(),
  secondsLeft: z.number().nullable(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  skipped: z.number(),
  failed: z.number(),
  /** Rows of the file that repeat the duplicate key of an earlier row. */
  duplicatesInFile: z.number(),
  /** Rows that matched a stored record on the key. */
  duplicatesStored: z.number(),
  /** The first problems, by row and field; `problemCount` counts them all. */
  problems: z.array(importProblemSchema),
  problemCount: z.number(),
  message: z.string().nullable(),
  /** After a server restart: whether the job went on from where it stopped, or its rows were taken back. */
  recovery: z.enum(['resumed', 'rolledBack']).nullable(),
  /** Where the rows not imported can be downloaded with an error column (skip-bad-rows mode). */
  badRowsUrl: z.string().nullable(),
  undo: z
    .object({
      deleted: z.number(),
      restored: z.number(),
      /** Records left as they are, each with why (changed since the import, deleted). */
      kept: z.array(z.object({ id: z.number(), reason: z.string() })),
      keptCount: z.number(),
    })
    .nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

/** A page of `GET /api/v1/imports`: the caller's jobs, newest first, without their problems. */
export const importJobPageSchema = z.object({
  data: z.array(importJobSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().nullable(),
});
export type ImportJobPage = z.infer<typeof importJobPageSchema>;
