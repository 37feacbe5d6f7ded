import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '@data-platform/server/testing/test-server';
import type { Browser, BrowserContextOptions, Locator, Page, Response as PageResponse } from 'playwright-core';
import { expect } from 'vitest';

/** Screenshots kept after a run (gitignored). */
export const ARTIFACTS_DIR = new URL('../artifacts/', import.meta.url).pathname;

export interface OpenOptions extends BrowserContextOptions {
  /** localStorage entries set before the app starts. */
  storage?: Record<string, string>;
}

/** A fresh browser context (its own storage) and page. */
export async function newPage(browser: Browser, { storage, ...options }: OpenOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  if (storage) {
    await context.addInitScript((entries: Record<string, string>) => {
      // Only on the first document of the context: later loads keep what the app stored.
      if (sessionStorage.getItem('e2e-seeded')) return;
      sessionStorage.setItem('e2e-seeded', '1');
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, storage);
  }
  return context.newPage();
}

/** Waits until the start's splash overlay has left. */
export async function splashGone(page: Page): Promise<void> {
  await page.getByTestId('splash').waitFor({ state: 'detached' });
}

/** Opens a path of the app and waits for the splash to leave. */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await splashGone(page);
}

/** Signs in through the form (the page must show it). */
export async function signInWithForm(page: Page, email = TEST_ADMIN_EMAIL, password = TEST_ADMIN_PASSWORD) {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the app at `url`, which sends to sign-in, and signs in as the administrator. */
export async function openSignedIn(page: Page, url: string, email?: string, password?: string): Promise<void> {
  await open(page, url);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signInWithForm(page, email, password);
  await page.getByTestId('user-menu').waitFor();
}

/** Opens a list signed in, then its Import wizard: the wizard's dialog, on its upload step. */
export async function openImportWizard(page: Page, url: string): Promise<Locator> {
  await openSignedIn(page, url);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.waitFor();
  return dialog;
}

/** One JavaScript file a page fetched: its path, its size as served and gzipped. */
export interface ScriptLoad {
  path: string;
  bytes: number;
  /** Gzipped here (zlib's default level, as the build's own check does): the server sends it uncompressed. */
  gzipBytes: number;
}

/** How long the network must stay quiet, and how long a first screen is watched at least. */
const QUIET_MS = 500;
const FIRST_SCREEN_MS = 3000;

/**
 * Opens `url` in `page` and answers every JavaScript file the browser fetched
 * until `ready` has resolved, at least FIRST_SCREEN_MS have passed and no
 * request has been in flight for QUIET_MS: what a first screen loads, including
 * what it fetches right after it shows. Each file once, in the order it came.
 */
export async function firstScreenScripts(
  page: Page,
  url: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<ScriptLoad[]> {
  const loads = new Map<string, Promise<ScriptLoad>>();
  let inFlight = 0;
  let lastActivity = Date.now();
  const started = () => {
    inFlight += 1;
    lastActivity = Date.now();
  };
  const ended = () => {
    inFlight -= 1;
    lastActivity = Date.now();
  };
  const answered = (response: PageResponse) => {
    const type = response.headers()['content-type'] ?? '';
    const path = new URL(response.url()).pathname;
    if (!type.includes('javascript') || loads.has(path)) return;
    loads.set(
      path,
      response.body().then((body) => ({ path, bytes: body.length, gzipBytes: gzipSync(body).length })),
    );
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  page.on('response', answered);
  const start = Date.now();
  await page.goto(url);
  await ready(page);
  for (;;) {
    const now = Date.now();
    if (now - start >= FIRST_SCREEN_MS && inFlight === 0 && now - lastActivity >= QUIET_MS) break;
    await page.waitForTimeout(100);
  }
  page.off('request', started);
  page.off('requestfinished', ended);
  page.off('requestfailed', ended);
  page.off('response', answered);
  return Promise.all(loads.values());
}

/** The gzipped bytes of `loads` together. */
export const gzipTotal = (loads: readonly ScriptLoad[]) => loads.reduce((sum, load) => sum + load.gzipBytes, 0);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core (WCAG 2 A and AA rules) in the page; answers the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // The splash covers a page that loads again (page.goto) while its name fades in: judge what is under it.
  await splashGone(page);
  // A dialog still fading in has the colours of half its opacity: judge it once it has arrived.
  // (Its transition may not have started yet when it is already in the page, so no animation says so.)
  // Only a dialog's own animations count, and a toast's entrance (a toast bouncing in has the colours of
  // half its opacity too); not a toast's progress bar, which pauses while the window has no focus.
  await page.waitForFunction(
    () => {
      const dialogs = [...document.querySelectorAll('[role="dialog"]')];
      const toasts = [...document.querySelectorAll('.Toastify__toast')];
      const arrived = dialogs.every((dialog) => {
        for (let node: Element | null = dialog; node; node = node.parentElement) {
          const style = getComputedStyle(node);
          if (style.display === 'none') return true;
          if (style.opacity !== '1') return false;
        }
        return true;
      });
      const moving = document.getAnimations().some((animation) => {
        const target = (animation.effect as KeyframeEffect | null)?.target;
        return (
          target instanceof Element &&
          animation.playState === 'running' &&
          animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY &&
          (toasts.includes(target) || dialogs.some((dialog) => dialog.contains(target) || target.contains(dialog)))
        );
      });
      return arrived && !moving;
    },
    undefined,
    { timeout: 10_000, polling: 100 },
  );
  // Evaluated, not added as an inline <script>: the app's Content-Security-Policy refuses inline scripts.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export interface ServerLike {
  url: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

const json = { 'content-type': 'application/json' };

/** A record as the API answers its creation. */
export type CreatedRecord = { id: number; version: number } & Record<string, unknown>;

/** Creates a record over the API as the test server's administrator; an answer other than 201 fails with its text. */
export async function createRecord(
  server: ServerLike,
  resource: string,
  body: Record<string, unknown>,
): Promise<CreatedRecord> {
  const answer = await server.fetch(`/api/v1/${resource}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`Creating ${resource} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as CreatedRecord;
}

/** A new session of an account over the API (the test server's own token must not be signed out). */
export async function sessionToken(server: ServerLike, email = TEST_ADMIN_EMAIL, password = TEST_ADMIN_PASSWORD) {
  const answer = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  if (!answer.ok) throw new Error(`Signing in as ${email} answered ${answer.status}`);
  return ((await answer.json()) as { accessToken: string }).accessToken;
}

let people = 0;
/** An email no other test of this process used. */
export function uniqueAddress(prefix: string): string {
  people += 1;
  return `${prefix}-${people}-${Math.random().toString(36).slice(2, 8)}@test.example`;
}

/** The newest mail to `to` in the outbox, as the administrator reads it over the API. */
export async function newestMail(server: ServerLike, to: string): Promise<{ subject: string; text: string }> {
  const answer = await server.fetch(
    `/api/v1/outbox?filter[to][eq]=${encodeURIComponent(to)}&sort=-createdAt&select=subject,text`,
  );
  const { data } = (await answer.json()) as { data: { subject: string; text: string }[] };
  if (!data[0]) throw new Error(`No mail to ${to} in the outbox`);
  return data[0];
}

/** Invites `email` with a built-in role; answers the token of the mailed /register link. */
export async function invite(server: ServerLike, email: string, roleName = 'Viewer'): Promise<string> {
  const roles = await server.fetch(`/api/v1/roles?filter[name][eq]=${roleName}&select=name`);
  const roleId = ((await roles.json()) as { data: { id: number }[] }).data[0]?.id;
  const invited = await server.fetch('/api/v1/users/invitations', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, roleId }),
  });
  if (invited.status !== 201) throw new Error(`Inviting answered ${invited.status}: ${await invited.text()}`);
  const token = /\/register\?token=([\w-]+)/.exec((await newestMail(server, email)).text)?.[1];
  if (!token) throw new Error(`No invitation link mailed to ${email}`);
  return token;
}

/** An active account with a built-in role and a known password, made through an invitation. */
export async function activeUser(server: ServerLike, roleName = 'Viewer') {
  const email = uniqueAddress(roleName.toLowerCase());
  const password = 'a long test passphrase';
  const token = await invite(server, email, roleName);
  const accepted = await fetch(`${server.url}/api/v1/auth/accept-invitation`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ token, firstName: 'Vera', lastName: 'Viewer', password }),
  });
  if (!accepted.ok) throw new Error(`Accepting answered ${accepted.status}: ${await accepted.text()}`);
  return { email, password, token: ((await accepted.json()) as { accessToken: string }).accessToken };
}

/** A picker (Mantine's searchable select): a combobox or a text box, by its label. */
export const picker = (scope: Page | Locator, name: string) =>
  scope.getByRole('combobox', { name, exact: true }).or(scope.getByRole('textbox', { name, exact: true }));

/** Fails with axe's report when the page has serious or critical violations. */
export const noSeriousViolations = async (page: Page) =>
  expect(JSON.stringify(await seriousViolations(page), null, 1)).toEqual('[]');
