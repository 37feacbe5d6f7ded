import type { ImportPreview } from '@data-platform/shared/imports';
import { describe, expect, it } from 'vitest';
import { sampleJob } from './sample-job.ts';
import {
  canUndo,
  choiceOption,
  columnsNeeding,
  decideValue,
  fixedToSend,
  hasBadRows,
  KEEP_AS_WRITTEN,
  LEAVE_EMPTY,
  progressOf,
  readingOf,
  repeatedTargets,
  SKIP,
  targetKey,
  targetOf,
  timeLeft,
  unmappedTargets,
  valueChoice,
  valuesToSend,
  withColumnReading,
  withMatches,
  withSuggestions,
} from './wizard-logic.ts';

const picklist = (
  field: string,
  values: [string, string | null][],
  tags?: { stored: string[] },
): ImportPreview['picklists'][number] => ({
  field,
  column: 0,
  options: tags?.stored ?? [],
  newValuesKept: tags !== undefined,
  more: false,
  values: values.map(([value, option]) => ({ value, rows: 1, option, matchedBy: option ? 'synonym' : null })),
});

describe('column targets', () => {
  it('go to and from a select value, a money part and Skip included', () => {
    for (const target of [{ field: 'name' }, { field: 'revenue', part: 'currency' }, null]) {
      expect(targetOf(targetKey(target))).toEqual(target);
    }
    expect(targetKey(null)).toBe(SKIP);
    expect(targetOf(null)).toBeNull();
  });

  it('name each column mapped to a target an earlier column has, with that column', () => {
    const repeated = repeatedTargets([
      { field: 'name' },
      null,
      { field: 'name' },
      { field: 'revenue' },
      { field: 'revenue', part: 'currency' },
    ]);
    expect([...repeated]).toEqual([[2, 0]]);
  });
});

describe('value mapping', () => {
  it("takes the server's suggestions as defaults and keeps what the user decided", () => {
    const first = withSuggestions({}, [
      picklist('industry', [
        ['software', 'Software'],
        ['widgets', null],
      ]),
    ]);
    expect(first).toEqual({ industry: { software: 'Software' } });
    const decided = decideValue(decideValue(first, 'industry', 'software', 'Fintech'), 'industry', 'widgets', null);
    const again = withSuggestions(decided, [
      picklist('industry', [
        ['software', 'Software'],
        ['widgets', null],
        ['bio', 'Biotech'],
      ]),
      picklist('stage', [['series a', 'Series A']]),
    ]);
    expect(again).toEqual({
      industry: { software: 'Fintech', widgets: null, bio: 'Biotech' },
      stage: { 'series a': 'Series A' },
    });
    expect(decideValue(again, 'industry', 'bio', undefined).industry).toEqual({ software: 'Fintech', widgets: null });
  });

  it('shows a value as its option, left empty, or undecided, and reads a choice back', () => {
    const values = { industry: { software: 'Software', widgets: null } };
    const industry = picklist('industry', []);
    expect(valueChoice(values, industry, 'software')).toBe('Software');
    expect(valueChoice(values, industry, 'widgets')).toBe(LEAVE_EMPTY);
    expect(valueChoice(values, industry, 'other')).toBeNull();
    // A value called as an object's own keys are is undecided all the same.
    expect(valueChoice(values, industry, 'constructor')).toBeNull();
    expect(valueChoice(values, picklist('stage', []), 'seed')).toBeNull();
    expect(choiceOption('Software', 'software')).toBe('Software');
    expect(choiceOption(LEAVE_EMPTY, 'widgets')).toBeNull();
    expect(choiceOption(null, 'other')).toBeUndefined();
  });

  it('keeps a tag nothing matches as a new tag, never flagged, and keeps that choice over a later suggestion', () => {
    const stored = ['Fintech', 'AI'];
    const preview = [
      picklist(
        'tags',
        [
          ['fintech', 'Fintech'],
          ['Climate', null],
          ['AI', 'AI'],
        ],
        { stored },
      ),
    ];
    const tags = preview[0] as ImportPreview['picklists'][number];
    const first = withSuggestions({}, preview);
    expect(first).toEqual({ tags: { fintech: 'Fintech', AI: 'AI' } });
    // The suggestions preselected; a value no stored tag matches shows as kept, not as undecided.
    expect(valueChoice(first, tags, 'fintech')).toBe('Fintech');
    expect(valueChoice(first, tags, 'AI')).toBe('AI');
    expect(valueChoice(first, tags, 'Climate')).toBe(KEEP_AS_WRITTEN);
    // Keeping "fintech" as written is a decision (the value itself): a later preview's suggestion does not undo it.
    const kept = decideValue(first, 'tags', 'fintech', choiceOption(KEEP_AS_WRITTEN, 'fintech'));
    expect(kept.tags).toEqual({ fintech: 'fintech', AI: 'AI' });
    expect(valueChoice(kept, tags, 'fintech')).toBe(KEEP_AS_WRITTEN);
    expect(withSuggestions(kept, preview).tags).toEqual({ fintech: 'fintech', AI: 'AI' });
    // A tag mapped to another stored tag, or left out.
    const other = decideValue(kept, 'tags', 'Climate', choiceOption('Fintech', 'Climate'));
    expect(valueChoice(other, tags, 'Climate')).toBe('Fintech');
    const left = decideValue(other, 'tags', 'Climate', choiceOption(LEAVE_EMPTY, 'Climate'));
    expect(valueChoice(left, tags, 'Climate')).toBe(LEAVE_EMPTY);
    // Cleared, it is kept as written again, as the import does with a value the mapping does not name.
    expect(valueChoice(decideValue(left, 'tags', 'Climate', undefined), tags, 'Climate')).toBe(KEEP_AS_WRITTEN);
  });

  it('sends only the fields a column goes to, and none left without a decided value', () => {
    const values = { industry: { software: 'Software' }, stage: { seed: 'Seed' }, status: {} };
    expect(valuesToSend([{ field: 'industry' }, null, { field: 'status' }], values)).toEqual({
      industry: { software: 'Software' },
    });
  });
});

describe('values for every row', () => {
  const field = (name: string, changes: Partial<ImportPreview['fields'][number]> = {}) => ({
    name,
    label: name,
    type: 'text',
    required: false,
    custom: false,
    parts: [],
    ...changes,
  });
  const fields = [
    field('name', { required: true }),
    field('revenue', { type: 'money', parts: ['currency'] }),
    field('firmId', { type: 'reference', to: 'firms' }),
  ];

  it('are offered for the fields and parts no column goes to', () => {
    const keys = (mapping: Parameters<typeof unmappedTargets>[1]) =>
      unmappedTargets(fields, mapping).map((target) => [target.key, target.part ?? null]);
    expect(keys([{ field: 'name' }, null])).toEqual([
      ['revenue', null],
      ['revenue.currency', 'currency'],
      ['firmId', null],
    ]);
    // A column on the amount (named with or without its part) leaves the currency open.
    expect(keys([{ field: 'revenue', part: 'amount' }])).toEqual([
      ['name', null],
      ['revenue.currency', 'currency'],
      ['firmId', null],
    ]);
    expect(keys([{ field: 'revenue' }, { field: 'revenue', part: 'currency' }, { field: 'firmId' }])).toEqual([
      ['name', null],
    ]);
  });

  it('are sent when given, for fields no column goes to', () => {
    const fixed = { firmId: '12', 'revenue.currency': 'EUR', name: 'Kept out: a column maps it', revenue: '  ' };
    expect(fixedToSend(fields, [{ field: 'name' }, { field: 'revenue' }], fixed)).toEqual({
      firmId: '12',
      'revenue.currency': 'EUR',
    });
  });
});

describe('date order', () => {
  it('is asked for the columns whose dates could all be read either way', () => {
    const format = (dateOrderFrom: 'values' | 'choice' | null) => ({
      dateOrder: dateOrderFrom ? ('dmy' as const) : null,
      dateOrderFrom,
      decimalMark: null,
      decimalMarkFrom: null,
    });
    const preview = {
      columns: [
        { index: 0, heading: 'Date', target: { field: 'date' }, suggestedBy: null, format: format('choice') },
        { index: 1, heading: 'Closed', target: { field: 'closedDate' }, suggestedBy: null, format: format('values') },
        { index: 2, heading: '', target: { field: 'expectedCloseDate' }, suggestedBy: null, format: format('choice') },
        { index: 3, heading: 'Name', target: { field: 'name' }, suggestedBy: null, format: null },
      ],
    } as unknown as ImportPreview;
    expect(columnsNeeding(preview, 'dateOrder')).toEqual([
      { index: 0, heading: 'Date' },
      { index: 2, heading: '3' },
    ]);
  });
});

describe('decimal mark', () => {
  it('is asked for the columns whose numbers could all be read either way', () => {
    const format = (decimalMarkFrom: 'values' | 'choice' | 'default') => ({
      dateOrder: null,
      dateOrderFrom: null,
      decimalMark: '.' as const,
      decimalMarkFrom,
    });
    const preview = {
      columns: [
        { index: 0, heading: 'Level', target: { field: 'level' }, suggestedBy: null, format: format('choice') },
        { index: 1, heading: 'Size', target: { field: 'amount' }, suggestedBy: null, format: format('values') },
        { index: 2, heading: 'Count', target: { field: 'employees' }, suggestedBy: null, format: format('default') },
        { index: 3, heading: '', target: { field: 'revenue' }, suggestedBy: null, format: format('choice') },
      ],
    } as unknown as ImportPreview;
    expect(columnsNeeding(preview, 'decimalMark')).toEqual([
      { index: 0, heading: 'Level' },
      { index: 3, heading: '4' },
    ]);
    expect(columnsNeeding(preview, 'dateOrder')).toEqual([]);
  });
});

describe('a reading per column', () => {
  const preview = { dateOrder: 'mdy', decimalMark: '.' } as const;
  const mapping = [
    { field: 'name' },
    { field: 'firstCloseDate', dateOrder: 'dmy' as const },
    { field: 'finalCloseDate' },
  ];

  it("reads a column with its own choice, else the import's, else the preview's suggestion", () => {
    const choices = { mapping, dateOrder: null, decimalMark: null };
    expect(readingOf(choices, preview, 'dateOrder', 1)).toBe('dmy');
    expect(readingOf(choices, preview, 'dateOrder', 2)).toBe('mdy');
    expect(readingOf(choices, preview, 'dateOrder')).toBe('mdy');
    expect(readingOf({ ...choices, dateOrder: 'dmy' }, preview, 'dateOrder', 2)).toBe('dmy');
    expect(readingOf({ ...choices, dateOrder: 'dmy' }, preview, 'dateOrder', 1)).toBe('dmy');
    expect(readingOf({ ...choices, decimalMark: ',' }, preview, 'decimalMark', 0)).toBe(',');
    // A skipped column has none of its own.
    expect(readingOf({ ...choices, mapping: [null] }, preview, 'decimalMark', 0)).toBe('.');
  });

  it("sets or drops one column's own choice, leaving the other columns and readings as they are", () => {
    const set = withColumnReading(mapping, 2, 'dateOrder', 'mdy');
    expect(set).toEqual([
      { field: 'name' },
      { field: 'firstCloseDate', dateOrder: 'dmy' },
      { field: 'finalCloseDate', dateOrder: 'mdy' },
    ]);
    expect(withColumnReading(set, 1, 'dateOrder', undefined)).toEqual([
      { field: 'name' },
      { field: 'firstCloseDate' },
      { field: 'finalCloseDate', dateOrder: 'mdy' },
    ]);
    const marked = withColumnReading([{ field: 'amount', part: 'amount' }, null], 0, 'decimalMark', ',');
    expect(marked).toEqual([{ field: 'amount', part: 'amount', decimalMark: ',' }, null]);
    expect(withColumnReading(marked, 1, 'decimalMark', ',')).toEqual(marked);
    // The target stays the same for the select and for repeated targets.
    expect(marked.map(targetKey)).toEqual(['amount:amount', SKIP]);
    expect(mapping).toEqual([
      { field: 'name' },
      { field: 'firstCloseDate', dateOrder: 'dmy' },
      { field: 'finalCloseDate' },
    ]);
  });
});

describe('progress', () => {
  it('counts rows checked while checking and rows done while writing, of the rows of the file', () => {
    expect(progressOf(sampleJob({ status: 'checking', rowsTotal: 200, rowsChecked: 50, rowsDone: 0 }))).toEqual({
      phase: 'checking',
      done: 50,
      total: 200,
      percent: 25,
    });
    expect(progressOf(sampleJob({ status: 'writing', rowsTotal: 3, rowsChecked: 3, rowsDone: 2 }))).toEqual({
      phase: 'writing',
      done: 2,
      total: 3,
      percent: 66,
    });
  });

  it('has no measure while the total is unknown or while undoing, and a full bar for an empty file', () => {
    expect(progressOf(sampleJob({ status: 'queued', rowsTotal: null, rowsDone: 0 })).percent).toBeNull();
    expect(progressOf(sampleJob({ status: 'writing', rowsTotal: null, rowsDone: 40 }))).toMatchObject({
      done: 40,
      percent: null,
    });
    expect(progressOf(sampleJob({ status: 'undoing' })).percent).toBeNull();
    // An undo follows a finished import; a job that never finished is being taken back.
    expect(progressOf(sampleJob({ status: 'undoing', finishedAt: '2026-11-28T10:00:00.000Z' })).phase).toBe('undoing');
    expect(progressOf(sampleJob({ status: 'undoing', finishedAt: null })).phase).toBe('takingBack');
    expect(progressOf(sampleJob({ status: 'writing', rowsTotal: 0, rowsDone: 0 })).percent).toBe(100);
    expect(progressOf(sampleJob({ status: 'writing', rowsTotal: 10, rowsDone: 12 })).percent).toBe(100);
  });

  it('tells the time left in hours, minutes and seconds, rounded up', () => {
    expect(timeLeft(0)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
    expect(timeLeft(0.2)).toEqual({ hours: 0, minutes: 0, seconds: 1 });
    expect(timeLeft(59.5)).toEqual({ hours: 0, minutes: 1, seconds: 0 });
    expect(timeLeft(3725)).toEqual({ hours: 1, minutes: 2, seconds: 5 });
    expect(timeLeft(-3)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
  });
});

describe('what an ended job offers', () => {
  it('undo once it has written records and was not undone, and bad rows when some were set aside', () => {
    expect(canUndo(sampleJob({ created: 2 }))).toBe(true);
    expect(canUndo(sampleJob({ status: 'cancelled', updated: 1 }))).toBe(true);
    expect(canUndo(sampleJob({ created: 0, updated: 0 }))).toBe(false);
    expect(canUndo(sampleJob({ status: 'writing', created: 2 }))).toBe(false);
    expect(canUndo(sampleJob({ status: 'undone', created: 2 }))).toBe(false);
    expect(canUndo(sampleJob({ created: 2, undo: { deleted: 2, restored: 0, kept: [], keptCount: 0 } }))).toBe(false);
    expect(hasBadRows(sampleJob({ failed: 1, badRowsUrl: '/api/v1/imports/1/bad-rows' }))).toBe(true);
    expect(hasBadRows(sampleJob({}))).toBe(false);
  });
});

describe('value matches', () => {
  it("keep the server's first reason for a suggestion, not the later previews' echo of the wizard's choice", () => {
    const first = withMatches({}, [
      picklist('industry', [
        ['tech', 'Software'],
        ['widgets', null],
      ]),
    ]);
    expect(first).toEqual({ industry: { tech: { by: 'synonym', option: 'Software' } } });
    const echoed: ImportPreview['picklists'][number] = {
      ...picklist('industry', []),
      values: [{ value: 'tech', rows: 1, option: 'Fintech', matchedBy: 'mapping' }],
    };
    expect(withMatches(first, [echoed])).toEqual(first);
  });
});
