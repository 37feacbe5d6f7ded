import { base, en, Faker, generateMersenne53Randomizer, type Randomizer } from '@faker-js/faker';

/**
 * One deterministic stream of random values: faker for names and words, and
 * fast draws from the same randomizer for everything else.
 */
export class Rng {
  readonly faker: Faker;
  private readonly randomizer: Randomizer;
  private spare: number | undefined;

  constructor(seed: number) {
    this.randomizer = generateMersenne53Randomizer(seed);
    this.faker = new Faker({ locale: [en, base], randomizer: this.randomizer });
  }

  /** A float in [0, 1). */
  next(): number {
    return this.randomizer.next();
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }

  /** Up to `count` distinct elements of `list`, in list order. */
  some<T>(list: readonly T[], min: number, max: number): T[] {
    const count = Math.min(list.length, this.int(min, max));
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(Math.floor(this.next() * list.length));
    return [...chosen].sort((a, b) => a - b).map((i) => list[i] as T);
  }

  /** A standard normal draw (Box–Muller). */
  normal(): number {
    if (this.spare !== undefined) {
      const value = this.spare;
      this.spare = undefined;
      return value;
    }
    const u = 1 - this.next();
    const v = this.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spare = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }

  /** A positive value around `median`, spread by `sigma` on the log scale (sizes, amounts). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

/** Picks from weighted choices with a binary search over cumulative weights. */
export class Weighted<T> {
  private readonly cumulative: number[] = [];
  private readonly values: T[] = [];
  private total = 0;

  constructor(choices: readonly (readonly [T, number])[]) {
    for (const [value, weight] of choices) {
      if (weight <= 0) continue;
      this.total += weight;
      this.cumulative.push(this.total);
      this.values.push(value);
    }
    if (this.values.length === 0) throw new Error('No choices with a positive weight');
  }

  pick(rng: Rng): T {
    const target = rng.next() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.cumulative[mid] as number) > target) high = mid;
      else low = mid + 1;
    }
    return this.values[low] as T;
  }
}

/** A 32-bit seed for one named stream of a run (FNV-1a over the run seed and the name). */
export function streamSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const ch of name) {
    hash ^= ch.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
