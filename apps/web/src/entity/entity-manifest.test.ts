import { readFileSync } from 'node:fs';
import { exportPermissions, importPermissions, mayAct, readsInFull } from '@data-platform/shared/entities/access';
import { type AccessAction, type EntityDescription, operationsOf } from '@data-platform/shared/entities/entity';
import { entityList, navigableEntities } from '@data-platform/shared/entities/registry';
import {
  builtInRoles,
  dataPermissions,
  type Permission,
  allPermissions as sharedAllPermissions,
} from '@data-platform/shared/permissions';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../store/auth-slice.ts';
import { allPermissions, can, canExport, canImport, canRead, genericallyOffered } from './access.ts';
import { deriveEntityManifest, entityManifestFile } from './derive-entity-manifest.ts';
import { entityManifest } from './entity-manifest.ts';
import { editPageResources, editsInModal, hasRecordScreens, recordPath, showPageResources } from './record-routes.ts';
import { resourceRoutes } from './resource-routes.ts';

const user = (permissions: readonly Permission[]): CurrentUser => ({
  id: 1,
  email: 'someone@example.com',
  firstName: null,
  lastName: null,
  fullName: 'Someone',
  status: 'active',
  role: { id: 1, name: 'Role', permissions: [...permissions] },
});

/** Roles to ask about: the built-in ones, none, each data permission alone, and reading everything without `users:read`. */
const roles: readonly (readonly Permission[])[] = [
  ...builtInRoles.map((role) => role.permissions),
  [],
  ['users:read'],
  ...sharedAllPermissions.map((permission) => [permission]),
  dataPermissions.filter((permission) => permission.endsWith(':read')),
];
const actions: readonly AccessAction[] = ['read', 'create', 'update', 'delete'];

/** The answer, or that it throws (an action without an access rule). */
function outcome(answer: () => boolean): boolean | 'throws' {
  try {
    return answer();
  } catch {
    return 'throws';
  }
}

/** The rules as the shared functions apply them to the description (what access.ts asked before the manifest). */
const byDescription = {
  canRead: (entity: EntityDescription, held: ReadonlySet<Permission>) => readsInFull(entity, held),
  can: (entity: EntityDescription, action: AccessAction, held: ReadonlySet<Permission>) => {
    const operation = action === 'read' ? 'list' : action;
    const offered =
      operationsOf(entity).includes(operation) || (operation !== 'list' && entity.ownOperations?.includes(operation));
    return Boolean(offered) && mayAct(entity, action, held);
  },
};

describe('the entity manifest (what the sign-in screen knows of the entities)', () => {
  it('is what the entity descriptions give (run `npm run manifest:web` after changing one)', () => {
    const derived = deriveEntityManifest();
    expect(JSON.parse(readFileSync(entityManifestFile, 'utf8')), 'npm run manifest:web').toEqual(derived);
    expect(entityManifest).toEqual(derived);
  });

  it('gives the same answers as the shared rules over the descriptions, for every entity, action and role', () => {
    for (const entity of entityList) {
      for (const permissions of roles) {
        const signedIn = user(permissions);
        const held = new Set(permissions);
        const label = `${entity.name} with [${permissions.join(', ')}]`;
        expect(
          outcome(() => canRead(signedIn, entity.name)),
          label,
        ).toBe(outcome(() => byDescription.canRead(entity, held)));
        for (const action of actions) {
          expect(
            outcome(() => can(signedIn, entity.name, action)),
            `${label}: ${action}`,
          ).toBe(outcome(() => byDescription.can(entity, action, held)));
        }
        const exportNeeds = exportPermissions(entity);
        expect(canExport(signedIn, entity.name), `${label}: export`).toBe(
          exportNeeds !== undefined && readsInFull(entity, held) && exportNeeds.every((p) => held.has(p)),
        );
        const importNeeds = importPermissions(entity);
        expect(canImport(signedIn, entity.name), `${label}: import`).toBe(
          importNeeds?.every((p) => held.has(p)) ?? false,
        );
      }
      for (const action of ['create', 'update', 'delete'] as const) {
        expect(genericallyOffered(entity.name, action), `${entity.name}: generic ${action}`).toBe(
          operationsOf(entity).includes(action),
        );
      }
      expect(canRead(undefined, entity.name)).toBe(false);
    }
    expect(canRead(user(sharedAllPermissions), 'nothing')).toBe(false);
    expect(can(user(sharedAllPermissions), 'nothing', 'read')).toBe(false);
    expect(allPermissions).toEqual(sharedAllPermissions);
  });

  it('names the list screens and record screens of the descriptions’ navigation, in sidebar order', () => {
    expect(resourceRoutes.map((route) => route.resource)).toEqual(navigableEntities.map((entity) => entity.name));
    for (const entity of navigableEntities) {
      const navigation = entity.navigation as NonNullable<EntityDescription['navigation']>;
      const route = resourceRoutes.find((candidate) => candidate.resource === entity.name);
      expect(route).toEqual({
        path: navigation.path,
        resource: entity.name,
        ...(navigation.labelKey ? { labelKey: navigation.labelKey } : {}),
        ...(navigation.sidebar === false ? { sidebar: false } : {}),
      });
      expect(hasRecordScreens(entity.name)).toBe(true);
      expect(editsInModal(entity.name)).toBe(navigation.records.edit === 'modal');
      expect(showPageResources.includes(entity.name)).toBe(navigation.records.show === 'generic');
      expect(editPageResources.includes(entity.name)).toBe(navigation.records.edit === 'page');
      expect(recordPath(entity.name, 7, 'edit')).toBe(
        navigation.records.edit === 'modal' ? `${navigation.path}?edit=7` : `${navigation.path}/7/edit`,
      );
    }
    expect(hasRecordScreens('notes')).toBe(false);
  });
});
