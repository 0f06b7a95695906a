import { chromium, type Browser, type BrowserContextOptions, type Page, type Request } from 'playwright-core';
import type { Test } from 'tap';

/**
 * Debian's headless Chromium as the browser tests drive it. The background-networking flags keep
 * it from reaching out to hosts this machine's closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The pages of each browser a test ended with, by the options of their context, for the next test. */
const handedBack = new WeakMap<Browser, Map<string, Page[]>>();

/**
 * A page of `browser` in a context of its own with `options`, for test `t`; when `t` ends it is
 * emptied (no listeners, no cookies, about:blank) and handed to the next test of the file that
 * asks for one with the same options. Why: each new page costs Chromium a renderer process,
 * about a third of a second of core time, where a page handed on costs a navigation. Nothing of
 * one test reaches the next: each test's emulator listens on a port of its own, so its pages are
 * of an origin of their own (storage, cache), and the cookies go. A test that asks for two pages
 * gets two.
 */
export async function pageFor(browser: Browser, t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  let byOptions = handedBack.get(browser);
  if (!byOptions) handedBack.set(browser, (byOptions = new Map()));
  const key = JSON.stringify(options);
  const free = byOptions.get(key) ?? [];
  byOptions.set(key, free);
  const page = free.pop() ?? (await (await browser.newContext(options)).newPage());
  t.teardown(async () => {
    try {
      await page.removeAllListeners();
      await page.context().clearCookies();
      await page.goto('about:blank');
      free.push(page);
    } catch {
      // A page the test left unusable (crashed, closed) is not handed on.
      await page
        .context()
        .close()
        .catch(() => {});
    }
  });
  return page;
}

/**
 * A page of `browser` with JavaScript off (the hosted pages work without it), at `url`, for the
 * test `t` (pageFor); `navigations()` is every document request it has made so far.
 */
export async function openWithoutScript(browser: Browser, t: Test, url: string): Promise<{ page: Page; navigations: () => Request[] }> {
  const page = await pageFor(browser, t, { javaScriptEnabled: false });
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest()) requests.push(request);
  });
  await page.goto(url);
  return { page, navigations: () => requests };
}
