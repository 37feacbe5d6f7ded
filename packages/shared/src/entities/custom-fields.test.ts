import { describe, expect, it } from 'vitest';
import { companies } from './companies.ts';
import { type CustomFieldDefinition, withCustomFields } from './custom-fields.ts';
import { allFields } from './entity.ts';
import { createSchema, updateSchema } from './record-schema.ts';
import { users } from './users.ts';

const definitions: CustomFieldDefinition[] = [
  { id: 9, entity: 'companies', name: 'Check size', key: 'cf9', type: 'money', position: 2 },
  {
    id: 7,
    entity: 'companies',
    name: 'Source',
    key: 'cf7',
    type: 'select',
    options: ['Referral'],
    position: 1,
    groupId: 3,
    required: true,
  },
  { id: 8, entity: 'deals', name: 'Next step', key: 'cf8', type: 'text' },
  {
    id: 10,
    entity: 'companies',
    name: 'Themes',
    key: 'cf10',
    type: 'tags',
    position: 3,
    description: 'Investment themes',
  },
];

describe('custom fields as field descriptions', () => {
  const described = withCustomFields(companies, definitions);

  it('come after the built-in fields of their own record type, in their positions', () => {
    expect(Object.keys(described.fields).slice(-3)).toEqual(['cf7', 'cf9', 'cf10']);
    expect(Object.keys(allFields(described))).not.toContain('cf8');
    expect(described.fields.cf7).toMatchObject({
      type: 'select',
      label: 'Source',
      options: ['Referral'],
      required: true,
      filterable: true,
      sortable: true,
      custom: { groupId: 3, position: 1 },
    });
    expect(described.fields.cf10).toMatchObject({ sortable: false, help: 'Investment themes' });
  });

  it('are the same description for the same definitions, and none for other entities', () => {
    expect(withCustomFields(companies, definitions)).toBe(described);
    expect(withCustomFields(users, definitions)).toBe(users);
    expect(withCustomFields(companies, [])).toBe(companies);
  });

  it('validate like built-in fields: a required one on create, choices, no null for a required one on update', () => {
    expect(createSchema(described).safeParse({ name: 'Acme' }).success).toBe(false);
    expect(createSchema(described).safeParse({ name: 'Acme', cf7: 'Referral' }).success).toBe(true);
    expect(createSchema(described).safeParse({ name: 'Acme', cf7: 'Cold call' }).success).toBe(false);
    expect(updateSchema(described).safeParse({ cf7: null }).success).toBe(false);
    expect(updateSchema(described).safeParse({ cf9: { amount: 5, currency: 'EUR' } }).success).toBe(true);
    expect(updateSchema(described).safeParse({ cf8: 'deals only' }).success).toBe(false);
  });
});
