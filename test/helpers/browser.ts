import { chromium, type Browser, type Page, type Request } from 'playwright-core';
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

/**
 * A page of `browser` with JavaScript off (the hosted pages work without it), at `url`, closed
 * when the test ends; `navigations()` is every document request it has made so far.
 */
export async function openWithoutScript(browser: Browser, t: Test, url: string): Promise<{ page: Page; navigations: () => Request[] }> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest()) requests.push(request);
  });
  await page.goto(url);
  return { page, navigations: () => requests };
}
