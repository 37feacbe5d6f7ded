import { companies } from '@data-platform/shared/entities/companies';
import { contacts } from '@data-platform/shared/entities/contacts';
import { funds } from '@data-platform/shared/entities/funds';
import { dealInvestors } from '@data-platform/shared/entities/links';
import { createSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { describe, expect, it } from 'vitest';
import {
  apiValuesOf,
  changedValues,
  conflictingChanges,
  formFields,
  formValuesOf,
  joinPhone,
  normalizePhoneCode,
  phoneCodeOptions,
  referenceJoins,
  splitPhone,
  toApiValue,
  toFormValue,
} from './record-values.ts';

const field = (type: FieldDescription['type'], extra: Partial<FieldDescription> = {}): FieldDescription => ({
  type,
  label: type,
  ...extra,
});

describe('form values and API values', () => {
  it('give each field type an empty form value, and empty form values back as null', () => {
    const cases: [FieldDescription, unknown][] = [
      [field('text'), ''],
      [field('longText'), ''],
      [field('email'), ''],
      [field('url'), ''],
      [field('phone'), ''],
      [field('integer'), ''],
      [field('decimal'), ''],
      [field('percent'), ''],
      [field('year'), ''],
      [field('money'), { amount: '', currency: '' }],
      [field('currency'), ''],
      [field('date'), ''],
      [field('datetime'), ''],
      [field('select', { options: ['A'] }), null],
      [field('multiSelect', { options: ['A'] }), []],
      [field('tags'), []],
      [field('emails'), []],
      [field('reference', { to: 'firms' }), null],
    ];
    for (const [description, empty] of cases) {
      expect(toFormValue(description, null), description.type).toEqual(empty);
      expect(toApiValue(description, toFormValue(description, null)), description.type).toBeNull();
    }
    expect(toFormValue(field('boolean'), null)).toBe(false);
  });

  it('keep every value through the form unchanged', () => {
    const cases: [FieldDescription, unknown][] = [
      [field('text'), 'Acme'],
      [field('integer'), 42],
      [field('decimal'), 1.5],
      [field('percent'), 12.5],
      [field('year'), 2015],
      [field('money'), { amount: 1_000_000, currency: 'EUR' }],
      [field('currency'), 'USD'],
      [field('date'), '2024-12-31'],
      [field('datetime'), '2024-12-31T10:15:00.000Z'],
      [field('boolean'), true],
      [field('select', { options: ['A', 'B'] }), 'B'],
      [field('multiSelect', { options: ['A', 'B'] }), ['A', 'B']],
      [field('tags'), ['x', 'y']],
      [field('reference', { to: 'firms' }), 7],
    ];
    for (const [description, value] of cases) {
      expect(toApiValue(description, toFormValue(description, value)), description.type).toEqual(value);
    }
  });

  it('shows references as text (what pickers take) and numbers as numbers', () => {
    expect(toFormValue(field('reference', { to: 'firms' }), 7)).toBe('7');
    expect(toFormValue(field('integer'), 3)).toBe(3);
  });

  it('leave an empty required value for the shared schema to call Required', () => {
    const values = formValuesOf(companies, 'create');
    const body = apiValuesOf(companies, 'create', values);
    expect(body.name).toBe('');
    const result = createSchema(companies).safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['name', 'Required']]);
  });

  it('build a body the create schema accepts from a filled form, errors naming the money part', () => {
    const values = {
      ...formValuesOf(companies, 'create'),
      name: 'Acme',
      revenue: { amount: 5, currency: 'EUR' },
      hqCountryId: '3',
    };
    expect(createSchema(companies).safeParse(apiValuesOf(companies, 'create', values)).success).toBe(true);
    const noCurrency = apiValuesOf(companies, 'create', { ...values, revenue: { amount: 5, currency: '' } });
    const issues = createSchema(companies).safeParse(noCurrency).error?.issues ?? [];
    expect(issues.map((issue) => issue.path.join('.'))).toEqual(['revenue.currency']);
  });

  it('show on edit only the fields that may change after creation', () => {
    const linkCreate = formFields(dealInvestors, 'create').map(([name]) => name);
    const linkEdit = formFields(dealInvestors, 'edit').map(([name]) => name);
    expect(linkCreate).toEqual(['dealId', 'investorId', 'role', 'commitment']);
    expect(linkEdit).toEqual(['role', 'commitment']);
    expect(formFields(contacts, 'create').map(([name]) => name)).not.toContain('fullName');
  });

  it('send on save only what the user changed', () => {
    const record = { id: 1, name: 'Acme', stage: 'Seed', revenue: { amount: 5, currency: 'EUR' }, tags: null };
    const edited = { ...formValuesOf(companies, 'edit', record), stage: 'Series A', tags: ['ai'] };
    const parsed = updateSchema(companies).parse(apiValuesOf(companies, 'edit', edited));
    expect(changedValues(companies, record, parsed)).toEqual({ stage: 'Series A', tags: ['ai'] });
  });
});

describe('a stale save', () => {
  it('names the fields someone else changed, with the value before, now and the user’s own', () => {
    const before = { id: 1, version: 1, name: 'Fund I', currency: 'USD', targetSize: 100, status: null };
    const now = { ...before, version: 2, targetSize: 150, status: 'Fundraising' };
    const mine = { targetSize: 120 };
    expect(conflictingChanges(funds, before, now, mine)).toEqual([
      { name: 'status', field: funds.fields.status, before: null, now: 'Fundraising', mine: undefined },
      { name: 'targetSize', field: funds.fields.targetSize, before: 100, now: 150, mine: 120 },
    ]);
  });

  it('sees no change where only the spelling of an empty value differs', () => {
    const before = { id: 1, tags: null, website: null };
    const now = { id: 1, tags: [], website: '' };
    expect(conflictingChanges(companies, before, now, {})).toEqual([]);
  });
});

describe('phone numbers', () => {
  it('split off the longest country code they start with', () => {
    expect(splitPhone('+1268 555 0100', ['+1', '+1268', '+33'])).toEqual({ code: '+1268', number: '555 0100' });
    expect(splitPhone('+33 1 23 45 67 89', ['+1', '+33'])).toEqual({ code: '+33', number: '1 23 45 67 89' });
    expect(splitPhone('01 23', ['+33'])).toEqual({ code: '', number: '01 23' });
  });

  it('join a country code and a number, and stay empty without a number', () => {
    expect(joinPhone('+33', '1 23 45')).toBe('+33 1 23 45');
    expect(joinPhone('+33', '')).toBe('');
    expect(joinPhone('+33', '+44 20')).toBe('+44 20');
  });

  it('offer country codes normalized, each with its country, never one starting with 0', () => {
    expect(normalizePhoneCode('+1-242')).toBe('+1 242');
    expect(normalizePhoneCode('55')).toBe('+55');
    expect(normalizePhoneCode('+1-809 and 1-829')).toBe('+1 809');
    expect(normalizePhoneCode('+0055')).toBe('');
    const options = phoneCodeOptions([
      { id: 3, name: 'Brazil', phoneCode: '+55' },
      { id: 1, name: 'Bahamas', phoneCode: '+1-242' },
      { id: 2, name: 'Bouvet Island', phoneCode: '+0055' },
    ]);
    expect(options).toEqual([
      { value: '1', label: '+1 242 Bahamas', code: '+1 242' },
      { value: '3', label: '+55 Brazil', code: '+55' },
    ]);
    // A number stored with the code as the data set wrote it splits on the normalized code.
    expect(splitPhone('+1-242 555 0100', ['+1', '+1 242'])).toEqual({ code: '+1 242', number: '555 0100' });
  });
});

it('joins every referenced record by its display field', () => {
  expect(referenceJoins(contacts)).toEqual([
    'createdBy(fullName)',
    'updatedBy(fullName)',
    'firm(name)',
    'hqCountry(name)',
    'hqState(name)',
    'owner(fullName)',
  ]);
});
