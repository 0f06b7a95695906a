import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Response } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, pageFor } from './helpers/browser.js';
import { emulator, type Client, type TestEmulator } from './helpers/emulator.js';

/**
 * The hosted checkout page in a real headless Chromium, driven the way a customer uses it:
 * labels, buttons, typed card numbers, and the pages the browser really lands on.
 */

let browser: Browser;
let shop: Server;
let shopUrl: string;

t.before(async () => {
  browser = await launchChromium();
  // The merchant's site: success_url and cancel_url point here, so the redirect target really loads.
  shop = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://shop').pathname;
    const title = path.startsWith('/success') ? 'Thanks for your order' : path.startsWith('/cancel') ? 'Order cancelled' : 'Shop';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
    res.end(`<!doctype html><title>${title}</title><h1>${title}</h1>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});

t.teardown(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

interface Checkout {
  e: TestEmulator;
  page: Page;
  id: string;
  reference: string;
  checkoutUrl: string;
  /** The first load of the checkout page. */
  response: Response;
}

let counter = 0;

/** A new emulator, a session on it, and a browser page of the test's (pageFor) showing its checkout page. */
async function openCheckout(t: Test, body: Record<string, unknown> = {}): Promise<Checkout> {
  const e = await emulator(t);
  return openSession(t, e, body);
}

async function openSession(t: Test, e: TestEmulator, body: Record<string, unknown> = {}, as: Client = e.api): Promise<Checkout> {
  const reference = `order_${++counter}`;
  const created = await as.post('/v1/sessions', {
    amount: 10.5,
    reference,
    success_url: `${shopUrl}/success?order=${reference}`,
    cancel_url: `${shopUrl}/cancel?order=${reference}`,
    description: 'Two blue mugs',
    ...body,
  });
  if (created.status !== 201) throw new Error(`session not created: ${created.text}`);
  const page = await pageFor(browser, t);
  const checkoutUrl: string = created.body.data.attributes.checkout_url;
  const response = await page.goto(checkoutUrl);
  t.ok(response, 'the checkout page answered');
  return { e, page, id: created.body.data.id, reference: created.body.data.attributes.reference, checkoutUrl, response: response! };
}

/** MM/YY two years after the virtual clock's now. */
function futureExpiry(e: TestEmulator): string {
  const now = new Date(e.clock.now());
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
}

/** MM/YY of the month before the virtual clock's now. */
function pastExpiry(e: TestEmulator): string {
  const now = new Date(e.clock.now());
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${String(previous.getUTCMonth() + 1).padStart(2, '0')}/${String(previous.getUTCFullYear() % 100).padStart(2, '0')}`;
}

/** Types the card details like a customer (the number with its spaces). */
async function fillCard(page: Page, card: { number: string; expiry: string; cvc?: string; name?: string }): Promise<void> {
  const number = page.getByLabel('Card number');
  await number.fill('');
  await number.pressSequentially(card.number);
  await page.getByLabel('Expiry (MM/YY)').fill(card.expiry);
  await page.getByLabel('CVC').fill(card.cvc ?? '123');
  if (card.name !== undefined) await page.getByLabel(/Name on card/).fill(card.name);
}

/** Clicks a button that submits a form and resolves with the document the browser ends on. */
async function submit(page: Page, name: string | RegExp): Promise<Response | null> {
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name }).click()]);
  return response;
}

const payButton = /^Pay /;

t.test('paying with 4242 4242 4242 4242 lands on success_url and the payment is PAID', async (t) => {
  const { e, page, reference, checkoutUrl } = await openCheckout(t);
  await fillCard(page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e), cvc: '314', name: 'Ada Lovelace' });
  t.equal(await page.getByLabel('Card number').inputValue(), '4242 4242 4242 4242', 'the number was typed with its spaces');
  const landed = await submit(page, payButton);
  t.equal(landed?.status(), 200);
  t.equal(page.url(), `${shopUrl}/success?order=${reference}`, 'the browser is on success_url');
  await t.resolves(page.getByRole('heading', { name: 'Thanks for your order' }).waitFor());

  const payment = await e.api.get(`/v1/payments/${reference}`);
  t.equal(payment.status, 200);
  t.match(payment.body.data.attributes, { status: 'PAID', paid: true, card_last: '4242', card_brand: 'visa', amount: '10.50', failure_code: null });

  // Coming back to the checkout shows that it is paid, not the form again.
  const again = await page.goto(checkoutUrl);
  t.equal(again?.status(), 200);
  await t.resolves(page.getByRole('heading', { name: 'Payment complete' }).waitFor());
  t.equal(await page.getByLabel('Card number').count(), 0, 'no card form on a paid checkout');
});

t.test('a session without success_url ends on the payment-complete page', async (t) => {
  const { e, page, id } = await openCheckout(t, { success_url: undefined });
  await fillCard(page, { number: '5555 5555 5555 4444', expiry: futureExpiry(e) });
  const landed = await submit(page, payButton);
  t.equal(landed?.status(), 200);
  t.equal(new URL(page.url()).pathname, `/checkout/${id}/done`);
  await t.resolves(page.getByRole('heading', { name: 'Payment complete' }).waitFor());
  t.match(await page.textContent('main'), /your payment was received/);
});

t.test('a declined card shows the reason, and the customer can retry with another card', async (t) => {
  const { e, page, id, reference } = await openCheckout(t);
  await fillCard(page, { number: '4000 0000 0000 0002', expiry: futureExpiry(e) });
  const declined = await submit(page, payButton);
  t.equal(declined?.status(), 402);
  const decline = page.getByTestId('decline');
  await t.resolves(decline.waitFor());
  t.match(await decline.textContent(), /insufficient funds/i);
  t.equal(await page.getByLabel('Card number').inputValue(), '', 'the declined number is not kept');

  const failed = await e.api.get(`/v1/payments/${reference}`);
  t.equal(failed.status, 200);
  t.match(failed.body.data.attributes, { status: 'FAILED', paid: false, failure_code: 'insufficient_funds', card_last: '0002' });
  const session = await e.api.get(`/v1/sessions/${id}`);
  t.match(session.body.data.attributes, { status: 'open', payment_status: 'failed' }, 'the session stays open for another try');

  await fillCard(page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e) });
  await submit(page, payButton);
  t.equal(page.url(), `${shopUrl}/success?order=${reference}`);
  const paid = await e.api.get(`/v1/payments/${reference}`);
  t.match(paid.body.data.attributes, { status: 'PAID', paid: true, card_last: '4242', card_brand: 'visa', failure_code: null });
});

t.test('a past expiry or a bad CVC is an error on the field and records nothing', async (t) => {
  const { e, page, reference, id } = await openCheckout(t);

  await fillCard(page, { number: '4242 4242 4242 4242', expiry: pastExpiry(e), cvc: '123' });
  let answer = await submit(page, payButton);
  t.equal(answer?.status(), 422);
  const expiry = page.getByLabel('Expiry (MM/YY)');
  t.equal(await expiry.getAttribute('aria-invalid'), 'true', 'the expiry field is marked invalid');
  t.match(await page.getByRole('alert').allTextContents(), ['The expiry date is in the past.']);
  t.equal(
    await page.locator(`#${await expiry.getAttribute('aria-describedby')}`).textContent(),
    'The expiry date is in the past.',
    'the error describes the field',
  );
  t.equal(await page.locator(':focus').getAttribute('id'), 'expiry', 'the cursor is on the field to correct');
  t.equal(await page.getByLabel('CVC').getAttribute('aria-invalid'), 'false');
  t.equal(await page.getByLabel('Card number').inputValue(), '4242 4242 4242 4242', 'what was typed is kept');
  t.equal((await e.api.get(`/v1/payments/${reference}`)).status, 404, 'no payment recorded');

  await fillCard(page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e), cvc: '12' });
  answer = await submit(page, payButton);
  t.equal(answer?.status(), 422);
  t.equal(await page.getByLabel('CVC').getAttribute('aria-invalid'), 'true', 'the CVC field is marked invalid');
  t.equal(await expiry.getAttribute('aria-invalid'), 'false');
  t.match(await page.getByRole('alert').allTextContents(), ['Enter the 3-digit security code.']);
  t.equal(await page.locator(':focus').getAttribute('id'), 'cvc');
  t.equal((await e.api.get(`/v1/payments/${reference}`)).status, 404, 'still no payment recorded');

  const session = await e.api.get(`/v1/sessions/${id}`);
  t.match(session.body.data.attributes, { status: 'open', payment_status: 'unpaid' });
});

t.test('3-D Secure: completing the challenge pays, failing it declines', async (t) => {
  const e = await emulator(t);
  const passing = await openSession(t, e);
  await fillCard(passing.page, { number: '4000 0027 6000 3184', expiry: futureExpiry(e) });
  const challenge = await submit(passing.page, payButton);
  t.equal(challenge?.status(), 200);
  await t.resolves(passing.page.getByRole('heading', { name: '3-D Secure' }).waitFor());
  t.match(await passing.page.textContent('main'), /10\.50 USD/);
  t.equal((await e.api.get(`/v1/payments/${passing.reference}`)).status, 404, 'nothing recorded while the challenge is open');
  await submit(passing.page, 'Complete authentication');
  t.equal(passing.page.url(), `${shopUrl}/success?order=${passing.reference}`);
  const paid = await e.api.get(`/v1/payments/${passing.reference}`);
  t.match(paid.body.data.attributes, { status: 'PAID', card_last: '3184', card_brand: 'visa' });

  const failing = await openSession(t, e);
  await fillCard(failing.page, { number: '4000 0027 6000 3184', expiry: futureExpiry(e) });
  await submit(failing.page, payButton);
  const declined = await submit(failing.page, 'Fail authentication');
  t.equal(declined?.status(), 402);
  const decline = failing.page.getByTestId('decline');
  await t.resolves(decline.waitFor());
  t.match(await decline.textContent(), /3-D Secure authentication of your card failed/);
  const failed = await e.api.get(`/v1/payments/${failing.reference}`);
  t.match(failed.body.data.attributes, { status: 'FAILED', failure_code: 'authentication_failed', card_last: '3184' });
  // The form is there for another try, and it still works.
  await fillCard(failing.page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e) });
  await submit(failing.page, payButton);
  t.equal(failing.page.url(), `${shopUrl}/success?order=${failing.reference}`);
});

t.test('Cancel lands on cancel_url and leaves the session open', async (t) => {
  const { e, page, id, reference, checkoutUrl } = await openCheckout(t);
  const landed = await submit(page, 'Cancel');
  t.equal(landed?.status(), 200);
  t.equal(page.url(), `${shopUrl}/cancel?order=${reference}`);
  await t.resolves(page.getByRole('heading', { name: 'Order cancelled' }).waitFor());
  const session = await e.api.get(`/v1/sessions/${id}`);
  t.match(session.body.data.attributes, { status: 'open', payment_status: 'unpaid' });
  t.equal((await e.api.get(`/v1/payments/${reference}`)).status, 404);
  // The customer can change their mind: the checkout still takes the payment.
  await page.goto(checkoutUrl);
  await fillCard(page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e) });
  await submit(page, payButton);
  t.equal(page.url(), `${shopUrl}/success?order=${reference}`);
});

t.test('the page shows the amount and the description, escaped', async (t) => {
  const description = '<script>alert("xss")</script> & "mugs" <b>bold</b>';
  const { page, response } = await openCheckout(t, { amount: 1234.5, description });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  t.equal(response.status(), 200);
  t.equal(await page.getByTestId('amount').textContent(), '1234.50 USD');
  t.match(await page.getByRole('button', { name: payButton }).textContent(), /1234\.50 USD/);
  t.equal(await page.locator('.description').textContent(), description, 'the description shows as text');
  t.equal(await page.locator('script').count(), 0, 'no script element was injected');
  t.equal(await page.locator('main b').count(), 0, 'no markup was injected');
  await page.reload();
  t.same(dialogs, [], 'no script ran');
  t.match(await page.title(), /Acme Store/);
});

t.test('after 25 hours the checkout has expired (410)', async (t) => {
  const { e, page, checkoutUrl } = await openCheckout(t);
  await e.clock.advance('25h');
  const response = await page.goto(checkoutUrl);
  t.equal(response?.status(), 410);
  await t.resolves(page.getByRole('heading', { name: 'This checkout has expired' }).waitFor());
  t.equal(await page.getByLabel('Card number').count(), 0, 'no card form on an expired checkout');
});

t.test('an expired checkout refuses a form that was still open in the browser', async (t) => {
  const { e, page, reference } = await openCheckout(t);
  await fillCard(page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e) });
  await e.clock.advance('25h');
  const response = await submit(page, payButton);
  t.equal(response?.status(), 410);
  await t.resolves(page.getByRole('heading', { name: 'This checkout has expired' }).waitFor());
  t.equal((await e.api.get(`/v1/payments/${reference}`)).status, 404, 'nothing recorded');
});

t.test('a manual-capture checkout paid on the page leaves the payment AUTHORIZED', async (t) => {
  const { e, page, id, reference } = await openCheckout(t, { capture_method: 'manual' });
  await fillCard(page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e) });
  await submit(page, payButton);
  t.equal(page.url(), `${shopUrl}/success?order=${reference}`);
  const payment = await e.api.get(`/v1/payments/${reference}`);
  t.match(payment.body.data.attributes, { status: 'AUTHORIZED', paid: false, capture_method: 'manual', card_last: '4242', captured_at: null });
  const session = await e.api.get(`/v1/sessions/${id}`);
  t.match(session.body.data.attributes, { status: 'complete', payment_status: 'authorized' });
});

t.test('a live-mode checkout refuses the test cards and takes a real-looking card', async (t) => {
  const e = await emulator(t);
  const { page, reference } = await openSession(t, e, {}, e.live);
  await t.resolves(page.getByText('Live mode').waitFor());
  t.equal(await page.getByText('Test cards').count(), 0, 'no test-card help in live mode');
  await fillCard(page, { number: '4242 4242 4242 4242', expiry: futureExpiry(e) });
  const declined = await submit(page, payButton);
  t.equal(declined?.status(), 402);
  t.match(await page.getByTestId('decline').textContent(), /test card was used in live mode/);
  t.match((await e.live.get(`/v1/payments/${reference}`)).body.data.attributes, { status: 'FAILED', failure_code: 'card_declined' });
  t.equal((await e.api.get(`/v1/payments/${reference}`)).status, 404, 'test mode does not see the live payment');

  await fillCard(page, { number: '4111 1111 1111 1111', expiry: futureExpiry(e) });
  await submit(page, payButton);
  t.equal(page.url(), `${shopUrl}/success?order=${reference}`);
  t.match((await e.live.get(`/v1/payments/${reference}`)).body.data.attributes, { status: 'PAID', card_last: '1111', card_brand: 'visa' });
});

t.test('screenshot of the checkout form', async (t) => {
  const { e, page } = await openCheckout(t);
  await page.setViewportSize({ width: 520, height: 900 });
  await fillCard(page, { number: '4000 0000 0000 0002', expiry: futureExpiry(e) });
  await submit(page, payButton);
  await page.screenshot({ path: '/tmp/checkout.png', fullPage: true });
  t.pass('saved /tmp/checkout.png');
});
