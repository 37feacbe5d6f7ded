import { describe, expect, it } from 'vitest';
import type { Permission } from '../permissions.ts';
import {
  exportPermissions,
  importPermissions,
  mayAct,
  permissionsLacking,
  readableAttachmentTypes,
  readsInFull,
} from './access.ts';
import { findEntity } from './registry.ts';

const entity = (name: string) => {
  const found = findEntity(name);
  if (!found) throw new Error(`No entity ${name}`);
  return found;
};
const held = (...permissions: Permission[]) => new Set(permissions);

describe('the shared access rules', () => {
  it('name the permissions lacking, in the order needed', () => {
    expect(permissionsLacking(held('deals:read'), ['companies:read', 'deals:read', 'funds:read'])).toEqual([
      'companies:read',
      'funds:read',
    ]);
  });

  it('let a role read records with <name>:read, and link rows with both sides read', () => {
    expect(mayAct(entity('companies'), 'read', held('companies:read'))).toBe(true);
    expect(mayAct(entity('companies'), 'read', held('deals:read'))).toBe(false);
    expect(mayAct(entity('contactCompanies'), 'read', held('contacts:read'))).toBe(false);
    expect(mayAct(entity('contactCompanies'), 'read', held('contacts:read', 'companies:read'))).toBe(true);
  });

  it('read users in full only with users:read; anyone signed in reads their names', () => {
    expect(mayAct(entity('users'), 'read', held())).toBe(true);
    expect(readsInFull(entity('users'), held())).toBe(false);
    expect(readsInFull(entity('users'), held('users:read'))).toBe(true);
  });

  it('list notes only on the record types the role may read', () => {
    expect(readableAttachmentTypes(entity('notes'), held('companies:read'))).toEqual(['companies']);
    expect(readableAttachmentTypes(entity('notes'), held())).toEqual([]);
    expect(readableAttachmentTypes(entity('companies'), held('companies:read'))).toEqual([]);
  });

  it('export with read and export, import with create and import, and never import files', () => {
    expect(exportPermissions(entity('companies'))).toEqual(['companies:read', 'companies:export']);
    expect(importPermissions(entity('companies'))).toEqual(['companies:create', 'companies:import']);
    expect(importPermissions(entity('files'))).toBeUndefined();
    expect(exportPermissions(entity('countries'))).toBeUndefined();
  });
});
