import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { builtInRoles, isPermission, type Permission } from '@data-platform/shared/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';
import { type AccountServer, invitedUser, roleIdOf } from '../testing/accounts.ts';
import { adminClient, unique } from '../testing/factories.ts';
import { outboxMailbox } from '../testing/mail.ts';
import { startTestServer, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server.ts';
import type { RouteRule } from './auth.ts';

/**
 * Who may call what, however the path is spelled: every operation of the
 * OpenAPI document × every kind of caller × spellings a router may accept for
 * the same route, against what the route itself declares (public, or the
 * permissions it needs). Nothing here names a route: a new one joins the
 * matrix by being registered. Path parameters name a row that does not exist
 * and bodies fail validation, so the matrix changes nothing.
 */

const PUBLIC_URL = 'https://data.example.test';
const MISSING_ID = '999999999';
/** A body no route accepts: every body schema is strict. */
const PROBE_BODY = JSON.stringify({ accessMatrixProbe: true });

/** The custom role's few rights, kept to those that exist when the test runs. */
const customRights = ['companies:read', 'companies:update', 'contacts:read', 'notes:create', 'customFields:manage'];

interface Answer {
  status: number;
  body: string;
}

interface Caller {
  name: string;
  /** Absent for the caller without a token. */
  credentials?: { email: string; password: string };
  token?: string;
  permissions: ReadonlySet<string>;
}

interface Operation {
  method: string;
  /** The path with every parameter replaced by an id that does not exist. */
  path: string;
  rule: RouteRule;
}

let server: TestServer;
let port: number;
let rules: RouteRule[];
let operations: Operation[];
const callers: Caller[] = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Sends the request target exactly as given (no normalising client in between), over keep-alive. */
function send(method: string, target: string, token?: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const request = http.request({ host: '127.0.0.1', port, method, path: target, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Other spellings of a plain `/api/...` path that some client, proxy or router could treat as the same. */
const spellings: Record<string, (plain: string) => string> = {
  'an escaped letter': (p) => p.replace(/^\/api\//, '/%61pi/'),
  'an escaped digit': (p) => p.replace(/^\/api\/v1\//, '/api/v%31/'),
  'an escaped letter in the resource': (p) =>
    p.replace(
      /^(\/api\/(?:v1\/)?)([a-z])/,
      (_, start: string, c: string) => `${start}%${c.charCodeAt(0).toString(16)}`,
    ),
  'an escaped slash': (p) => p.replace(/^\/api\//, '/api%2F'),
  'the absolute form': (p) => `http://127.0.0.1:${port}${p}`,
  'a doubled slash': (p) => p.replace(/^\/api\//, '/api//'),
  'a leading doubled slash': (p) => `/${p}`,
  'upper case': (p) => p.replace(/^\/api\//, '/API/'),
  'a trailing slash': (p) => `${p}/`,
  'a semicolon': (p) => `${p};x`,
  'a null byte': (p) => `${p}%00`,
  'an escaped slash in a parameter': (p) => p.replace(MISSING_ID, `${MISSING_ID}%2F1`),
  'a dot segment': (p) => p.replace(/^\/api\//, '/api/x/../'),
};

function fastifyPattern(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

async function signInAgain(caller: Caller) {
  const { email, password } = caller.credentials as { email: string; password: string };
  const answer = await send('POST', '/api/v1/auth/login', undefined, JSON.stringify({ email, password }));
  if (answer.status !== 200) throw new Error(`${caller.name} cannot sign in again: ${answer.status} ${answer.body}`);
  caller.token = (JSON.parse(answer.body) as { accessToken: string }).accessToken;
}

/**
 * A write that succeeded may have ended the caller's session (signing out):
 * the caller signs in again so that later rows of the matrix still test permissions.
 */
async function keepSignedIn(caller: Caller, method: string, answer: Answer) {
  if (!caller.token || method === 'GET' || method === 'HEAD' || answer.status >= 300) return;
  if ((await send('GET', '/api/v1/auth/me', caller.token)).status === 401) await signInAgain(caller);
}

/** A route pattern as a regular expression over a decoded path: `:name` is one segment (maybe empty), `*` the rest. */
function patternOf(url: string): RegExp {
  const segments = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]*' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * The route a request target reaches, found the way Fastify's router finds it
 * with our options: absolute form taken, escapes decoded but `%2F`, case and
 * slashes kept, a static route before one with parameters. Judging each
 * answer by the route it reached, and not by the spelling, is what the
 * server must do too.
 */
function routeReached(method: string, target: string): RouteRule | undefined {
  const path = target
    .replace(/^https?:\/\/[^/]*/i, '')
    .split(/%2f/i)
    .map(decodeURIComponent)
    .join('%2F');
  const params = (rule: RouteRule) => (rule.url.match(/:|\*/g) ?? []).length;
  return rules
    .filter((rule) => rule.method === method && patternOf(rule.url).test(path))
    .sort((a, b) => params(a) - params(b))[0];
}

/** Undefined when the answer is what `rule` allows `caller`, else what is wrong with it. */
function misjudged(rule: RouteRule | undefined, caller: Caller, answer: Answer): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.body.slice(0, 200)}`;
  if (!rule) return answer.status === 404 ? undefined : `reaches no route, yet answered ${answer.status}`;
  const missing: string[] = rule.needs.filter((p) => !caller.permissions.has(p));
  if (rule.needsOneOf.length > 0 && !rule.needsOneOf.some((p) => caller.permissions.has(p))) {
    missing.push(rule.needsOneOf.join(' or '));
  }
  if (rule.public) {
    return answer.status === 401 || answer.status === 403 ? `public, yet answered ${answer.status}` : undefined;
  }
  if (!caller.token) return answer.status === 401 ? undefined : `answered ${answer.status} without a token`;
  if (missing.length > 0) {
    return answer.status === 403 ? undefined : `answered ${answer.status} though ${missing.join(', ')} is missing`;
  }
  return answer.status === 401 || answer.status === 403
    ? `answered ${answer.status} to a caller holding ${rule.needs.join(', ') || 'a session'}: ${answer.body.slice(0, 200)}`
    : undefined;
}

/**
 * The spellings of every operation, each as [name, method, target]: the
 * plain one first, then the others, HEAD for a GET (Fastify makes a HEAD
 * route of every GET one) and OPTIONS (no route: the web app is same-origin).
 */
function variantsOf({ method, path: plain }: Operation): [string, string, string][] {
  const others = [
    ...Object.entries(spellings).map(([name, spell]): [string, string, string] => [name, method, spell(plain)]),
    ...(method === 'GET' ? [['HEAD', 'HEAD', plain] as [string, string, string]] : []),
    ['OPTIONS', 'OPTIONS', plain] as [string, string, string],
  ];
  // A spelling that does not apply to this path (no parameter to put a slash in) leaves it plain: not sent twice.
  return [['plain', method, plain], ...others.filter(([, m, target]) => m !== method || target !== plain)];
}

/**
 * The matrix for one caller; the failures as lines. `share` = [i, n]: the
 * caller sends every plain spelling, and of the other spellings of the k-th
 * operation the j-th when (k + j) % n = i. So n signed-in callers together
 * send every other spelling of every operation once, and each of them sends
 * every spelling on some operations: a few thousand requests instead of
 * five times twelve thousand. The caller without a token sends them all.
 */
async function runMatrix(
  caller: Caller,
  share: [number, number] = [0, 1],
): Promise<{ failures: string[]; requests: number }> {
  const [mine, of] = share;
  const failures: string[] = [];
  let requests = 0;
  for (const [k, operation] of operations.entries()) {
    const variants = variantsOf(operation).filter(([name], j) => name === 'plain' || (k + j) % of === mine);
    for (const [name, method, target] of variants) {
      const rule = routeReached(method, target);
      if (name === 'plain' && rule !== operation.rule) throw new Error(`${method} ${target} reaches another route`);
      requests += 1;
      const withBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
      const answer = await send(method, target, caller.token, withBody ? PROBE_BODY : undefined);
      await keepSignedIn(caller, method, answer);
      const wrong = misjudged(rule, caller, answer);
      if (wrong) failures.push(`${caller.name}: ${method} ${target} (${name}) ${wrong}`);
    }
  }
  return { failures, requests };
}

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL });
  port = Number(new URL(server.url).port);
  rules = server.app.routeRules();
  const document = JSON.parse((await send('GET', '/api/openapi.json')).body) as {
    paths: Record<string, Record<string, unknown>>;
  };
  operations = Object.entries(document.paths).flatMap(([openApiPath, methods]) =>
    Object.keys(methods).map((lower) => {
      const method = lower.toUpperCase();
      const url = fastifyPattern(openApiPath);
      const rule = rules.find((r) => r.method === method && r.url === url);
      if (!rule) throw new Error(`${method} ${openApiPath} is described but no such route is registered`);
      return { method, path: openApiPath.replace(/\{\w+\}/g, MISSING_ID), rule };
    }),
  );

  const admin = adminClient(server);
  const accounts: AccountServer = { url: server.url, publicUrl: PUBLIC_URL, admin, mailbox: outboxMailbox(admin) };
  const rights = customRights.filter(isPermission) as Permission[];
  const custom = await admin.post('/api/v1/roles', { name: unique('Matrix role'), permissions: rights });
  if (custom.status !== 201) throw new Error(`Creating the custom role answered ${custom.status}`);
  const roles: [string, number][] = [
    ...(await Promise.all(
      builtInRoles
        .filter((role) => role.name !== 'Administrator')
        .map(async (role): Promise<[string, number]> => [role.name, await roleIdOf(admin, role.name)]),
    )),
    [`a custom role (${rights.join(', ')})`, custom.body.id],
  ];
  callers.push({ name: 'no token', permissions: new Set() });
  callers.push({
    name: 'Administrator',
    credentials: { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD },
    token: server.token,
    permissions: new Set(),
  });
  for (const [name, roleId] of roles) {
    const user = await invitedUser(accounts, roleId);
    callers.push({
      name,
      credentials: { email: user.email, password: user.password },
      token: user.token,
      permissions: new Set(),
    });
  }
  // What each caller holds, as the server says: the matrix follows the roles as they are.
  for (const caller of callers) {
    if (!caller.token) continue;
    const me = JSON.parse((await send('GET', '/api/v1/auth/me', caller.token)).body) as {
      role: { permissions: string[] };
    };
    caller.permissions = new Set(me.role.permissions);
  }
});

afterAll(async () => {
  agent.destroy();
  await server?.close();
});

/** The web build the server serves, as the test server finds it. */
const webDir = configFromEnv({ ...(process.env.WEB_DIR ? { WEB_DIR: process.env.WEB_DIR } : {}) }).webDir;
const webBuilt = () => existsSync(path.join(webDir, 'index.html'));

describe('the routes', () => {
  it('every route that needs a token is described in the OpenAPI document, so the matrix reaches it', () => {
    const described = new Set(operations.map((o) => `${o.method} ${o.rule.url}`));
    const missing = rules
      .filter((r) => !r.public && r.method !== 'HEAD' && !described.has(`${r.method} ${r.url}`))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThan(100);
  });

  it('are public only when listed here: opening one more is a deliberate act', () => {
    const publicApi = [
      'GET /api/health',
      'GET /api/openapi.json',
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/register',
      'POST /api/v1/auth/forgot-password',
      'POST /api/v1/auth/reset-password',
      'POST /api/v1/auth/accept-invitation',
      // The API reference (@fastify/swagger-ui).
      'GET /api/docs',
      'GET /api/docs/static/index.html',
      'GET /api/docs/static/swagger-initializer.js',
      'GET /api/docs/json',
      'GET /api/docs/yaml',
      'GET /api/docs/static/*',
    ];
    // The web build's files (@fastify/static), whatever the build holds.
    const webFiles = (webBuilt() ? readdirSync(webDir, { recursive: true, withFileTypes: true }) : [])
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(webDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`);
    const webPaths = webFiles.flatMap((file) => (file === '/index.html' ? ['/', file] : [file]));
    const expected = [...publicApi, ...webPaths.map((p) => `GET ${p}`)].flatMap((route) =>
      route.startsWith('GET ') ? [route, route.replace(/^GET /, 'HEAD ')] : [route],
    );
    // Fastify also routes the reference's root with a slash; only its HEAD form goes through onRoute.
    expected.push('HEAD /api/docs/');
    const open = rules.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    expect(new Set(open)).toEqual(new Set(expected));
  });
});

describe('a path no route matches', () => {
  it('is a page of the web app for anyone, when the web app is built', async () => {
    const page = await send('GET', '/companies/12?tab=notes');
    expect(page.status).toBe(webBuilt() ? 200 : 404);
    if (webBuilt()) expect(page.body).toMatch(/<html/i);
  });

  it('is a 404 holding no data under /api, however it is spelled', async () => {
    for (const target of [
      '/api/v1/no-such-route',
      '/API/v1/users',
      '/%41PI/v1/users',
      '//api/v1/users',
      '/api//v1/users',
      '/api%2Fv1/users',
      `http://127.0.0.1:${port}/API/v1/users`,
      '/api',
    ]) {
      const answer = await send('GET', target);
      expect(answer.status, target).toBe(404);
      expect(JSON.parse(answer.body), target).toEqual({ error: expect.objectContaining({ code: 'not_found' }) });
    }
  });
});

describe('the authorization matrix', () => {
  it('answers a caller without a token 401 on every protected route, in every spelling', async () => {
    const { failures, requests } = await runMatrix(callers[0] as Caller);
    expect(failures).toEqual([]);
    expect(requests).toBe(operations.reduce((n, operation) => n + variantsOf(operation).length, 0));
  });

  // Signed-in callers run side by side (each has a session of its own), sharing the spellings between them.
  const signedIn = ['Administrator', 'Viewer', 'Editor', 'a custom role'];
  it.concurrent.for(signedIn.map((name, i) => [name, i] as const))(
    'answers %s as the route reached declares: 403 for a missing permission, never 401 or 403 otherwise',
    async ([name, i], { expect }) => {
      const caller = callers.find((c) => c.name.startsWith(name)) as Caller;
      const { failures, requests } = await runMatrix(caller, [i, signedIn.length]);
      expect(failures).toEqual([]);
      expect(requests).toBeGreaterThan(operations.length * 3);
    },
  );
});
