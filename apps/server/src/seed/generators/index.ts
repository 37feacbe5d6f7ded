import { benchmarkIndexes, indexLevels } from './benchmark-indexes.ts';
import { companies } from './companies.ts';
import { contacts } from './contacts.ts';
import type { EntityGenerator } from './context.ts';
import { deals } from './deals.ts';
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
import { tasks } from './tasks.ts';
import { users } from './users.ts';

/**
 * The generator of each seeded entity (flag `seed` on its description), by
 * entity name. The driver (../generator.ts) runs them in registry order and
 * fails for a seeded entity that has none here.
 */
export const entityGenerators: Readonly<Record<string, EntityGenerator>> = {
  users,
  firms,
  funds,
  fundPerformances,
  fundCashFlows,
  benchmarkIndexes,
  indexLevels,
  companies,
  contacts,
  deals,
  investors,
  contactCompanies,
  contactFunds,
  contactDeals,
  contactInvestors,
  dealCompanies,
  dealInvestors,
  notes,
  tasks,
};
