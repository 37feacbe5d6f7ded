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
    return regionNames(language)?.of(code) ?? stored;
  } catch {
    return stored;
  }
}

/** Intl's region names of each language asked for, made once (null when Intl cannot name regions in it). */
const regionNamesByLanguage = new Map<string, Intl.DisplayNames | null>();

function regionNames(language: string): Intl.DisplayNames | null {
  let names = regionNamesByLanguage.get(language);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    } catch {
      names = null;
    }
    regionNamesByLanguage.set(language, names);
  }
  return names;
}

/** U+1F1E6, REGIONAL INDICATOR SYMBOL LETTER A; Z is 25 further. */
const REGIONAL_A = 0x1f1e6;

/**
 * The ISO 3166-1 alpha-2 code a flag emoji spells: Unicode writes a
 * country's flag as the two regional indicator symbols of its code
 * (🇫🇷 = 🇫 🇷 = FR). Null for anything else (no emoji, another symbol, a
 * subdivision's tag sequence such as England's).
 */
export function iso2FromFlag(emoji: string | null | undefined): string | null {
  const points = [...(emoji ?? '').trim()].map((char) => char.codePointAt(0) ?? 0);
  if (points.length !== 2 || !points.every((point) => point >= REGIONAL_A && point <= REGIONAL_A + 25)) return null;
  return String.fromCharCode(...points.map((point) => 65 + point - REGIONAL_A));
}
