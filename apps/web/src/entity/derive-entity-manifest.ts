import { fileURLToPath } from 'node:url';
import { exportPermissions, importPermissions, requiredPermissions } from '@data-platform/shared/entities/access';
import {
  type AccessAction,
  type EntityDescription,
  type Operation,
  operationsOf,
} from '@data-platform/shared/entities/entity';
import { entityList, navigableEntities } from '@data-platform/shared/entities/registry';
import { type Permission, permissionResources } from '@data-platform/shared/permissions';

/**
 * What the router, its guards and the sidebar need of the entity descriptions
 * (issue #11: the sign-in screen's JavaScript is budgeted, and the
 * descriptions with their field types are ~10 KB of it): derived from them by
 * `npm run manifest:web` into entity-manifest.json, which entity-manifest.ts
 * reads. entity-manifest.test.ts fails while the file is stale. The signed-in
 * screens read the descriptions themselves.
 */
export interface EntityManifest {
  /** The entities with data permissions of their own (`permissions: true`), in sidebar order (permissions.ts). */
  permissionResources: string[];
  /** The list screens (`navigation`), in sidebar order, with their records' screens. */
  routes: ManifestRoute[];
  /** Every entity, by name: the access facts the shared rules (entities/access.ts) give for it. */
  entities: Record<string, ManifestEntity>;
}

export interface ManifestRoute {
  path: string;
  resource: string;
  labelKey?: string;
  sidebar?: false;
  records: NonNullable<EntityDescription['navigation']>['records'];
}

export interface ManifestEntity {
  /** The generic operations the API offers (operationsOf). */
  operations: Operation[];
  /** The actions offered through the entity's own routes. */
  ownOperations?: NonNullable<EntityDescription['ownOperations']>[number][];
  /** The permissions each action needs (requiredPermissions), for the actions that have an access rule. */
  needs: Partial<Record<AccessAction, Permission[]>>;
  /** The permission that shows its rows and fields in full (`limitedRead`). */
  fullReadNeeds?: Permission;
  /** What an export needs (exportPermissions); absent when it has none. */
  exportNeeds?: Permission[];
  /** What an import needs (importPermissions); absent when it has none. */
  importNeeds?: Permission[];
}

/** Where the manifest is written (next to this module). */
export const entityManifestFile = fileURLToPath(new URL('./entity-manifest.json', import.meta.url));

const accessActions: readonly AccessAction[] = ['read', 'create', 'update', 'delete'];

/** The access rule of an action, or none (requiredPermissions throws for an action the entity has no rule for). */
function needsOf(entity: EntityDescription, action: AccessAction): Permission[] | undefined {
  try {
    return requiredPermissions(entity, action);
  } catch {
    return undefined;
  }
}

function manifestEntity(entity: EntityDescription): ManifestEntity {
  const needs: ManifestEntity['needs'] = {};
  for (const action of accessActions) {
    const needed = needsOf(entity, action);
    if (needed) needs[action] = needed;
  }
  const exportNeeds = exportPermissions(entity);
  const importNeeds = importPermissions(entity);
  return {
    operations: [...operationsOf(entity)],
    ...(entity.ownOperations ? { ownOperations: [...entity.ownOperations] } : {}),
    needs,
    ...(entity.limitedRead ? { fullReadNeeds: entity.limitedRead.permission } : {}),
    ...(exportNeeds ? { exportNeeds } : {}),
    ...(importNeeds ? { importNeeds } : {}),
  };
}

/** The manifest of the registry's entity descriptions. */
export function deriveEntityManifest(): EntityManifest {
  return {
    permissionResources: [...permissionResources],
    routes: navigableEntities.map((entity) => {
      const { path, labelKey, sidebar, records } = entity.navigation as NonNullable<EntityDescription['navigation']>;
      return {
        path,
        resource: entity.name,
        ...(labelKey ? { labelKey } : {}),
        ...(sidebar === false ? { sidebar } : {}),
        records,
      };
    }),
    entities: Object.fromEntries(entityList.map((entity) => [entity.name, manifestEntity(entity)])),
  };
}
