import type { Permission } from '@data-platform/shared/permissions';
import { describe, expect, it } from 'vitest';
import { canImportAny } from '../../entity/access.ts';
import type { CurrentUser } from '../../store/auth-slice.ts';
import { importableLists, importJobPath } from './import-links.ts';

const userWith = (permissions: Permission[]): CurrentUser => ({
  id: 1,
  email: 'a@b.c',
  firstName: null,
  lastName: null,
  fullName: 'a@b.c',
  status: 'active',
  role: { id: 1, name: 'Importer', permissions },
});

const importer = userWith([
  'companies:read',
  'companies:create',
  'companies:import',
  'indexLevels:read',
  'indexLevels:create',
  'indexLevels:import',
  'notes:read',
  'notes:create',
  'notes:import',
  'firms:read',
]);

describe('the Imports screen', () => {
  it('is offered to a user who may import records of some kind, and to no one else', () => {
    expect(canImportAny(importer)).toBe(true);
    expect(canImportAny(userWith(['notes:create', 'notes:import']))).toBe(true);
    // The import right alone is not enough: an import creates records.
    expect(canImportAny(userWith(['companies:read', 'companies:import']))).toBe(false);
    expect(canImportAny(userWith(['companies:read', 'companies:create', 'firms:read']))).toBe(false);
    expect(canImportAny(undefined)).toBe(false);
  });

  it("opens a job on its records' list with ?import=<id>, when the user has that list's Import", () => {
    expect(importJobPath(importer, { id: 42, entity: 'companies' })).toBe('/companies?import=42');
    // A list outside the sidebar still has its address.
    expect(importJobPath(importer, { id: 7, entity: 'indexLevels' })).toBe('/index-levels?import=7');
    // Notes have no list screen: their imports (made through the API) cannot be opened here.
    expect(importJobPath(importer, { id: 8, entity: 'notes' })).toBeUndefined();
    // Rights lost since the import: the list would not offer its Import button.
    expect(importJobPath(importer, { id: 9, entity: 'firms' })).toBeUndefined();
    expect(importJobPath(userWith(['companies:create', 'companies:import']), { id: 1, entity: 'companies' })).toBe(
      undefined,
    );
  });

  it('names, in sidebar order, the lists where an import can be started', () => {
    expect(importableLists(importer).map((route) => route.path)).toEqual(['/companies', '/index-levels']);
    expect(importableLists(userWith(['firms:read']))).toEqual([]);
  });
});
