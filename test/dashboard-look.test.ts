import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium } from './helpers/browser.js';
import { emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

/**
 * How the dashboard looks in Chromium at a phone's, a tablet's and a laptop's width: nothing cut
 * or wider than the page, no id or time broken across lines, statuses as badges, a payment's
 * timeline, the overview's charts, and no serious or critical accessibility violation (axe-core).
 */

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const D = '/_payemu/dashboard';
const WIDTHS = [375, 768, 1280] as const;

let browser: Browser;
t.before(async () => {
  browser = await launchChromium();
});
t.teardown(() => browser?.close());

async function newPage(t: Test, width: number, bypassCSP = false): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP });
  t.teardown(() => context.close());
  return context.newPage();
}

/**
 * `page` at each of the widths in turn, resized as a window is: a page is loaded once and
 * looked at three times (a load and a context per width cost Chromium three times the work).
 */
async function* atEachWidth(page: Page): AsyncGenerator<number> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    yield width;
  }
}

/**
 * The ten days below, lived once for the file: the tests that only look at them share them; the
 * one that acts (links, which advances the clock) runs last.
 */
let lived: ReturnType<typeof tenDays> | undefined;
const tenDaysOnce = () => (lived ??= tenDays(t));

/**
 * Ten days of a Source's life: a payment authorized, captured and refunded in part, a day of
 * payments and declines after another, a schedule, an invoice, a payment link, and a receiver
 * that fails one delivery in four (so some events retry).
 */
async function tenDays(t: Test): Promise<{ e: TestEmulator; paymentId: string; eventId: string; invoiceId: string }> {
  let received = 0;
  const hook = await receiver(t, (_req, res) => {
    received += 1;
    res.statusCode = received % 4 === 0 ? 500 : 200;
    res.end(received % 4 === 0 ? 'receiver busy' : 'ok');
  });
  const e = await emulator(t, { clockStart: '2027-03-01T09:00:00Z', freezeClock: true, webhookUrl: hook.url });
  const advance = (by: string) => e.api.post('/_payemu/clock/advance', { by });
  const { completed } = await pay(e, {
    amount: 120,
    reference: 'order-1001',
    capture_method: 'manual',
    customer_email: 'ada@example.com',
    description: 'Annual plan',
    save_payment_method: true,
  });
  const paymentId = String(completed.body.payment.id);
  await advance('2h');
  await e.api.post('/v1/payments/order-1001/capture', {});
  await advance('1d');
  await e.api.post('/v1/payments/order-1001/refunds', { amount: 20, reason: 'requested_by_customer' });
  await e.api.post('/v1/recurring-payments', { payment_method: completed.body.payment.payment_method, amount: 9, frequency: 'weekly', reference: 'plan-ada' });
  const invoice = (
    await e.api.post('/v1/invoices', {
      customer_name: 'Grace Hopper',
      customer_email: 'grace@example.com',
      currency: 'USD',
      due_date: '2027-03-05',
      items: [{ description: 'Consulting', quantity: 3, unit_price: 150 }],
    })
  ).body.data;
  await e.api.post(`/v1/invoices/${invoice.id}/send`);
  await e.api.post('/v1/payment-links', { title: 'Coffee beans', amount: 14 });
  for (let day = 0; day < 9; day++) {
    for (let i = 0; i <= day % 3; i++) await pay(e, { amount: 10 + day * 3 + i, reference: `order-${1100 + day * 10 + i}` });
    if (day % 2 === 1) await pay(e, { amount: 42, reference: `order-${1100 + day * 10 + 5}` }, '4000000000000002');
    await advance(`${7 + (day % 3) * 5}h`);
    await advance(`${17 - (day % 3) * 5}h`);
  }
  await e.api.post('/_payemu/faults', { method: 'POST', path: '/v1/payments/*/refunds', status: 503, times: 2, seed: 7 });
  e.webhookChaos.set({ duplicate: 0.2, delay: '5s', seed: 7 });
  await e.idle();
  const [event] = (await e.api.get('/_payemu/events?event=payment.refunded')).body.events;
  return { e, paymentId, eventId: event.id, invoiceId: invoice.id };
}

const pages = (paymentId: string, eventId: string, invoiceId: string) => [
  '',
  '/payments',
  `/payments/${paymentId}`,
  '/schedules',
  '/schedules/plan-ada',
  '/invoices',
  '/payment-links',
  '/events',
  `/events/${eventId}`,
  `/invoices/${invoiceId}`,
  '/requests',
  '/faults',
  '/clock',
  '/reset',
];

/** The text nodes of the page that a browser broke over more than one line, outside the places allowed to wrap. */
const WRAPPED = `(() => {
  const broken = [];
  const nodes = document.querySelectorAll('td:not(.wrap), th, .id, code, time, .badge');
  for (const element of nodes) {
    if (element.closest('.wrap, pre, details, .visually-hidden')) continue;
    for (const node of element.childNodes) {
      if (node.nodeType !== 3 || node.textContent.trim() === '') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(node.textContent.trim().slice(0, 60));
    }
  }
  return broken;
})()`;

t.test('at 375, 768 and 1280 px: nothing wider than the page, no id or time wrapped, badges, the timeline, the charts', { timeout: 300_000 }, async (t) => {
  const { e, paymentId, eventId, invoiceId } = await tenDaysOnce();
  const page = await newPage(t, WIDTHS[0]);
  for (const path of pages(paymentId, eventId, invoiceId)) {
    const answer = await page.goto(`${e.url}${D}${path}`);
    t.equal(answer?.status(), 200, path || '/');
    for await (const width of atEachWidth(page)) {
      const where = `${path || '/'} at ${width} px`;
      const [scroll, client] = (await page.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]')) as [number, number];
      t.ok(scroll <= client, `${where}: ${scroll} px wide in ${client}`);
      t.same(await page.evaluate(WRAPPED), [], `${where}: no id, time or cell broken over lines`);
      t.equal(await page.locator('link[rel=icon]').getAttribute('href'), '/favicon.ico', `${where}: links the favicon`);
      for (const region of await page.locator('.scroll').all()) {
        t.equal(await region.getAttribute('tabindex'), '0', `${where}: a scrolling table box is focusable`);
        t.ok(await region.getAttribute('aria-label'), `${where}: and named`);
      }
    }
  }
  await page.goto(`${e.url}${D}/payments`);
  for await (const width of atEachWidth(page)) {
    t.equal(await page.locator('[data-testid=payments] tbody tr').count(), 25, 'a page of payments');
    const firstStatus = page.getByTestId('status').first().locator('.badge');
    t.equal(await firstStatus.count(), 1, 'a status is a badge');
    t.match(await page.locator('.badge.ok').first().innerText(), 'PAID', 'PAID is green');
    t.match(await page.locator('.badge.bad').first().innerText(), 'FAILED', 'FAILED is red');
    t.equal(await page.evaluate("getComputedStyle(document.querySelector('[data-testid=payments] td.num')).textAlign"), 'right', 'amounts are right-aligned');
    // A wide table scrolls in its box (its cells keep to one line) instead of squeezing the ids.
    const [inner, outer] = (await page.evaluate("(({ scrollWidth, clientWidth }) => [scrollWidth, clientWidth])(document.querySelector('.scroll'))")) as [
      number,
      number,
    ];
    if (width === 375) t.ok(inner > outer, `the payments table scrolls inside its box at 375 px (${inner} in ${outer})`);
    const [cellHeight, lineHeight] = (await page.evaluate(
      "((td) => [td.getBoundingClientRect().height, Number.parseFloat(getComputedStyle(td).lineHeight)])(document.querySelector('[data-testid=payments] tbody td:nth-child(2)'))",
    )) as [number, number];
    t.ok(cellHeight < lineHeight * 2 + 20, `the id cell is one line high (${cellHeight} px)`);
  }

  await page.goto(`${e.url}${D}/payments/${paymentId}`);
  for await (const width of atEachWidth(page)) {
    const kinds = (await page.evaluate("[...document.querySelectorAll('[data-testid=timeline] > li')].map((li) => li.dataset.kind)")) as string[];
    t.same(kinds.slice(0, 4), ['created', 'authorized', 'event', 'captured'], 'the timeline starts: created, authorized, its event, captured');
    t.ok(kinds.includes('refund'), 'the refund is on it');
    t.ok(kinds.filter((k) => k === 'event').length >= 3, 'each event is on it');
    t.match(
      await page.getByTestId('timeline').innerText(),
      /2027-03-01 09:00:00[\s\S]*Created[\s\S]*2027-03-01 11:00:00[\s\S]*Captured[\s\S]*2027-03-02 11:00:00[\s\S]*Refunded\s+20\.00 USD/,
    );
    t.ok((await page.getByTestId('timeline').locator('ul li').count()) >= 3, 'with the delivery attempts of its events');
    t.equal(await page.getByRole('link', { name: 'plan-ada' }).count(), 0, `a payment of no schedule names none (${width} px)`);
  }

  await page.goto(`${e.url}${D}`);
  for await (const width of atEachWidth(page)) {
    for (const chart of ['payments-chart', 'deliveries-chart']) {
      const svg = page.getByTestId(chart).locator('svg[role=img]');
      t.equal(await svg.count(), 1, `${chart}: one SVG image at ${width} px`);
      t.ok((await svg.locator('rect').count()) > 3, `${chart}: bars`);
      t.match(await svg.locator('desc').textContent(), /in all, from 2027-03-01/, `${chart}: described`);
      t.ok((await page.getByTestId(chart).locator('details table tbody tr').count()) > 1, `${chart}: and as a table`);
    }
    t.match(await page.getByTestId('payments-chart').innerText(), /PAID\s+\d+[\s\S]*FAILED\s+\d+/, 'a legend with the totals');
    t.match(await page.getByTestId('deliveries-chart').innerText(), /succeeded\s+\d+[\s\S]*failed\s+\d+/);
    t.match(await page.getByTestId('offset').innerText(), /^[+-]\d+ d( \d+ h)? from real time$/, 'the offset in days and hours');
    t.match(await page.getByTestId('now').innerText(), /^Thu, 11 Mar 2027 11:00:00 UTC\s+2027-03-11T11:00:00\.000000Z$/, 'now as a date');
  }

  const icon = await fetch(`${e.url}/favicon.ico`);
  t.equal(icon.status, 200, 'the favicon is served');
  t.match(icon.headers.get('content-type'), /^image\/svg\+xml/);
  t.match(await icon.text(), /^<svg /);
});

t.test('axe-core finds no serious or critical violation on any page at 375, 768 and 1280 px', { timeout: 300_000 }, async (t) => {
  const { e, paymentId, eventId, invoiceId } = await tenDaysOnce();
  // The CSP admits payemu's own scripts only: this context lets axe's be added, for this pass only.
  const page = await newPage(t, WIDTHS[0], true);
  for (const path of pages(paymentId, eventId, invoiceId)) {
    await page.goto(`${e.url}${D}${path}`);
    await page.addScriptTag({ path: AXE });
    for await (const width of atEachWidth(page)) {
      const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')))`)) as string[];
      t.same(violations, [], `${path || '/'} at ${width} px`);
    }
  }
});

// PAYEMU_SCREENSHOTS=1 refreshes the pictures of docs/dashboard.md: the pages at 1280 px, the overview and a payment at 375 and 768 px too.
t.test('screenshots', { skip: process.env.PAYEMU_SCREENSHOTS !== '1', timeout: 300_000 }, async (t) => {
  const { e, paymentId, eventId, invoiceId } = await tenDaysOnce();
  fs.mkdirSync('docs/dashboard', { recursive: true });
  const wide = await newPage(t, 1280);
  // The long lists are shown as far as a screen holds them: the pictures stay small.
  const shots: [string, string, boolean][] = [
    ['overview', '', true],
    ['payments', '/payments', false],
    ['payment', `/payments/${paymentId}`, true],
    ['schedules', '/schedules', true],
    ['invoice', `/invoices/${invoiceId}`, true],
    ['events', '/events', false],
    ['event', `/events/${eventId}`, true],
    ['requests', '/requests', false],
    ['faults', '/faults', true],
    ['clock', '/clock', true],
    ['reset', '/reset', true],
  ];
  for (const [name, path, fullPage] of shots) {
    await wide.goto(`${e.url}${D}${path}`);
    await wide.screenshot({ path: `docs/dashboard/${name}.png`, fullPage });
  }
  for (const width of [375, 768]) {
    const page = await newPage(t, width);
    for (const [name, path] of [
      ['overview', ''],
      ['payment', `/payments/${paymentId}`],
    ] as const) {
      await page.goto(`${e.url}${D}${path}`);
      await page.screenshot({ path: `docs/dashboard/${name}-${width}.png`, fullPage: true });
    }
  }
  t.pass('written');
});

// Last: it advances the clock of the emulator the tests above look at.
t.test('links: every reference, payment id, schedule and invoice leads to its page', { timeout: 300_000 }, async (t) => {
  const { e, paymentId } = await tenDaysOnce();
  const page = await newPage(t, 1280);
  await page.goto(`${e.url}${D}/events`);
  const references = page.getByTestId('events').locator('tbody td:nth-child(3)');
  const links = (await page.evaluate(
    "[...document.querySelectorAll('[data-testid=events] tbody td:nth-child(3) a')].map((a) => a.getAttribute('href'))",
  )) as string[];
  t.equal(links.length, await references.count(), 'every event names a reference with a page');
  t.ok(
    links.some((h) => h?.includes(`/payments/${paymentId}?`)),
    'a payment',
  );
  t.ok(
    links.some((h) => h?.includes('/schedules/plan-ada?')),
    'a schedule',
  );
  t.ok(
    links.some((h) => h?.startsWith(`${D}/invoices/inv_`)),
    'an invoice',
  );
  await page.goto(`${e.url}${D}/payments`);
  await Promise.all([page.waitForURL(new RegExp(`/payments/${paymentId}\\?`)), page.getByRole('link', { name: paymentId, exact: true }).click()]);
  t.pass('a payment id opens its payment');
  await page.goto(`${e.url}${D}/schedules`);
  await Promise.all([page.waitForURL(/\/schedules\/plan-ada\?/), page.getByRole('link', { name: 'plan-ada' }).click()]);
  t.match(await page.getByTestId('schedule').innerText(), /9\.00 USD weekly[\s\S]*active/);
  t.ok((await page.getByTestId('charges').locator('tbody tr').count()) >= 2, "the schedule's charges");
  await page.getByTestId('charges').getByRole('link').first().click();
  await page.getByRole('heading', { level: 1, name: /^Payment plan-ada-/ }).waitFor();
  t.equal(await page.getByRole('link', { name: 'plan-ada', exact: true }).count(), 1, 'a charge links back to its schedule');
  await page.goto(`${e.url}${D}/schedules/nope`);
  t.equal(await page.getByRole('heading', { level: 1, name: 'Schedule not found' }).count(), 1);
  await page.goto(`${e.url}${D}/invoices`);
  await Promise.all([page.waitForURL(/\/dashboard\/invoices\/inv_/), page.getByRole('link', { name: 'INV-000001' }).click()]);
  t.match(await page.getByTestId('invoice').innerText(), /Grace Hopper[\s\S]*450\.00 USD[\s\S]*2027-03-05/, 'an invoice number opens its page');
  t.equal(await page.getByTestId('items').locator('tbody tr').count(), 1, 'with its items');
  t.ok((await page.getByTestId('invoice-events').locator('tbody tr').count()) >= 3, 'and its events');
  await Promise.all([page.waitForURL(/\/invoices\/inv_\w+$/), page.getByRole('link', { name: /^\/invoices\/inv_/ }).click()]);
  t.pass('and a link to its hosted page');
  await page.goto(`${e.url}${D}/clock`);
  await page.getByLabel(/^By/).fill('7d');
  await Promise.all([page.waitForURL(/report=/), page.getByRole('button', { name: 'Advance' }).click()]);
  t.match(
    await page.getByTestId('ran').getByRole('link', { name: 'acme:test:plan-ada' }).getAttribute('href'),
    /\/schedules\/plan-ada\?/,
    'what the clock ran links to its record',
  );
});
