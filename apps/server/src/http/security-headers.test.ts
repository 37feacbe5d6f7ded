import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import {
  apiContentSecurityPolicy,
  apiReferenceContentSecurityPolicy,
  webAppContentSecurityPolicy,
} from './security-headers.ts';

/** Browsers get security headers on every answer, whichever part of the server gave it. */

const ASSET = '/assets/main-Ab12Cd34.js';
let webDir: string;
let server: TestServer;

beforeAll(async () => {
  // A web build of its own, so the test does not depend on `npm run build`.
  webDir = await mkdtemp(path.join(tmpdir(), 'dp-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), `<!doctype html><script type="module" src="${ASSET}"></script>`);
  await writeFile(path.join(webDir, ASSET), 'export {};');
  server = await startTestServer({ WEB_DIR: webDir, PUBLIC_URL: 'https://data.example.com' });
});

afterAll(async () => {
  await server?.close();
  await rm(webDir, { recursive: true, force: true });
});

const get = (url: string, init?: RequestInit) => server.fetch(url, init);

function expectCommonHeaders(response: Response) {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('permissions-policy')).toMatch(/(^|, )camera=\(\)/);
  expect(response.headers.get('permissions-policy')).toMatch(/(^|, )geolocation=\(\)/);
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
}

describe('security headers', () => {
  it('the web app policy allows no inline or foreign script, no plugins, no framing', () => {
    const directives = new Map(
      webAppContentSecurityPolicy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
  });

  it('an API answer: the strict policy, and no copy kept', async () => {
    const response = await get('/api/v1/users');
    expect(response.status).toBe(200);
    expectCommonHeaders(response);
    expect(response.headers.get('content-security-policy')).toBe(apiContentSecurityPolicy);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('index.html, asked for or as the fallback of a page address: the web app policy, revalidated', async () => {
    for (const url of ['/', '/index.html', '/companies/12', '/fr/deals']) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toMatch(/^text\/html/);
      expectCommonHeaders(response);
      expect(response.headers.get('content-security-policy'), url).toBe(webAppContentSecurityPolicy);
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
    }
  });

  it('a 304 for a cached page leaves its stored policy alone (a browser would replace it with the 304s)', async () => {
    for (const url of ['/', '/companies/12']) {
      const first = await get(url);
      const response = await get(url, {
        headers: {
          // As a browser revalidates (fetch would add `no-cache`, which asks for the whole answer).
          'cache-control': 'max-age=0',
          'if-none-match': first.headers.get('etag') ?? '',
          'if-modified-since': first.headers.get('last-modified') ?? '',
        },
      });
      expect(response.status, url).toBe(304);
      expect(response.headers.get('content-security-policy'), url).toBeNull();
      expect(response.headers.get('cache-control'), url).not.toBe('no-store');
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
  });

  it('a hashed asset: kept a year', async () => {
    const response = await get(ASSET);
    expect(response.status).toBe(200);
    expectCommonHeaders(response);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('a 404 of the API, an error, a refusal, a bad address: the strict policy', async () => {
    const answers = {
      'unknown API route': await get('/api/v1/no-such-thing'),
      'malformed body': await get('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
      'bad token': await get('/api/v1/users', { headers: { authorization: 'Bearer wrong' } }),
      'bad address': await get('/api/v1/companies/%zz'),
    };
    expect(Object.values(answers).map((r) => r.status)).toEqual([404, 400, 401, 400]);
    expect(await answers['bad address'].clone().json()).toMatchObject({ error: { code: 'bad_request' } });
    for (const [what, response] of Object.entries(answers)) {
      const headers = Object.fromEntries(response.headers);
      expect(headers, what).toMatchObject({
        'x-content-type-options': 'nosniff',
        'content-security-policy': apiContentSecurityPolicy,
        'cache-control': 'no-store',
      });
      expectCommonHeaders(response);
    }
  });

  it('an API route reached by an encoded path is still an API answer, never a page', async () => {
    const response = await fetch(`${server.url}/%61pi/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(apiContentSecurityPolicy);
    // Read the large document whole: a body left unread holds its request open, and the server's close waits for it.
    await response.arrayBuffer();
  });

  it('the API reference at /api/docs: its own policy, on its page only', async () => {
    const page = await get('/api/docs');
    expect(page.status).toBe(200);
    expectCommonHeaders(page);
    expect(page.headers.get('content-security-policy')).toBe(apiReferenceContentSecurityPolicy);
    const document = await get('/api/openapi.json');
    expect(document.headers.get('content-security-policy')).toBe(apiContentSecurityPolicy);
    await document.arrayBuffer();
  });
});

describe('HSTS', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer({ PUBLIC_URL: 'http://127.0.0.1:3000' });
  });
  afterAll(async () => plain?.close());

  it('is not sent when the public address is plain HTTP', async () => {
    const response = await plain.fetch('/api/health');
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
