import { auditEvents } from './audit-events.ts';
import { companies } from './companies.ts';
import { contacts } from './contacts.ts';
import { countries } from './countries.ts';
import { currencies } from './currencies.ts';
import { customFieldGroups, entityFieldTypes } from './custom-fields.ts';
import { deals } from './deals.ts';
import type { EntityDescription } from './entity.ts';
import { files } from './files.ts';
import { firms } from './firms.ts';
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
import { users } from './users.ts';

/** Every entity, in an order where a referenced entity comes before those that reference it. */
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
  contactCompanies,
  contactFunds,
  contactDeals,
  contactInvestors,
  dealCompanies,
  dealInvestors,
  notes,
  files,
  auditEvents,
  outbox,
];

export const entities: Readonly<Record<string, EntityDescription>> = Object.fromEntries(
  entityList.map((e) => [e.name, e]),
);

export function findEntity(name: string): EntityDescription | undefined {
  return Object.hasOwn(entities, name) ? entities[name] : undefined;
}
