import { companies } from '@data-platform/shared/entities/companies';
import { createSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { describe, expect, it } from 'vitest';
import { pgArrayLiteral } from '../src/crud/sql-fragments.ts';
import { createFloor, getFloor, PLACEHOLDER_NUMBER, PLACEHOLDER_TEXT, updateFloor } from './floor.ts';

/**
 * The SQL floor's statements are the server's own (crud/records.ts), with the
 * values each execution changes found among their parameters. A change to how
 * the server binds a value (the columnar insert binds it as an array's item)
 * must not leave the bench unable to build them, which only a run at scale showed.
 */
describe('the SQL floor of the bench', () => {
  it('builds the create, update and get statements, each binding its varying values anew', () => {
    let n = 0;
    const create = createFloor(
      companies,
      { ...createSchema(companies).parse({ name: 'x', city: 'Lyon' }), name: PLACEHOLDER_TEXT },
      1,
      () => `Bench Company ${++n}`,
    );
    expect(create.next()).toContain(pgArrayLiteral(['Bench Company 1']));
    expect(create.next()).toContain(pgArrayLiteral(['Bench Company 2']));
    expect(create.next()).not.toContain(pgArrayLiteral([PLACEHOLDER_TEXT]));

    const update = updateFloor(
      companies,
      { ...updateSchema(companies).parse({ employees: 1 }), employees: PLACEHOLDER_NUMBER },
      1,
      1,
      () => 42,
      () => 7,
    );
    const bound = update.next();
    expect(bound).toContain(42);
    expect(bound).toContain('7');
    expect(bound).not.toContain(String(PLACEHOLDER_NUMBER));

    const get = getFloor(companies, () => 99);
    expect(get.next()).toContain(99);
    expect(get.slots.length).toBeGreaterThan(0);
  });
});
