import { companies } from '@data-platform/shared/entities/companies';
import { dealInvestors } from '@data-platform/shared/entities/links';
import { describe, expect, it } from 'vitest';
import { csvColumns, csvField, csvLine, encodeCsv } from './csv.ts';

describe('CSV for COPY', () => {
  it('writes null as an empty field and an empty string as quotes', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField('')).toBe('""');
    expect(csvField(0)).toBe('0');
    expect(csvField(false)).toBe('false');
  });

  it('quotes separators, quotes, line breaks and backslashes', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('Smith, Jones')).toBe('"Smith, Jones"');
    expect(csvField('the "best" fund')).toBe('"the ""best"" fund"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('\\.')).toBe('"\\."');
  });

  it('takes its columns from the description: money as two, generated ones left out', () => {
    const names = csvColumns(companies).map((c) => c.name);
    expect(names).toContain('revenue');
    expect(names).toContain('revenue_currency');
    expect(names).toContain('hq_country_id');
    expect(names).not.toContain('domain');
    expect(names.slice(0, 6)).toEqual(['id', 'created_at', 'updated_at', 'created_by_id', 'updated_by_id', 'version']);
  });

  it('writes money, arrays and nulls of a row', () => {
    const columns = csvColumns(companies);
    const line = csvLine(columns, {
      id: 7,
      name: 'Acme, "Inc"',
      revenue: { amount: 1_500_000, currency: 'EUR' },
      totalRaised: null,
      tags: ['AI', 'B2B, "SaaS"'],
    });
    const fields = Object.fromEntries(columns.map((c, i) => [c.name, i]));
    // Split on commas outside quotes to read the fields back.
    const parts = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)?.map((p) => p.replace(/,$/, '')) ?? [];
    const at = (name: string) => parts[fields[name] as number];
    expect(at('id')).toBe('7');
    expect(at('name')).toBe('"Acme, ""Inc"""');
    expect(at('revenue')).toBe('1500000');
    expect(at('revenue_currency')).toBe('EUR');
    expect(at('total_raised')).toBe('');
    expect(at('total_raised_currency')).toBe('');
    expect(at('legal_name')).toBe('');
    expect(at('tags')).toBe('"{""AI"",""B2B, \\""SaaS\\""""}"');
  });

  it('writes a missing list as an empty array (the column is NOT NULL)', () => {
    const columns = csvColumns(companies);
    const tags = columns.findIndex((c) => c.name === 'tags');
    expect(csvLine(columns, { id: 1, name: 'x' }).split(',')[tags]).toBe('{}');
  });

  it('ends every line, and writes nothing for no rows', () => {
    const columns = csvColumns(dealInvestors);
    expect(encodeCsv(columns, [])).toBe('');
    const csv = encodeCsv(columns, [
      { id: 1, dealId: 1, investorId: 2, commitment: { amount: 5, currency: 'USD' } },
      { id: 2, dealId: 1, investorId: 3 },
    ]);
    expect(csv.split('\n')).toHaveLength(3);
    expect(csv.endsWith('\n')).toBe(true);
  });
});
