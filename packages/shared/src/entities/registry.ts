import { auditEvents } from './audit-events.ts';
import { benchmarkIndexes, indexLevels } from './benchmark-indexes.ts';
import { companies } from './companies.ts';
import { contacts } from './contacts.ts';
import { countries } from './countries.ts';
import { currencies } from './currencies.ts';
import { customFieldGroups, entityFieldTypes } from './custom-fields.ts';
import { deals } from './deals.ts';
import { type EntityDescription, entityNamesWith, inSidebarOrder, registerEntities } from './entity.ts';
import { files } from './files.ts';
import { firms } from './firms.ts';
import { fundCashFlows } from './fund-cash-flows.ts';
import { fundPerformances } from './fund-performances.ts';
import { funds } from './funds.ts';
import { investors } from './investors.ts';
import {
  contactCompanies,
  contactDeals,
  contactFunds,
  contactInvestors,
  dealCompanies,
  dealInvestors,
} from './links.ts';
import { notes } from './notes.ts';
import { outbox } from './outbox.ts';
import { roles } from './roles.ts';
import { states } from './states.ts';
import { tasks } from './tasks.ts';
import { users } from './users.ts';

/**
 * Adding an entity (tasks.ts is the example):
 * 1. its description file here, with the flags of where it takes part
 *    (permissions, customizable, attachable, navigation, dashboard, seed;
 *    see EntityDescription), and its line in the list below;
 * 2. `npm run db:generate` (apps/server): check the SQL it writes;
 * 3. `node --import tsx packages/shared/src/i18n/write-english-locale.ts`,
 *    then the same keys translated in the other languages' entities.json and
 *    options.json (apps/web/src/i18n/locales.test.ts holds both);
 * 4. with `seed`, its generator in apps/server/src/seed/generators/ and its
 *    line in generators/index.ts.
 * Built-in roles gain its permissions at the next start (bootstrap.ts).
 *
 * Every entity, in an order where a referenced entity comes before those that
 * reference it. This is the one list of entities: every other one is derived
 * from the descriptions' flags (see EntityDescription), here or in permissions.ts.
 */
export const entityList: readonly EntityDescription[] = [
  roles,
  users,
  customFieldGroups,
  entityFieldTypes,
  currencies,
  countries,
  states,
  firms,
  funds,
  companies,
  contacts,
  deals,
  investors,
  fundPerformances,
  fundCashFlows,
  benchmarkIndexes,
  indexLevels,
  contactCompanies,
  contactFunds,
  contactDeals,
  contactInvestors,
  dealCompanies,
  dealInvestors,
  notes,
  files,
  tasks,
  auditEvents,
  outbox,
];
registerEntities(entityList);

/** The entities with data permissions of their own (`permissions: true`), in sidebar order. */
export const permissionedEntityNames = entityNamesWith('permissions');

/** The records teams may add custom fields to (`customizable: true`), in sidebar order. */
export const customizableResources = entityNamesWith('customizable');

/** What notes, files and tasks can belong to (`attachable: true`), in sidebar order. */
export const attachableEntities = entityNamesWith('attachable');

/** The list screens (`navigation`), in sidebar order. */
export const navigableEntities: readonly EntityDescription[] = inSidebarOrder(entityList.filter((e) => e.navigation));

/** The record types counted on the home dashboard (`dashboard.count`), in sidebar order. */
export const countedEntities: readonly EntityDescription[] = inSidebarOrder(
  entityList.filter((e) => e.dashboard?.count),
);

/** What the demo data generator fills (`seed`), in registry order: what a row references is generated first. */
export const seededEntities: readonly EntityDescription[] = entityList.filter((e) => e.seed);

/** The entities the web app keeps a data area for (all but `clientState: false`). */
export const clientStateEntities: readonly EntityDescription[] = entityList.filter((e) => e.clientState !== false);

export const entities: Readonly<Record<string, EntityDescription>> = Object.fromEntries(
  entityList.map((e) => [e.name, e]),
);

export function findEntity(name: string): EntityDescription | undefined {
  return Object.hasOwn(entities, name) ? entities[name] : undefined;
}
