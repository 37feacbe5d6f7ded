import { readFileSync } from 'node:fs';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = {
  algorithm: 2 as Algorithm, // Argon2id (a const enum, which isolated modules cannot read)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when an email is unknown, so that both answers take as long.
const dummyHash = hashPassword('not a password of anyone, ever');

/** Spends the time of a real verification, then fails. */
export async function verifyNothing(password: string): Promise<false> {
  await verifyPassword(await dummyHash, password);
  return false;
}

/**
 * The 10,000 most common passwords (Mark Burnett's list, via the ISC-licensed
 * `common-password` package). Long passwords are rarely on it verbatim, so a
 * password is also refused when it is a listed one with digits or symbols
 * around it, or one repeated ("passwordpassword", "qwertyqwerty1!").
 */
const common = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter(Boolean),
);

/** The password in lower case without the digits and symbols around it (`Summer2024!` → `summer`). */
function affixCore(password: string): string {
  return password.toLowerCase().replace(/^[^a-z]+|[^a-z]+$/g, '');
}

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (common.has(lower)) return true;
  const core = affixCore(password);
  if (core.length >= 4 && common.has(core)) return true;
  for (let size = 1; size <= core.length / 2; size++) {
    const unit = core.slice(0, size);
    if (core.length % size === 0 && unit.repeat(core.length / size) === core && (size < 4 || common.has(unit))) {
      return true;
    }
  }
  if (/^(.)\1+$/.test(lower) || /^(?:0123456789|1234567890|abcdefghijkl|qwertyuiop)/.test(lower)) return true;
  return false;
}

/** Letters only: `Jane.Doe` and `jane-doe` are one word to a guesser. */
const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

/** The product's name: the first word an attacker tries against any account of it. */
const productWords = ['dataplatform'];

/**
 * True when the password is the user's email, its local part or the
 * product's name (letters compared, ignoring case, separators and the digits
 * and symbols around it, also repeated): what someone who knows whose
 * account it is tries first (NIST SP 800-63B's "context-specific words").
 */
export function isPersonalPassword(password: string, email: string): boolean {
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const words = [...productWords, letters(local), letters(`${local}${domain}`)].filter((w) => w.length >= 3);
  const core = letters(affixCore(password));
  return words.some(
    (word) => core.length > 0 && core.length % word.length === 0 && word.repeat(core.length / word.length) === core,
  );
}
