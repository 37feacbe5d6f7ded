import { permissionsLacking } from '@data-platform/shared/entities/access';
import { allPermissions, type Permission } from '@data-platform/shared/permissions';

/** Who is acting, and what their role allows. Recorded in createdById / updatedById. */
export interface Actor {
  userId: number | null;
  permissions: ReadonlySet<Permission>;
  /** The session the request came with, when signed in. */
  sessionId: number | null;
}

/** The server itself (seeding, start-up), allowed everything. */
export const systemActor: Actor = { userId: null, permissions: new Set(allPermissions), sessionId: null };

/** Who a request is before it has shown a token. */
export const anonymousActor: Actor = { userId: null, permissions: new Set(), sessionId: null };

/** The permissions of `needed` the actor's role lacks (the shared rule the web app asks too). */
export function missingPermissions(actor: Actor, needed: readonly Permission[]): Permission[] {
  return permissionsLacking(actor.permissions, needed);
}
