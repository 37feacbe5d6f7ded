import { requiredPermissions } from '@data-platform/shared/entities/access';
import type { AccessAction } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import type { FastifyContextConfig, FastifyInstance, onSendHookHandler, RouteOptions } from 'fastify';
import { type Actor, anonymousActor, missingPermissions } from '../auth/actor.ts';
import { recordAudit } from '../auth/audit.ts';
import { authenticate } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { forbidden } from '../domain/errors.ts';
import { AppError, isRefusal } from './errors.ts';

/** An action on an entity, checked against the entity's access rules. */
export interface RouteAccess {
  resource: string;
  action: AccessAction;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Open without a token (sign-in, password reset, invitation, access request,
     * the API description, the web build). Every other route needs one.
     */
    public?: boolean;
    /** Entity actions the route performs; every permission they need is required. */
    access?: RouteAccess | RouteAccess[];
    /** An administration permission the route requires. */
    permission?: Permission;
    /**
     * The caller must hold at least one of these (the import routes: some entity's import right; which
     * entity's rights a request needs is checked with its input). Checked with the others, on the matched route.
     */
    anyOf?: readonly Permission[];
    /**
     * The route revokes sessions (sign-out, password change or reset): like
     * every write to users, roles or custom fields, its answer waits until
     * this process has heard the change's notification (Database.caughtUp).
     */
    revokesSessions?: boolean;
  }
  interface FastifyRequest {
    /** Who is acting; set before validation and before any handler runs. */
    actor: Actor;
  }
  interface FastifyInstance {
    /** Every route registered, with what it takes to call it. */
    routeRules(): RouteRule[];
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

/**
 * The permissions each route's configuration asks for, worked out on its
 * first request: a route's configuration is fixed once the server is ready.
 */
const neededByRoute = new WeakMap<FastifyContextConfig, Permission[]>();

function neededByConfig(config: FastifyContextConfig): Permission[] {
  let needed = neededByRoute.get(config);
  if (!needed) {
    needed = neededBy(config);
    neededByRoute.set(config, needed);
  }
  return needed;
}

/** What the session and custom-field caches copy: users, roles, custom field definitions (and their groups). */
const cachedResources = new Set(['users', 'roles', 'entityFieldTypes', 'customFieldGroups']);

/** A write by a route that may change rows a cache copies (administration, users, roles, custom fields). */
function changesCachedRows(method: string, config: FastifyContextConfig): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  if (config.permission || config.revokesSessions) return true;
  const accesses = config.access === undefined ? [] : Array.isArray(config.access) ? config.access : [config.access];
  return accesses.some(({ resource }) => cachedResources.has(resource));
}

/** A route as the authentication step sees it. */
export interface RouteRule {
  method: string;
  /** The route's pattern, e.g. `/api/v1/companies/:id`. */
  url: string;
  public: boolean;
  /** Every permission a caller must hold (empty: any signed-in user). */
  needs: Permission[];
  /** The caller must also hold at least one of these (empty: no such condition). */
  needsOneOf: readonly Permission[];
}

/**
 * Opens every route registered from now on in `scope`, and in the plugins it
 * registers, to callers without a token. For plugins whose routes we do not
 * declare one by one (the web build's files, the API reference): wrap them in
 * a scope of their own so that nothing else is opened with them.
 */
export function openToEveryone(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
  });
}

/** The rule of one route's configuration; throws when it is contradictory or names an unknown resource. */
function ruleOf(method: string, url: string, config: FastifyContextConfig): RouteRule {
  const needs = neededBy(config);
  const needsOneOf = config.anyOf ?? [];
  if (config.public && (needs.length > 0 || needsOneOf.length > 0)) {
    throw new Error(`${method} ${url} is public yet needs permissions`);
  }
  return { method, url, public: config.public === true, needs, needsOneOf };
}

/**
 * The authentication and permission step in front of every route: access is
 * decided on the route the router matched, never on the URL text (which the
 * router decodes and normalises in ways a prefix test does not see). A route
 * needs a bearer token (401 otherwise) unless its own configuration says
 * `public`, then the permissions its configuration declares (403 naming the
 * missing ones). Runs before body validation, so a refused caller learns
 * nothing about the input rules. Every 403 a signed-in caller receives is
 * recorded as an audit event.
 */
export function installAuth(app: FastifyInstance, database: Database, config: Config): void {
  app.decorateRequest('actor', null as unknown as Actor);
  // The configuration is read when asked: a scope opened by openToEveryone sets `public` after this hook has run.
  const registered: { methods: string[]; url: string; route: RouteOptions }[] = [];
  // A change to what the caches hold (auth/sessions.ts, crud/custom-fields.ts) is told to every process
  // by a notification at commit. Every request waits for those committed before it (below); the routes
  // that may change those rows also wait before answering, so that what this process runs without a
  // request after the answer (a job, a test reading the database object) sees the change too. The other
  // routes (every read) run no hook for it.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    registered.push({ methods, url: route.url, route });
    if (!methods.some((method) => changesCachedRows(method, route.config ?? {}))) return;
    const waitForOwnChange: onSendHookHandler = async (request) => {
      if (changesCachedRows(request.method, request.routeOptions.config ?? {})) await database.caughtUp();
    };
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), waitForOwnChange];
  });
  const rules = () =>
    registered.flatMap(({ methods, url, route }) => methods.map((method) => ruleOf(method, url, route.config ?? {})));
  app.decorate('routeRules', rules);
  // A route whose rule cannot be read stops the start instead of failing its callers.
  app.addHook('onReady', async () => {
    rules();
  });

  app.addHook('onRequest', async (request) => {
    request.actor = anonymousActor;
    // No route matched: the not-found handler answers a 404 or the web app's page, never data.
    if (request.is404) return;
    const routeConfig = request.routeOptions.config;
    if (routeConfig.public === true) return;
    const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/.exec(request.headers.authorization ?? '');
    // Without a token there is nothing to look up: refused at once, the database not asked.
    if (!match) throw unauthenticated();
    // The caches (sessions here, custom fields in the handlers) may answer only once every change
    // committed before this request, by any process, has been heard: see Database.caughtUp.
    await database.caughtUp();
    const actor = await authenticate(database, config, match[1] as string);
    if (!actor) throw unauthenticated();
    request.actor = actor;
    const missing = missingPermissions(actor, neededByConfig(routeConfig));
    if (missing.length > 0) throw forbidden(missing);
    const oneOf = routeConfig.anyOf;
    if (oneOf && oneOf.length > 0 && !oneOf.some((permission) => actor.permissions.has(permission))) {
      throw forbidden([oneOf.join(' or ')]);
    }
  });

  // Refusals by the step above and by handlers (joins, references, rules on whom a user may change) alike.
  app.addHook('onError', async (request, _reply, error) => {
    // No actor yet when a hook before the step above failed.
    const actorId = (request.actor as Actor | null)?.userId ?? null;
    if (!isRefusal(error) || actorId === null) return;
    await recordAudit(database, {
      type: 'accessRefused',
      actorId,
      ip: request.ip,
      details: `${request.method} ${request.routeOptions.url ?? ''}: ${error.message}`,
    }).catch((err: unknown) => request.log.error({ err }, 'refusal not recorded in the audit events'));
  });
}
