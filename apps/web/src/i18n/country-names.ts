/**
 * A country's name in the interface's language, from its ISO 3166-1 alpha-2
 * code (the data keeps the code and its English name): Intl knows every
 * country in every language the browser ships. The stored name when Intl has
 * none (an unknown code, an old browser).
 */
export function countryName(iso2: string | null | undefined, language: string, stored: string): string {
  const code = iso2?.toUpperCase();
  // ZZ is the "unknown region" code, which Intl names as such.
  if (!code || !/^[A-Z]{2}$/.test(code) || code === 'ZZ') return stored;
  try {
    return new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }).of(code) ?? stored;
  } catch {
    return stored;
  }
}
