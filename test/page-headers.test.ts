import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Response } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, pageFor } from './helpers/browser.js';
import { emulator, type TestEmulator } from './helpers/emulator.js';

/**
 * The security headers of the hosted pages, in a real headless Chromium: every page (checkout,
 * 3-D Secure challenge, payment link, invoice, card update, manage, and their error pages) sends
 * a Content-Security-Policy, nosniff and no-referrer; Chromium reports no violation of the policy
 * on any of them (the pages' own styles apply); a page cannot be framed; and the checkout's
 * redirect to a success_url on another origin still lands there.
 */

let browser: Browser;
let shop: Server;
let shopUrl: string;
/** The headers of each request the shop received, in order. */
const shopRequests: { path: string; headers: IncomingHttpHeaders }[] = [];

t.before(async () => {
  browser = await launchChromium();
  // The merchant's site, another origin: success_url points here, and /frame frames a page.
  shop = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    shopRequests.push({ path: url.pathname, headers: req.headers });
    const body =
      url.pathname === '/frame'
        ? `<!doctype html><title>Framing</title><iframe src="${url.searchParams.get('src') ?? ''}"></iframe>`
        : `<!doctype html><title>Thanks for your order</title><h1>Thanks for your order</h1>`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
    res.end(body);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});

t.teardown(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

/** A browser page that records every Content-Security-Policy violation Chromium reports. */
async function newPage(t: Test): Promise<{ page: Page; violations: string[] }> {
  const page = await pageFor(browser, t);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return { page, violations };
}

/** Asserts the headers of a hosted page's answer. */
function assertPageHeaders(t: Test, response: Response | null, what: string): void {
  t.ok(response, `${what}: answered`);
  const headers = response!.headers();
  t.match(headers['content-type'], /^text\/html/, `${what}: HTML`);
  const csp = headers['content-security-policy'] ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
  t.equal(directives.get('default-src'), "'self'", `${what}: default-src 'self'`);
  t.equal(directives.get('script-src'), "'self'", `${what}: scripts only from payemu itself`);
  t.equal(directives.get('frame-ancestors'), "'none'", `${what}: no framing`);
  t.equal(directives.get('base-uri'), "'none'", `${what}: base-uri 'none'`);
  t.equal(directives.get('object-src'), "'none'", `${what}: object-src 'none'`);
  t.notOk(directives.has('form-action'), `${what}: no form-action (it would block the redirect to success_url)`);
  t.equal(headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  t.equal(headers['referrer-policy'], 'no-referrer', `${what}: no-referrer`);
}

/** Clicks a button that submits a form; resolves with the document the browser ends on. */
async function submit(page: Page, name: string | RegExp): Promise<Response | null> {
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name }).click()]);
  return response;
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').pressSequentially(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/40');
  await page.getByLabel('CVC').fill('123');
}

/** The page's stylesheet applied (a CSP that blocked the inline <style> would leave it unstyled). */
async function styled(page: Page): Promise<boolean> {
  return (await page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")) === '440px';
}

async function session(e: TestEmulator, reference: string) {
  const created = await e.api.post('/v1/sessions', {
    amount: 10.5,
    reference,
    success_url: `${shopUrl}/success?order=${reference}`,
    cancel_url: `${shopUrl}/cancel`,
  });
  if (created.status !== 201) throw new Error(created.text);
  return created.body.data;
}

t.test('checkout: headers on the form, the 3-D Secure page and a decline; the redirect to success_url on another origin works', async (t) => {
  const e = await emulator(t);
  const { page, violations } = await newPage(t);

  const paid = await session(e, 'order_plain');
  assertPageHeaders(t, await page.goto(paid.attributes.checkout_url), 'checkout form');
  t.ok(await styled(page), 'the checkout is styled');
  await fillCard(page, '4000 0000 0000 0002');
  const declined = await submit(page, /^Pay /);
  t.equal(declined?.status(), 402);
  assertPageHeaders(t, declined, 'checkout decline');
  await fillCard(page, '4242 4242 4242 4242');
  const landed = await submit(page, /^Pay /);
  t.equal(landed?.status(), 200, 'the shop answered');
  t.equal(page.url(), `${shopUrl}/success?order=order_plain`, 'the browser is on the success_url, another origin');
  t.equal(await page.getByRole('heading').innerText(), 'Thanks for your order');
  const arrival = shopRequests.find((r) => r.path === '/success');
  t.ok(arrival, 'the shop got the request for /success');
  t.equal(arrival?.headers.referer, undefined, `no Referer went to the shop (no-referrer): ${arrival?.headers.referer}`);
  t.equal((await e.api.get('/v1/payments/order_plain')).body.data.attributes.status, 'PAID');

  const challenged = await session(e, 'order_3ds');
  await page.goto(challenged.attributes.checkout_url);
  await fillCard(page, '4000 0027 6000 3184');
  const challenge = await submit(page, /^Pay /);
  assertPageHeaders(t, challenge, '3-D Secure challenge');
  await page.getByRole('heading', { name: '3-D Secure' }).waitFor();
  t.ok(await styled(page), 'the challenge is styled');
  await submit(page, 'Complete authentication');
  t.equal(page.url(), `${shopUrl}/success?order=order_3ds`, 'after the challenge too');

  assertPageHeaders(t, await page.goto(`${e.url}/checkout/${paid.id}`), 'a paid checkout');
  assertPageHeaders(t, await page.goto(`${e.url}/checkout/cs_nothing_here`), 'an unknown checkout (404)');
  t.same(violations, [], 'Chromium reported no policy violation');
});

t.test('invoice, payment link, card update and manage pages send the headers', async (t) => {
  const e = await emulator(t);
  const { page, violations } = await newPage(t);

  const invoice = (
    await e.api.post('/v1/invoices', {
      customer_name: 'Ada',
      customer_email: 'ada@example.com',
      currency: 'USD',
      due_date: '2099-01-01',
      items: [{ description: 'Tune-up', quantity: 1, unit_price: 5 }],
    })
  ).body.data;
  await e.api.post(`/v1/invoices/${invoice.id}/send`);
  assertPageHeaders(t, await page.goto(invoice.attributes.payment_url), 'invoice');
  t.ok(await styled(page), 'the invoice is styled');
  t.equal(
    await page
      .getByTestId('total')
      .evaluate((cell) => (globalThis as unknown as { getComputedStyle(e: unknown): { textAlign: string } }).getComputedStyle(cell).textAlign),
    'right',
    "the table cells' style attributes apply",
  );
  await fillCard(page, '4242 4242 4242 4242');
  assertPageHeaders(t, await submit(page, /^Pay /), 'invoice paid');

  const link = (await e.api.post('/v1/payment-links', { title: 'Bundle', products: [{ id: 1, quantity: 2 }] })).body.data;
  assertPageHeaders(t, await page.goto(link.links.pay), 'payment link');
  t.ok(await styled(page), 'the payment link is styled');
  const checkout = await submit(page, 'Continue to payment');
  assertPageHeaders(t, checkout, 'the checkout a payment link leads to');

  const saved = (await e.api.post('/v1/sessions', { amount: 1, save_payment_method: true })).body.data;
  const pm = (await e.api.post(`/_payemu/sessions/${saved.id}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method;
  const schedule = (
    await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference: 'sub-1', start_date: '2099-01-01' })
  ).body.data;
  const update = (await e.api.post('/v1/recurring-payments/sub-1/payment-method-session', {})).body.data;
  assertPageHeaders(t, await page.goto(update.attributes.checkout_url), 'card update');
  await fillCard(page, '4000 0027 6000 3184');
  assertPageHeaders(t, await submit(page, 'Save card'), 'card update 3-D Secure challenge');
  assertPageHeaders(t, await submit(page, 'Complete authentication'), 'card updated');

  assertPageHeaders(t, await page.goto(schedule.attributes.manage_url), 'manage');
  t.ok(await styled(page), 'the manage page is styled');
  assertPageHeaders(t, await submit(page, 'Cancel subscription'), 'manage, cancelled');
  assertPageHeaders(t, await page.goto(`${e.url}/manage/no-such-token`), 'an unknown manage page (404)');
  t.same(violations, [], 'Chromium reported no policy violation');
});

t.test('the pages a form post redirects to (receipt, cancelled, manage, card update) send the headers and are styled', async (t) => {
  const e = await emulator(t);
  const { page, violations } = await newPage(t);

  const link = (await e.api.post('/v1/payment-links', { title: 'Club', amount: 19, recurring: { frequency: 'monthly' } })).body.data;
  await page.goto(link.links.pay);
  const checkout = await submit(page, 'Continue to payment');
  assertPageHeaders(t, checkout, 'a recurring link checkout');
  t.ok(await styled(page), 'the checkout with its subscription terms is styled');
  await fillCard(page, '4242 4242 4242 4242');
  const receipt = await submit(page, /^Pay /);
  assertPageHeaders(t, receipt, 'the receipt');
  t.ok(await styled(page), 'the receipt is styled');
  await page.getByRole('link', { name: 'Manage your subscription' }).click();
  await page.getByRole('heading', { name: 'Your subscription' }).waitFor();
  const update = await submit(page, 'Update card');
  assertPageHeaders(t, update, 'card update from the manage page');
  await fillCard(page, '5555 5555 5555 4444');
  assertPageHeaders(t, await submit(page, 'Save card'), 'the manage page after a card update');
  t.ok(await styled(page), 'the manage page is styled');

  const open = (await e.api.post('/v1/sessions', { amount: 10 })).body.data;
  await page.goto(open.attributes.checkout_url);
  assertPageHeaders(t, await submit(page, 'Cancel'), 'payment cancelled');
  t.ok(await styled(page), 'the cancelled page is styled');
  t.same(violations, [], 'Chromium reported no policy violation');
});

t.test('a hosted page cannot be framed by another site', async (t) => {
  const e = await emulator(t);
  const { page, violations } = await newPage(t);
  const framed = await session(e, 'order_framed');
  const blocked = new Promise<string>((resolve) => page.on('console', (m) => /frame-ancestors/.test(m.text()) && resolve('blocked')));
  await page.goto(`${shopUrl}/frame?src=${encodeURIComponent(framed.attributes.checkout_url)}`);
  const shown = page
    .frameLocator('iframe')
    .getByTestId('amount')
    .waitFor()
    .then(
      () => 'shown',
      () => 'gone',
    );
  t.equal(await Promise.race([blocked, shown]), 'blocked', 'Chromium refused to show it in the frame');
  t.match(violations.join('\n'), /frame-ancestors 'none'/, "the reason: frame-ancestors 'none'");
  const frame = page.frames().find((f) => f !== page.mainFrame());
  t.ok(frame, 'the iframe exists');
  t.equal(await frame!.locator('[data-testid=amount]').count(), 0, 'and shows nothing of the checkout');
});

t.test('JSON answers are sent with nosniff', async (t) => {
  const e = await emulator(t);
  const me = await e.api.get('/v1/me');
  t.equal(me.headers.get('x-content-type-options'), 'nosniff');
  const refused = await e.anon.get('/v1/me');
  t.equal(refused.status, 401);
  t.equal(refused.headers.get('x-content-type-options'), 'nosniff', 'errors too');
});
