import { describe, expect, it } from 'vitest';
import type { CellT } from './field-widgets/widget.ts';
import { rememberingT } from './grid-text.ts';

describe('rememberingT', () => {
  const counting = () => {
    const calls: string[] = [];
    const t = ((key: string, options?: Record<string, unknown>) => {
      calls.push(key);
      return options && 'name' in options ? `Select ${String(options.name)}` : `${String(options?.ns ?? '')}:${key}`;
    }) as unknown as CellT;
    return { t, calls };
  };

  it('asks i18next once for a text without interpolation, whatever the row', () => {
    const { t, calls } = counting();
    const remembering = rememberingT(t) as unknown as (key: string, options?: Record<string, unknown>) => string;
    const options = { ns: 'options', keySeparator: false, nsSeparator: false } as const;
    expect(remembering('Series A', options)).toBe('options:Series A');
    expect(remembering('Series A', { ...options })).toBe('options:Series A');
    expect(remembering('Seed', options)).toBe('options:Seed');
    expect(remembering('values.yes')).toBe(':values.yes');
    expect(remembering('values.yes')).toBe(':values.yes');
    expect(calls).toEqual(['Series A', 'Seed', 'values.yes']);
  });

  it('keeps apart the same key in other namespaces or with another default', () => {
    const { t, calls } = counting();
    const remembering = rememberingT(t) as unknown as (key: string, options?: Record<string, unknown>) => string;
    expect(remembering('Active', { ns: 'options' })).toBe('options:Active');
    expect(remembering('Active')).toBe(':Active');
    remembering('Active', { defaultValue: 'x' });
    remembering('Active', { ns: 'options', keySeparator: false });
    expect(calls).toEqual(['Active', 'Active', 'Active', 'Active']);
  });

  it('asks i18next each time for a text that interpolates', () => {
    const { t, calls } = counting();
    const remembering = rememberingT(t) as unknown as (key: string, options?: Record<string, unknown>) => string;
    expect(remembering('list.selectRow', { name: 'Acme' })).toBe('Select Acme');
    expect(remembering('list.selectRow', { name: 'Globex' })).toBe('Select Globex');
    expect(calls).toEqual(['list.selectRow', 'list.selectRow']);
  });
});
