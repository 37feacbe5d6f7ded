import { describe, expect, it } from 'vitest';
import { formatters, numberSeparators } from './format.ts';

const en = formatters('en');
const fr = formatters('fr');
/** French groups digits with a narrow no-break space. */
const nbsp = (text: string) => text.replace(/\u202f|\u00a0/g, ' ');

describe('file sizes', () => {
  it('read with their unit, one decimal where it helps', () => {
    expect(en.fileSize(3_000_000)).toBe('3 MB');
    expect(nbsp(fr.fileSize(3_000_000))).toBe('3 Mo');
    expect(en.fileSize(3_145_728)).toBe('3.1 MB');
    expect(nbsp(fr.fileSize(3_145_728))).toBe('3,1 Mo');
    expect(en.fileSize(12_345)).toBe('12 kB');
    expect(en.fileSize(999_999)).toBe('1 MB');
    expect(en.fileSize(512)).toBe('512 bytes');
    expect(nbsp(fr.fileSize(512))).toBe('512 octets');
    expect(en.fileSize(2_500_000_000)).toBe('2.5 GB');
  });
});

describe('multiples', () => {
  it('always have two decimals and an x', () => {
    expect(en.multiple(4.2)).toBe('4.20x');
    expect(en.multiple(4.13)).toBe('4.13x');
    expect(en.multiple(1.3456)).toBe('1.35x');
    expect(nbsp(fr.multiple(4.2))).toBe('4,20x');
    expect(en.multiple(0)).toBe('0.00x');
  });
});

describe('number separators', () => {
  it('are the language’s, for money inputs', () => {
    expect(numberSeparators('en')).toEqual({ thousand: ',', decimal: '.' });
    const french = numberSeparators('fr');
    expect(nbsp(french.thousand)).toBe(' ');
    expect(french.decimal).toBe(',');
  });
});
