import { requiredPermissions } from '@data-platform/shared/entities/access';
import type { AccessAction } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import type { FastifyInstance } from 'fastify';
import { type Actor, anonymousActor, missingPermissions } from '../auth/actor.ts';
import { authenticate } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { AppError, forbidden } from './errors.ts';

/** An action on an entity, checked against the entity's access rules. */
export interface RouteAccess {
  resource: string;
  action: AccessAction;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open without a token (sign-in, password reset, invitation, access request). */
    public?: boolean;
    /** Entity actions the route performs; every permission they need is required. */
    access?: RouteAccess | RouteAccess[];
    /** An administration permission the route requires. */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** Who is acting; set before validation and before any handler runs. */
    actor: Actor;
  }
}

export const unauthenticated = () =>
  new AppError(401, 'unauthenticated', 'Sign in to continue: the token is missing, expired or revoked', undefined, {
    'www-authenticate': 'Bearer',
  });

/** The permissions a route's configuration asks for. */
function neededBy(config: { access?: RouteAccess | RouteAccess[]; permission?: Permission }): Permission[] {
  const needed: Permission[] = config.permission ? [config.permission] : [];
  const accesses = config.access === undefined ? [] : Array.isArray(config.access) ? config.access : [config.access];
  for (const { resource, action } of accesses) {
    const entity = findEntity(resource);
    if (!entity) throw new Error(`Route access names unknown resource ${resource}`);
    needed.push(...requiredPermissions(entity, action));
  }
  return needed;
}

/** Throws 403 unless the actor holds every permission needed to read `resource`. */
export function assertCanRead(actor: Actor, resource: string): void {
  const missing = missingPermissions(actor, neededBy({ access: { resource, action: 'read' } }));
  if (missing.length > 0) throw forbidden(missing);
}

/**
 * The authentication and permission step in front of every `/api/v1` route:
 * a bearer token → the session's user and role (401 otherwise), then the
 * route's declared access (403 naming the missing permission). Runs before
 * body validation, so a refused caller learns nothing about the input rules.
 */
export function installAuth(app: FastifyInstance, database: Database, config: Config): void {
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRequest', async (request) => {
    request.actor = anonymousActor;
    const routeConfig = request.routeOptions.config;
    if (routeConfig.public || !request.url.startsWith('/api/v1/')) return;
    const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/.exec(request.headers.authorization ?? '');
    const actor = match ? await authenticate(database, config, match[1] as string) : undefined;
    if (!actor) throw unauthenticated();
    request.actor = actor;
    const missing = missingPermissions(actor, neededBy(routeConfig));
    if (missing.length > 0) throw forbidden(missing);
  });
}
