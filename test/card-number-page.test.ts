import type { Browser, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, pageFor } from './helpers/browser.js';
import { emulator, type TestEmulator } from './helpers/emulator.js';

/**
 * A mistyped card number on a hosted page is an error on the card-number field, shown before
 * any payment attempt: nothing is recorded and no event is raised. In a real Chromium for the
 * checkout, and as plain form posts for the other pages that take a card.
 */

let browser: Browser;

t.before(async () => {
  browser = await launchChromium();
});

t.teardown(async () => {
  await browser?.close();
});

/** MM/YY two years after the virtual clock's now. */
function futureExpiry(e: TestEmulator): string {
  const now = new Date(e.clock.now());
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
}

const newPage = (t: Test): Promise<Page> => pageFor(browser, t);

async function submit(page: Page, name: RegExp) {
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name }).click()]);
  return response;
}

/** Posts a hosted page's form the way a browser without JavaScript does. */
async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}

const TYPO_MESSAGE = /card number is not valid/i;

t.test('checkout: typing 4242 4242 4242 4241 shows the error on the card-number field; nothing is paid', async (t) => {
  const e = await emulator(t);
  for (const as of [e.api, e.live]) {
    const reference = `typo-${as === e.api ? 'test' : 'live'}`;
    const created = await as.post('/v1/sessions', { amount: 10.5, reference, success_url: 'https://shop.example/success' });
    t.equal(created.status, 201);
    const page = await newPage(t);
    await page.goto(created.body.data.attributes.checkout_url);
    const number = page.getByLabel('Card number');
    await number.pressSequentially('4242 4242 4242 4241');
    await page.getByLabel('Expiry (MM/YY)').fill(futureExpiry(e));
    await page.getByLabel('CVC').fill('123');
    const answer = await submit(page, /^Pay /);
    t.equal(answer?.status(), 422, 'the form again, as a 422');
    t.equal(await number.getAttribute('aria-invalid'), 'true', 'the card-number field is marked invalid');
    const error = page.locator(`#${await number.getAttribute('aria-describedby')}`);
    t.match(await error.textContent(), TYPO_MESSAGE, 'the error describes the field');
    t.match(await page.getByRole('alert').allTextContents(), [TYPO_MESSAGE], 'one alert, about the number');
    t.equal(await page.locator(':focus').getAttribute('id'), 'card_number', 'the cursor is on the number to correct');
    t.equal(await number.inputValue(), '4242 4242 4242 4241', 'what was typed is kept, to be corrected');
    t.equal(await page.getByTestId('decline').count(), 0, 'not shown as a decline');
    t.equal((await as.get(`/v1/payments/${reference}`)).status, 404, 'no payment');
    t.match((await as.get(`/v1/sessions/${created.body.data.id}`)).body.data.attributes, { status: 'open', payment_status: 'unpaid' });
  }
  t.same((await e.api.get('/_payemu/events')).body.events, [], 'no event (test)');
  t.same((await e.live.get('/_payemu/events')).body.events, [], 'no event (live)');

  // The customer corrects the number and pays.
  const created = await e.api.post('/v1/sessions', { amount: 10.5, reference: 'fixed' });
  const page = await newPage(t);
  await page.goto(created.body.data.attributes.checkout_url);
  await page.getByLabel('Card number').pressSequentially('4242 4242 4242 4241');
  await page.getByLabel('Expiry (MM/YY)').fill(futureExpiry(e));
  await page.getByLabel('CVC').fill('123');
  t.equal((await submit(page, /^Pay /))?.status(), 422);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  t.equal((await submit(page, /^Pay /))?.status(), 200);
  t.equal((await e.api.get('/v1/payments/fixed')).body.data.attributes.status, 'PAID');
});

t.test('the 3-D Secure post, the invoice page and the card-update page refuse a mistyped number on the form', async (t) => {
  const e = await emulator(t);
  const expiry = futureExpiry(e);
  const card = (number: string, extra: Record<string, string> = {}) => ({ card_number: number, expiry, cvc: '123', name: '', ...extra });

  // Everything to pay first; then the event log must not move.
  const session = await e.api.post('/v1/sessions', { amount: 10, reference: 'three-ds' });
  const id = session.body.data.id;
  const invoice = await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    currency: 'USD',
    due_date: '2099-01-01',
    items: [{ description: 'Mug', quantity: 1, unit_price: 12 }],
  });
  await e.api.post(`/v1/invoices/${invoice.body.data.id}/send`, {});
  const saved = await e.api.post('/v1/sessions', { amount: 1, save_payment_method: true });
  const paid = await e.api.post(`/_payemu/sessions/${saved.body.data.id}/complete`, { card_number: '4242424242424242' });
  await e.api.post('/v1/recurring-payments', { payment_method: paid.body.payment.payment_method, amount: 5, frequency: 'monthly', reference: 'sub' });
  const update = await e.api.post('/v1/recurring-payments/sub/payment-method-session', { cancel_url: 'https://shop.example/back' });
  const events = async () => (await e.api.get('/_payemu/events')).body.events.map((ev: { id: string }) => ev.id);
  const before = await events();

  const checkout = await postForm(`${e.url}/checkout/${id}/pay`, card('4000 0027 6000 3185'));
  t.equal(checkout.status, 422, 'a mistyped 3-D Secure card gets no challenge');
  t.match(checkout.html, TYPO_MESSAGE);
  const challenge = await postForm(`${e.url}/checkout/${id}/3ds`, card('4000 0027 6000 3185', { three_ds: 'pass' }));
  t.equal(challenge.status, 422, 'nor can the challenge post carry one');
  t.match(challenge.html, TYPO_MESSAGE);
  t.equal((await e.api.get('/v1/payments/three-ds')).status, 404);

  const invoicePage = await postForm(`${e.url}/invoices/${invoice.body.data.id}/pay`, card('4242 4242 4242 4241'));
  t.equal(invoicePage.status, 422);
  t.match(invoicePage.html, TYPO_MESSAGE);
  t.match(invoicePage.html, /aria-invalid="true" aria-describedby="card_number-error"/);
  t.equal((await e.api.get(`/v1/invoices/${invoice.body.data.id}`)).body.data.attributes.status, 'sent');

  const updatePage = await postForm(`${e.url}/card-update/${update.body.data.id}`, card('5555 5555 5555 4445'));
  t.equal(updatePage.status, 422, 'the form again, not a redirect to cancel_url');
  t.match(updatePage.html, TYPO_MESSAGE);
  t.equal((await e.api.get('/v1/recurring-payments/sub')).body.data.attributes.payment_method, paid.body.payment.payment_method);

  t.same(await events(), before, 'no event');
});
