import type { Browser, Page } from 'playwright-core';
import { firstScreenScripts, newPage, type ScriptLoad, sessionToken } from './web.ts';

/** What the browser may fetch of JavaScript for a first screen, gzipped (issue #11). */
export const FIRST_SCREEN_BUDGETS = {
  signIn: 200 * 1024,
  companies: 300 * 1024,
} as const;

export type FirstScreen = keyof typeof FIRST_SCREEN_BUDGETS;

type ServerLike = Parameters<typeof sessionToken>[0] & {
  /** The account the list is opened as; the test server's administrator when not given. */
  email?: string;
  password?: string;
};

/** The sign-in screen a signed-out visitor of `/` is sent to, once its form shows. */
async function signIn(browser: Browser, server: ServerLike): Promise<ScriptLoad[]> {
  const page = await newPage(browser);
  try {
    return await firstScreenScripts(page, `${server.url}/`, (shown: Page) =>
      shown.locator('input[name="password"]').waitFor(),
    );
  } finally {
    await page.context().close();
  }
}

/** The company list of a signed-in user (a kept session) opening /companies, once its rows show. */
async function companies(browser: Browser, server: ServerLike): Promise<ScriptLoad[]> {
  const page = await newPage(browser, {
    storage: { token: await sessionToken(server, server.email, server.password) },
  });
  try {
    return await firstScreenScripts(page, `${server.url}/companies`, (shown: Page) =>
      shown.getByTestId('list-grid').locator('tbody tr').first().waitFor(),
    );
  } finally {
    await page.context().close();
  }
}

/** Measures one first screen; the server must have companies (the demo data) for the list. */
export function measureFirstScreen(screen: FirstScreen, browser: Browser, server: ServerLike) {
  return screen === 'signIn' ? signIn(browser, server) : companies(browser, server);
}
