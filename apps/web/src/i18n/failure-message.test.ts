import { describe, expect, it } from 'vitest';
import { failureMessage } from './failure-message.ts';

const catalog: Record<string, string> = {
  'errors:network': 'Le serveur est injoignable.',
  'errors:codes.self_delete': 'Vous ne pouvez pas supprimer votre propre compte.',
};
const t = (key: string, options?: { defaultValue?: string }) => catalog[key] ?? options?.defaultValue ?? key;
const failure = (code: string, message: string, status = 409) => ({ status, code, message });

describe('a failed call says', () => {
  it("in French, the catalog's text for its code", () => {
    expect(failureMessage(failure('self_delete', 'You cannot delete your own account'), t, 'fr')).toBe(
      'Vous ne pouvez pas supprimer votre propre compte.',
    );
  });

  it("the server's text for a code the catalog lacks, and in English", () => {
    expect(failureMessage(failure('brand_new', 'Something new'), t, 'fr')).toBe('Something new');
    expect(failureMessage(failure('self_delete', 'You cannot delete your own account'), t, 'en')).toBe(
      'You cannot delete your own account',
    );
  });

  it('that the server cannot be reached when nothing answered', () => {
    expect(failureMessage(failure('network_error', 'Failed to fetch', 0), t, 'en')).toBe('Le serveur est injoignable.');
  });
});
