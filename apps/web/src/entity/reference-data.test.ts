import { describe, expect, it } from 'vitest';
import { currencyOptions } from './reference-data.ts';

const currencies = [
  { code: 'AED', name: 'UAE Dirham' },
  { code: 'BRL', name: 'Brazilian Real' },
  { code: 'CHF', name: 'Swiss Franc' },
  { code: 'EUR', name: 'Euro' },
  { code: 'GBP', name: 'Pound Sterling' },
  { code: 'JPY', name: 'Yen' },
  { code: 'USD', name: 'US Dollar' },
  { code: 'XTS', name: 'Codes specifically reserved for testing purposes' },
];

describe('currency pickers', () => {
  it('read each code with its name in the language, the common ones first', () => {
    const english = currencyOptions(currencies, 'en');
    expect(english.map((option) => option.value)).toEqual(['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'AED', 'BRL', 'XTS']);
    expect(english[0]).toEqual({ value: 'USD', label: 'USD · US Dollar' });
    const french = currencyOptions(currencies, 'fr');
    expect(french[0]?.label).toBe('USD · Dollar des États-Unis');
    expect(french[1]?.label).toBe('EUR · Euro');
  });
});
