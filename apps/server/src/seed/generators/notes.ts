import type { Rng } from '../random.ts';
import { Weighted } from '../random.ts';
import { noteNextSteps, noteOpenings, noteTopics } from '../vocabulary.ts';
import type { Row, SeedContext } from './context.ts';

const noteTarget = new Weighted<string>([
  ['companies', 40],
  ['contacts', 20],
  ['deals', 20],
  ['funds', 8],
  ['investors', 8],
  ['firms', 4],
]);

export function* notes(ctx: SeedContext, rng: Rng): Generator<Row> {
  const countOf: Record<string, number> = {
    companies: ctx.counts.companies,
    contacts: ctx.counts.contacts,
    deals: ctx.counts.deals,
    funds: ctx.counts.funds,
    investors: ctx.counts.investors,
    firms: ctx.counts.firms,
  };
  for (let id = 1; id <= ctx.counts.notes; id++) {
    const entity = noteTarget.pick(rng);
    const count = countOf[entity] ?? 0;
    const system = ctx.system(rng, id, id, ctx.counts.notes);
    if (count === 0) continue;
    const person = `${ctx.firstName(rng)} ${ctx.lastName(rng)}`;
    yield {
      entity,
      recordId: rng.int(1, count),
      body: `${rng.pick(noteOpenings)} ${person}: ${rng.pick(noteTopics)}. ${rng.pick(noteNextSteps)}`,
      ...system,
    };
  }
}
