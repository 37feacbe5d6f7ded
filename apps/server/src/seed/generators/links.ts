import type { Rng } from '../random.ts';
import { investorContactRoles } from '../vocabulary.ts';
import type { Row, SeedContext } from './context.ts';
import { money, round2 } from './values.ts';

/**
 * Link rows, each pair at most once. Walks the records of one side (`group`)
 * and asks `pairs` for the records of the other side to link, with a role.
 */
function* links(
  ctx: SeedContext,
  rng: Rng,
  [groupField, otherField]: [string, string],
  groupCount: number,
  pairs: (group: number) => [other: number, role: string, extra?: Row][],
): Generator<Row> {
  let id = 0;
  const seen = new Set<number>();
  for (let group = 1; group <= groupCount; group++) {
    seen.clear();
    for (const [other, role, extra] of pairs(group)) {
      if (!other || seen.has(other)) continue;
      seen.add(other);
      // Links are dated like the records they hang off.
      yield {
        [groupField]: group,
        [otherField]: other,
        role,
        ...extra,
        ...ctx.system(rng, ++id, group, groupCount),
      };
    }
  }
}

function contactsByEmployer(ctx: SeedContext, keyOf: (employer: number) => number, size: number): Int32Array[] {
  const sizes = new Int32Array(size + 1);
  for (let c = 1; c <= ctx.counts.contacts; c++) {
    const key = keyOf(ctx.contactEmployer[c] as number);
    if (key) sizes[key] = (sizes[key] as number) + 1;
  }
  const groups = Array.from({ length: size + 1 }, (_, i) => new Int32Array(sizes[i] as number));
  const filled = new Int32Array(size + 1);
  for (let c = 1; c <= ctx.counts.contacts; c++) {
    const key = keyOf(ctx.contactEmployer[c] as number);
    if (!key) continue;
    (groups[key] as Int32Array)[filled[key] as number] = c;
    filled[key] = (filled[key] as number) + 1;
  }
  return groups;
}

export function contactCompanies(ctx: SeedContext, rng: Rng): Generator<Row> {
  const companyCount = ctx.counts.companies;
  return links(ctx, rng, ['contactId', 'companyId'], ctx.counts.contacts, (contact) => {
    const employer = ctx.contactEmployer[contact] as number;
    const pairs: [number, string][] = employer > 0 ? [[employer, ctx.contactTitle[contact] as string]] : [];
    if (companyCount > 0 && rng.chance(employer > 0 ? 0.12 : 0.3)) {
      pairs.push([
        rng.int(1, companyCount),
        rng.pick(['Board member', 'Advisor', 'Angel investor', 'Former employee']),
      ]);
    }
    return pairs;
  });
}

export function contactFunds(ctx: SeedContext, rng: Rng): Generator<Row> {
  const byFirm = contactsByEmployer(ctx, (employer) => (employer < 0 ? -employer : 0), ctx.counts.firms);
  return links(ctx, rng, ['fundId', 'contactId'], ctx.counts.funds, (fund) => {
    if (ctx.counts.contacts === 0) return [];
    const team = byFirm[ctx.fundFirm[fund] as number] ?? new Int32Array();
    return Array.from({ length: rng.int(1, 4) }, (): [number, string] => {
      if (team.length > 0 && rng.chance(0.8)) {
        return [team[rng.int(0, team.length - 1)] as number, rng.pick(['Partner', 'Deal team', 'Investor relations'])];
      }
      return [rng.int(1, ctx.counts.contacts), 'LP contact'];
    });
  });
}

export function contactDeals(ctx: SeedContext, rng: Rng): Generator<Row> {
  const byCompany = contactsByEmployer(ctx, (employer) => Math.max(0, employer), ctx.counts.companies);
  return links(ctx, rng, ['dealId', 'contactId'], ctx.counts.deals, (deal) => {
    if (ctx.counts.contacts === 0) return [];
    const pairs: [number, string][] = [];
    const team = byCompany[ctx.dealCompany[deal] as number] ?? new Int32Array();
    if (team.length > 0) pairs.push([team[rng.int(0, team.length - 1)] as number, 'Management']);
    for (let i = rng.int(1, 3); i > 0; i--) {
      pairs.push([rng.int(1, ctx.counts.contacts), rng.pick(['Deal lead', 'Advisor', 'Banker', 'Legal counsel'])]);
    }
    return pairs;
  });
}

export function contactInvestors(ctx: SeedContext, rng: Rng): Generator<Row> {
  return links(ctx, rng, ['investorId', 'contactId'], ctx.counts.investors, () =>
    ctx.counts.contacts === 0
      ? []
      : Array.from({ length: rng.int(1, 3) }, (): [number, string] => [
          rng.int(1, ctx.counts.contacts),
          rng.pick(investorContactRoles),
        ]),
  );
}

export function dealCompanies(ctx: SeedContext, rng: Rng): Generator<Row> {
  return links(ctx, rng, ['dealId', 'companyId'], ctx.counts.deals, (deal) => {
    const pairs: [number, string][] = [[ctx.dealCompany[deal] as number, 'Target']];
    if (ctx.counts.companies > 0 && rng.chance(0.08)) pairs.push([rng.int(1, ctx.counts.companies), 'Add-on target']);
    return pairs;
  });
}

export function dealInvestors(ctx: SeedContext, rng: Rng): Generator<Row> {
  return links(ctx, rng, ['dealId', 'investorId'], ctx.counts.deals, (deal) => {
    if (ctx.counts.investors === 0) return [];
    const amount = ctx.dealAmount[deal] as number;
    const currency = ctx.dealCurrency[deal] as string;
    return Array.from({ length: rng.int(0, 3) }, (_, i): [number, string, Row] => [
      rng.int(1, ctx.counts.investors),
      i === 0 ? 'Lead investor' : 'Co-investor',
      { commitment: money(round2(amount * rng.float(0.05, i === 0 ? 0.5 : 0.25)), currency) },
    ]);
  });
}
