import type { Rng } from '../random.ts';
import { SEED_USER_DOMAIN } from '../tables.ts';
import type { Row, SeedContext } from './context.ts';
import { DAY, END, isoDateTime, slug } from './values.ts';

export function* users(ctx: SeedContext, rng: Rng): Generator<Row> {
  for (let n = 1; n <= ctx.counts.users; n++) {
    const firstName = ctx.firstName(rng);
    const lastName = ctx.lastName(rng);
    const system = ctx.system(rng, ctx.reference.firstUserId + n - 1, n, ctx.counts.users);
    yield {
      email: `${slug(firstName)}.${slug(lastName)}.${n}@${SEED_USER_DOMAIN}`,
      firstName,
      lastName,
      status: 'active',
      roleId: ctx.reference.userRoleId,
      lastSignInAt: isoDateTime(END - rng.next() * 30 * DAY),
      ...system,
      createdById: null,
      updatedById: null,
    };
  }
}
