import type { DateOrder, DecimalMark } from '@data-platform/shared/fields/cell-formats';
import type {
  ColumnTarget,
  FixedValues,
  ImportJob,
  ImportPreview,
  ImportStatus,
  ValueMapping,
} from '@data-platform/shared/imports';

/**
 * The import wizard's pure parts: a column's target as a select's value, the
 * value mapping of picklist and tags columns (the server's suggestions as
 * defaults the user changes), what the preview and the job are sent, and a job's progress.
 */

/** A select's value for a skipped column. */
export const SKIP = '__skip__';
/** A select's value for a picklist value left empty on import. */
export const LEAVE_EMPTY = '__empty__';
/** A select's value for a tag imported as the file writes it: a new tag. */
export const KEEP_AS_WRITTEN = '__keep__';

/** A column's target as one string (`industry`, `revenue:currency`), SKIP when skipped. */
export const targetKey = (target: ColumnTarget | null): string =>
  target ? (target.part ? `${target.field}:${target.part}` : target.field) : SKIP;

/** The target a select's value stands for. */
export function targetOf(key: string | null): ColumnTarget | null {
  if (!key || key === SKIP) return null;
  const [field = '', part] = key.split(':', 2);
  return part ? { field, part } : { field };
}

/** The columns mapped to a target an earlier column already has (the server refuses such a mapping): index → earlier index. */
export function repeatedTargets(mapping: readonly (ColumnTarget | null)[]): Map<number, number> {
  const first = new Map<string, number>();
  const repeated = new Map<number, number>();
  mapping.forEach((target, index) => {
    if (!target) return;
    const key = targetKey(target);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else repeated.set(index, earlier);
  });
  return repeated;
}

/**
 * The value mapping after a preview: what the user decided stays, and every
 * value not decided yet takes the option the server suggested (the rule
 * `POST /api/v1/imports/file` applies without a mapping).
 */
export { withSuggestions } from '@data-platform/shared/imports';

/** How the server suggested each value's option, per field: kept from the preview that first suggested it. */
export type ValueMatches = Record<string, Record<string, { by: 'exact' | 'normalized' | 'synonym'; option: string }>>;

/**
 * The matches after a preview: a later preview answers `mapping` for the values
 * the wizard sent, so the first suggestion's reason is kept to show it.
 */
export function withMatches(current: ValueMatches, picklists: ImportPreview['picklists']): ValueMatches {
  const next: ValueMatches = { ...current };
  for (const picklist of picklists) {
    const seen = { ...(next[picklist.field] ?? {}) };
    for (const { value, matchedBy, option } of picklist.values) {
      if (!(value in seen) && option !== null && matchedBy !== null && matchedBy !== 'mapping') {
        seen[value] = { by: matchedBy, option };
      }
    }
    next[picklist.field] = seen;
  }
  return next;
}

/** Sets (or, with undefined, forgets) what one value of a picklist column stands for. */
export function decideValue(
  current: ValueMapping,
  field: string,
  value: string,
  option: string | null | undefined,
): ValueMapping {
  const decided = { ...(current[field] ?? {}) };
  if (option === undefined) delete decided[value];
  else decided[value] = option;
  return { ...current, [field]: decided };
}

/** The value mapping the server accepts: only fields a column is mapped to (others are refused). */
export function valuesToSend(mapping: readonly (ColumnTarget | null)[], values: ValueMapping): ValueMapping {
  const mapped = new Set(mapping.flatMap((target) => (target ? [target.field] : [])));
  return Object.fromEntries(
    Object.entries(values).filter(([field, decided]) => mapped.has(field) && Object.keys(decided).length > 0),
  );
}

/** A field (or one part of it) that may get a value for every row: its `fixed` key (`indexId`, `revenue.currency`). */
export interface FixedTarget {
  key: string;
  field: ImportPreview['fields'][number];
  part?: string;
}

/** A target's key in `fixed`: the field's name, `<field>.<part>` for an extra part. */
export const fixedKey = (target: ColumnTarget): string =>
  target.part ? `${target.field}.${target.part}` : target.field;

/**
 * The fields (and extra parts) no column maps to, each of which may get a
 * value for every row, in the preview's order of fields.
 */
export function unmappedTargets(
  fields: ImportPreview['fields'],
  mapping: readonly (ColumnTarget | null)[],
): FixedTarget[] {
  const extraParts = new Map(fields.map((field) => [field.name, field.parts]));
  // A column mapped to a field's main part (`revenue`, or `revenue` `amount`) maps the field itself.
  const mapped = new Set(
    mapping.flatMap((target) => {
      if (!target) return [];
      const extra = target.part !== undefined && extraParts.get(target.field)?.includes(target.part);
      return [extra ? fixedKey(target) : target.field];
    }),
  );
  return fields.flatMap((field) => [
    ...(mapped.has(field.name) ? [] : [{ key: field.name, field }]),
    ...field.parts.flatMap((part) => {
      const key = fixedKey({ field: field.name, part });
      return mapped.has(key) ? [] : [{ key, field, part }];
    }),
  ]);
}

/** The fixed values the server accepts: given (not blank), for fields no column maps to (others are refused). */
export function fixedToSend(
  fields: ImportPreview['fields'],
  mapping: readonly (ColumnTarget | null)[],
  fixed: FixedValues,
): FixedValues {
  const open = new Set(unmappedTargets(fields, mapping).map((target) => target.key));
  return Object.fromEntries(Object.entries(fixed).filter(([key, value]) => open.has(key) && value.trim() !== ''));
}

/** How a column's values are read where they could be read either way: the order of day and month, the decimal mark. */
export interface ReadingValues {
  dateOrder: DateOrder;
  decimalMark: DecimalMark;
}
export type Reading = keyof ReadingValues;

/** A column whose values could all be read either way: its position, and its heading (its number when it has none). */
export interface ColumnNeedingChoice {
  index: number;
  heading: string;
}

/** The columns whose dates (`dateOrder`) or numbers (`decimalMark`) could all be read either way: a choice reads them. */
export const columnsNeeding = (preview: ImportPreview, reading: Reading): ColumnNeedingChoice[] =>
  preview.columns.flatMap((column) =>
    (reading === 'dateOrder' ? column.format?.dateOrderFrom : column.format?.decimalMarkFrom) === 'choice'
      ? [{ index: column.index, heading: column.heading || String(column.index + 1) }]
      : [],
  );

/** The import's readings as chosen so far (null: the preview's suggestion), and the mapping, whose columns may have their own. */
export type ReadingChoices = { mapping: readonly (ColumnTarget | null)[] } & {
  [R in Reading]: ReadingValues[R] | null;
};

/**
 * What a column is read with where its values could be read either way:
 * its own choice, else the import's (the user's, else the preview's
 * suggestion from the interface's language). Without a column, the import's.
 */
export function readingOf<R extends Reading>(
  choices: ReadingChoices,
  preview: Pick<ImportPreview, Reading>,
  reading: R,
  index?: number,
): ReadingValues[R] {
  const own = index === undefined ? undefined : choices.mapping[index]?.[reading];
  return (own ?? choices[reading] ?? preview[reading]) as ReadingValues[R];
}

/** The mapping with one column's own reading set, or (undefined) dropped so that the import's reads it. */
export function withColumnReading<R extends Reading>(
  mapping: readonly (ColumnTarget | null)[],
  index: number,
  reading: R,
  value: ReadingValues[R] | undefined,
): (ColumnTarget | null)[] {
  return mapping.map((target, i) => {
    if (i !== index || !target) return target;
    const next: ColumnTarget = { ...target };
    delete next[reading];
    // The key is the reading's own: a day/month order for `dateOrder`, a mark for `decimalMark`.
    return value === undefined ? next : ({ ...next, [reading]: value } as ColumnTarget);
  });
}

/** A picklist column of the preview, as a value's select needs it. */
type PicklistOf = Pick<ImportPreview['picklists'][number], 'field' | 'options' | 'newValuesKept'>;

/**
 * What a select shows for a value: the option, LEAVE_EMPTY, or nothing
 * chosen. For tags (`newValuesKept`), a value nobody decided, or decided to
 * stay itself where no stored tag is written so, is KEEP_AS_WRITTEN: the
 * import keeps it as a new tag, so it is never left without a choice.
 */
export function valueChoice(values: ValueMapping, picklist: PicklistOf, value: string): string | null {
  const decided = values[picklist.field];
  const has = decided !== undefined && Object.hasOwn(decided, value);
  if (picklist.newValuesKept) {
    const tag = has ? decided[value] : undefined;
    if (tag === undefined || (tag === value && !picklist.options.includes(value))) return KEEP_AS_WRITTEN;
    return tag ?? LEAVE_EMPTY;
  }
  if (!has) return null;
  return decided[value] ?? LEAVE_EMPTY;
}

/**
 * What a select's choice for `value` means for the value mapping: an option,
 * null (left empty), the value itself (a tag kept as written: decided, so
 * that a later preview's suggestion does not take its place), or undecided.
 */
export const choiceOption = (choice: string | null, value: string): string | null | undefined =>
  choice === null ? undefined : choice === LEAVE_EMPTY ? null : choice === KEEP_AS_WRITTEN ? value : choice;

/** The preview's rows with a problem, and how many there are. */
export const rowsWithProblems = (rows: ImportPreview['rows']) =>
  rows.filter((row) => Object.keys(row.problems).length > 0).length;

/** Statuses of a job that is still going, then of one that has ended. */
const going: readonly ImportStatus[] = ['queued', 'checking', 'writing', 'undoing'];
export const isGoing = (status: ImportStatus) => going.includes(status);

export interface Progress {
  /** What the job is doing. */
  phase: 'queued' | 'checking' | 'writing' | 'undoing' | 'takingBack';
  /** Rows handled in this phase. */
  done: number;
  /** Rows of the file, when known. */
  total: number | null;
  /** 0 to 100, null when the total is not known yet (the bar then moves without a measure). */
  percent: number | null;
}

/**
 * A job's progress: rows checked while it checks (before writing, or the rest of the file after a bad row, all or
 * nothing), rows done while it writes; undoing a finished import, or taking back one that never finished.
 */
export function progressOf(
  job: Pick<ImportJob, 'status' | 'rowsTotal' | 'rowsChecked' | 'rowsDone' | 'finishedAt'>,
): Progress {
  const phase =
    job.status === 'undoing'
      ? job.finishedAt === null
        ? 'takingBack'
        : 'undoing'
      : job.status === 'checking' || job.status === 'writing'
        ? job.status
        : 'queued';
  const done = phase === 'checking' ? job.rowsChecked : phase === 'writing' ? job.rowsDone : 0;
  const total = phase === 'undoing' || phase === 'takingBack' ? null : job.rowsTotal;
  const percent =
    total === null ? null : total === 0 ? 100 : Math.min(100, Math.max(0, Math.floor((done / total) * 100)));
  return { phase, done, total, percent };
}

/** Seconds left as hours, minutes and seconds (rounded up to the second: never "0 s" while work is left). */
export function timeLeft(seconds: number): { hours: number; minutes: number; seconds: number } {
  const whole = Math.max(0, Math.ceil(seconds));
  return { hours: Math.floor(whole / 3600), minutes: Math.floor((whole % 3600) / 60), seconds: whole % 60 };
}

/** Whether the job can be undone: it has ended having written records, and was not undone yet. */
export const canUndo = (job: ImportJob) =>
  (job.status === 'succeeded' || job.status === 'cancelled' || job.status === 'failed') &&
  job.undo === null &&
  job.created + job.updated > 0;

/** Whether the job set rows aside that can be downloaded. */
export const hasBadRows = (job: ImportJob) => job.badRowsUrl !== null && job.failed > 0;
