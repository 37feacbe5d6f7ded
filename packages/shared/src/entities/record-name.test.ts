import { describe, expect, it } from 'vitest';
import { companies } from './companies.ts';
import { operationsOf } from './entity.ts';
import { fundPerformances } from './fund-performances.ts';
import { recordName, recordNameJoins } from './record-name.ts';
import { entityList } from './registry.ts';

describe('every record is reachable and named', () => {
  it('every list screen whose records the generic API creates has record screens (create modal, show, edit)', () => {
    for (const entity of entityList) {
      if (!entity.navigation || !operationsOf(entity).includes('create')) continue;
      expect(entity.navigation.records, entity.name).toMatchObject({
        edit: expect.stringMatching(/^(page|modal)$/),
        show: expect.stringMatching(/^(generic|own)$/),
      });
    }
  });

  it('a name within another record names a reference of the entity', () => {
    for (const entity of entityList) {
      if (!entity.displayWithin) continue;
      expect(entity.fields[entity.displayWithin]?.type, entity.name).toBe('reference');
      expect(recordNameJoins(entity), entity.name).toHaveLength(1);
    }
  });

  it("a fund's performance is named by its fund and date; a company by its name", () => {
    const row = { id: 3, asOfDate: '2025-12-31', fund: { id: 1, name: 'Fund II' } };
    expect(recordName(fundPerformances, row)).toBe('Fund II · 2025-12-31');
    expect(recordName(fundPerformances, { id: 3, asOfDate: '2025-12-31' })).toBe('2025-12-31');
    expect(recordNameJoins(fundPerformances)).toEqual(['fund(name)']);
    expect(recordName(companies, { id: 7, name: 'Acme' })).toBe('Acme');
    expect(recordName(companies, { id: 7, name: '' })).toBe('#7');
  });
});
