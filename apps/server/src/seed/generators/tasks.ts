import type { Rng } from '../random.ts';
import { Weighted } from '../random.ts';
import type { Row, SeedContext } from './context.ts';
import { DAY, END, isoDate } from './values.ts';

const taskTarget = new Weighted<string>([
  ['companies', 35],
  ['deals', 30],
  ['contacts', 15],
  ['investors', 10],
  ['funds', 6],
  ['firms', 4],
]);

const taskTitles = [
  'Follow up after the first meeting',
  'Send the NDA',
  'Review the data room',
  'Schedule a call with the CFO',
  'Prepare the IC memo',
  'Check references',
  'Update the valuation model',
  'Share the quarterly report',
  'Book the site visit',
  'Ask for the latest cap table',
  'Introduce to a co-investor',
  'Confirm the term sheet points',
];

const taskDetails = [
  'Agreed in the last meeting; they expect it this week.',
  'Loop in legal before anything is sent.',
  'Use the numbers from the latest board pack.',
  'Keep it short: two pages at most.',
];

/** Tasks per seeded company: a team's open to-dos over the dataset's records. */
const TASKS_PER_COMPANY = 0.2;

/**
 * Tasks owned by the generated users, each about one record: due a few days
 * to weeks after they were created; most of those due long before the
 * dataset's end are done.
 */
export function* tasks(ctx: SeedContext, rng: Rng): Generator<Row> {
  const countOf: Record<string, number> = {
    companies: ctx.counts.companies,
    contacts: ctx.counts.contacts,
    deals: ctx.counts.deals,
    funds: ctx.counts.funds,
    investors: ctx.counts.investors,
    firms: ctx.counts.firms,
  };
  const total = ctx.counts.users > 0 ? Math.floor(ctx.counts.companies * TASKS_PER_COMPANY) : 0;
  for (let id = 1; id <= total; id++) {
    const entity = taskTarget.pick(rng);
    const count = countOf[entity] ?? 0;
    const system = ctx.system(rng, id, id, total);
    if (count === 0) continue;
    const due = Date.parse(system.createdAt as string) + rng.int(3, 45) * DAY;
    yield {
      title: rng.pick(taskTitles),
      details: rng.chance(0.4) ? rng.pick(taskDetails) : null,
      dueDate: isoDate(due),
      ownerId: ctx.userId(rng),
      status: rng.chance(due < END - 30 * DAY ? 0.85 : 0.2) ? 'Done' : 'Open',
      entity,
      recordId: rng.int(1, count),
      ...system,
    };
  }
}
