import { describe, expect, it } from 'vitest';
import { adminPermissions, allPermissions, builtInRoles, dataActions, isPermission } from '../permissions.ts';
import { dashboardBreakdowns } from '../summaries.ts';
import { specDataAreas } from '../testing/spec-data-areas.ts';
import { entityFieldTypes } from './custom-fields.ts';
import { allFields } from './entity.ts';
import {
  attachableEntities,
  clientStateEntities,
  countedEntities,
  customizableResources,
  entityList,
  findEntity,
  navigableEntities,
  permissionedEntityNames,
  seededEntities,
} from './registry.ts';
import { roles } from './roles.ts';

// Expected lists are written out here, not computed: each is what the product shows.
const records = ['companies', 'funds', 'contacts', 'firms', 'deals', 'investors'];

describe('lists derived from the description flags', () => {
  it('data permissions: every flagged entity has each data action, and roles offer exactly those', () => {
    expect(permissionedEntityNames).toEqual([
      ...records,
      'fundPerformances',
      'fundCashFlows',
      'tasks',
      'benchmarkIndexes',
      'indexLevels',
      'notes',
      'files',
    ]);
    for (const name of permissionedEntityNames) {
      for (const action of ['read', 'create', 'update', 'delete', 'import', 'export']) {
        expect(isPermission(`${name}:${action}`), `${name}:${action}`).toBe(true);
      }
    }
    expect(allPermissions).toHaveLength(permissionedEntityNames.length * dataActions.length + adminPermissions.length);
    expect(roles.fields.permissions.options).toEqual(allPermissions);
    expect(builtInRoles.find((role) => role.name === 'Viewer')?.permissions).toContain('fundPerformances:export');
  });

  it('every permission a description names exists', () => {
    for (const entity of entityList) {
      for (const permission of Object.values(entity.access ?? {})) {
        if (permission !== null) expect(isPermission(permission), `${entity.name}: ${permission}`).toBe(true);
      }
      if (entity.limitedRead) expect(isPermission(entity.limitedRead.permission), entity.name).toBe(true);
    }
  });

  it('custom fields: the record types offered are the customisable entities', () => {
    expect(customizableResources).toEqual(records);
    expect(entityFieldTypes.fields.entity.options).toEqual(records);
    expect(entityFieldTypes.fields.entity.optionLabels).toEqual({
      companies: 'Companies',
      funds: 'Funds',
      contacts: 'Contacts',
      firms: 'Firms',
      deals: 'Deals',
      investors: 'Investors',
    });
  });

  it('notes, files and tasks belong to records of the attachable entities', () => {
    const attachable = [...records, 'fundPerformances'];
    expect(attachableEntities).toEqual(attachable);
    for (const name of ['notes', 'files', 'tasks']) {
      const entity = findEntity(name);
      expect(entity?.attachedTo).toEqual({ entityField: 'entity', idField: 'recordId' });
      expect(entity && allFields(entity).entity?.options).toEqual(attachable);
    }
  });

  it('the sidebar lists the navigable entities in order', () => {
    expect(navigableEntities.map((e) => [e.navigation?.path, e.name])).toEqual([
      ['/companies', 'companies'],
      ['/funds', 'funds'],
      ['/contacts', 'contacts'],
      ['/firms', 'firms'],
      ['/deals', 'deals'],
      ['/investors', 'investors'],
      ['/fund-performances', 'fundPerformances'],
      ['/fund-cash-flows', 'fundCashFlows'],
      ['/tasks', 'tasks'],
      ['/benchmark-indexes', 'benchmarkIndexes'],
      ['/index-levels', 'indexLevels'],
      ['/users', 'users'],
      ['/custom-data', 'entityFieldTypes'],
      ['/custom-field-groups', 'customFieldGroups'],
    ]);
  });

  it('the home dashboard counts and breaks down what the descriptions ask for', () => {
    expect(countedEntities.map((e) => e.name)).toEqual([...records, 'fundPerformances']);
    expect(dashboardBreakdowns).toEqual([
      { key: 'fundsByStatus', resource: 'funds', field: 'status' },
      { key: 'dealsByStage', resource: 'deals', field: 'stage' },
      { key: 'investorsByFundraisingStatus', resource: 'investors', field: 'fundraisingStatus' },
    ]);
    for (const { resource, field } of dashboardBreakdowns) {
      expect(findEntity(resource)?.fields[field]?.type, `${resource}.${field}`).toBe('select');
    }
  });

  it('the demo generator fills the seeded entities, each after what it references', () => {
    expect(seededEntities.map((e) => e.name)).toEqual([
      'users',
      'firms',
      'funds',
      'companies',
      'contacts',
      'deals',
      'investors',
      'fundPerformances',
      'fundCashFlows',
      'benchmarkIndexes',
      'indexLevels',
      'contactCompanies',
      'contactFunds',
      'contactDeals',
      'contactInvestors',
      'dealCompanies',
      'dealInvestors',
      'notes',
      'tasks',
    ]);
  });

  it("the web app's data areas are the spec's (product spec §3), and those the spec does not name", () => {
    const notEntities = ['auth', 'lands', 'customFields', 'configs', 'layouts'];
    expect(clientStateEntities.map((e) => e.name).sort()).toEqual(
      [
        ...specDataAreas.filter((area) => !notEntities.includes(area)),
        'roles',
        'states',
        'tasks',
        'outbox',
        'fundCashFlows',
        'benchmarkIndexes',
        'indexLevels',
      ].sort(),
    );
  });
});
