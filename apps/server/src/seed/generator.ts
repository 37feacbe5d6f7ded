import { seededEntities } from '@data-platform/shared/entities/registry';
import { type EntityRows, SeedContext, type SeedCounts } from './generators/context.ts';
import { entityGenerators } from './generators/index.ts';
import type { ReferenceData } from './places.ts';
import { Rng, streamSeed } from './random.ts';

export type { EntityRows, Row, SeedCounts } from './generators/context.ts';
export { QUARTERS, quarterEnds } from './generators/values.ts';

export const DEFAULT_SEED = 20_240_601;

/** `npm run seed -- --scale N`: N companies and contacts, and the rest in proportion. */
export function countsForScale(scale: number): SeedCounts {
  const atLeastOne = (n: number) => (scale > 0 ? Math.max(1, Math.floor(n)) : 0);
  return {
    users: scale > 0 ? 8 : 0,
    companies: scale,
    contacts: scale,
    deals: Math.floor(scale / 5),
    investors: Math.floor(scale / 10),
    firms: atLeastOne(scale / 50),
    funds: atLeastOne(scale / 25),
    notes: Math.floor(scale / 10),
  };
}

/** What a fresh installation shows: small enough to load in a moment, big enough to page and filter. */
export const demoCounts: SeedCounts = {
  users: 6,
  firms: 60,
  funds: 12,
  companies: 300,
  contacts: 300,
  deals: 80,
  investors: 60,
  notes: 150,
};

/**
 * Generates a whole dataset, deterministically: the same reference data,
 * counts and seed give the same rows. Ids are assigned here (1, 2, ... per
 * table) so that links and notes can point at rows before they are loaded.
 * Each seeded entity (see generators/) draws from a stream of its own; facts
 * that later entities need are kept in the shared context, so the streams
 * must be read in the order given: the registry's, where what a row
 * references comes first.
 */
export function generateDataset(reference: ReferenceData, counts: SeedCounts, seed = DEFAULT_SEED): EntityRows[] {
  const context = new SeedContext(reference, counts, seed);
  return seededEntities.map((entity) => {
    const generate = entityGenerators[entity.name];
    if (!generate) throw new Error(`No generator for ${entity.name} in seed/generators`);
    return { entity, rows: () => generate(context, new Rng(streamSeed(seed, entity.name))) };
  });
}
