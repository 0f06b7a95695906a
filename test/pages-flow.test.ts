import type { Browser, Page, Response } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, openWithoutScript } from './helpers/browser.js';
import { emulator, type TestEmulator } from './helpers/emulator.js';

/**
 * The hosted pages a customer goes through, in a real headless Chromium with JavaScript off (the
 * pages must work without it): a recurring payment link says what the customer subscribes to,
 * the receipt says what was paid, the manage page shows the card and replaces it, and every form
 * post that succeeds answers 303 to a page (Post/Redirect/Get), so a reload shows the page again
 * without posting the form twice.
 */

let browser: Browser;

t.before(async () => {
  browser = await launchChromium();
});
t.teardown(() => browser?.close());

/** The first day of a 31-day month: the next monthly charge is clamped to February 28. */
const START = '2027-01-31T10:00:00Z';

/** A page with JavaScript off, recording the method of every document request it makes. */
async function open(t: Test, url: string): Promise<{ page: Page; posts: () => string[] }> {
  const { page, navigations } = await openWithoutScript(browser, t, url);
  return {
    page,
    posts: () =>
      navigations()
        .filter((r) => r.method() === 'POST')
        .map((r) => new URL(r.url()).pathname),
  };
}

/** Clicks a submit button; resolves with the final answer and the first one (a 303 when redirected). */
async function submit(page: Page, name: string | RegExp): Promise<{ landed: Response | null; first: { status: number; location?: string } }> {
  let first: { status: number; location?: string } | undefined;
  const onResponse = (response: Response) => {
    if (!first && response.request().method() === 'POST' && response.request().isNavigationRequest()) {
      first = { status: response.status(), ...(response.headers().location ? { location: response.headers().location } : {}) };
    }
  };
  page.on('response', onResponse);
  const [landed] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name }).click()]);
  page.off('response', onResponse);
  return { landed, first: first ?? { status: 0 } };
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').pressSequentially(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/40');
  await page.getByLabel('CVC').fill('123');
}

/** Reloads; returns the reload's answer and the posts made meanwhile (there must be none). */
async function reload(page: Page, posts: () => string[]): Promise<{ answer: Response | null; posted: string[] }> {
  const before = posts().length;
  const answer = await page.reload();
  return { answer, posted: posts().slice(before) };
}

async function schedule(e: TestEmulator, reference: string, card = '4242424242424242') {
  const session = (await e.api.post('/v1/sessions', { amount: 1, save_payment_method: true })).body.data;
  const pm = (await e.api.post(`/_payemu/sessions/${session.id}/complete`, { card_number: card })).body.payment.payment_method;
  return (await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference, start_date: '2099-01-01' })).body.data;
}

t.test('a recurring payment link says what the customer subscribes to, on its page, the checkout and the receipt', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const link = (await e.api.post('/v1/payment-links', { title: 'Coffee club', amount: 19, recurring: { frequency: 'monthly' } })).body.data;
  const { page, posts } = await open(t, link.links.pay);
  t.equal(await page.getByTestId('amount').innerText(), '19.00 USD every month');
  const terms = page.getByTestId('subscription');
  t.match(await terms.innerText(), /Subscription: 19\.00 USD every month/);
  t.match(await terms.innerText(), /First charge today \(2027-01-31\)\. Then 19\.00 USD on 2027-02-28 and every month after that, until you cancel\./);

  const opened = await submit(page, 'Continue to payment');
  t.equal(opened.first.status, 303, 'the link page redirects to the checkout it opened');
  t.match(page.url(), /\/checkout\/cs_\w+$/);
  t.equal(await page.getByTestId('amount').innerText(), '19.00 USD');
  t.match(
    await page.getByTestId('subscription').innerText(),
    /Subscription: 19\.00 USD every month[\s\S]*First charge today \(2027-01-31\)\. Then 19\.00 USD on 2027-02-28/,
    'the checkout states the subscription before the card',
  );
  const checkoutUrl = page.url();

  await fillCard(page, '4242 4242 4242 4242');
  const paid = await submit(page, 'Pay 19.00 USD and subscribe');
  t.equal(paid.first.status, 303, 'a paid checkout answers 303');
  t.equal(new URL(page.url()).pathname, `${new URL(checkoutUrl).pathname}/done`);
  t.equal(paid.landed?.status(), 200);
  await t.resolves(page.getByRole('heading', { name: 'Payment complete' }).waitFor());
  t.equal(await page.getByTestId('amount').innerText(), '19.00 USD', 'the receipt shows the amount and currency');
  t.match(await page.getByTestId('receipt').innerText(), /For\s+Coffee club/);
  t.match(await page.getByTestId('card').innerText(), 'Visa •••• 4242');
  t.match(await page.getByTestId('subscription').innerText(), /Subscription: 19\.00 USD every month\s+Next charge 2027-02-28\./);
  const schedules = (await e.api.get('/v1/recurring-payments')).body.data;
  t.equal(schedules.length, 1, 'one schedule started');

  const again = await reload(page, posts);
  t.equal(again.answer?.status(), 200);
  t.same(again.posted, [], 'the reload posted nothing');
  t.equal((await e.api.get('/v1/recurring-payments')).body.data.length, 1, 'and started nothing more');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 1, 'nor paid again');

  // The receipt links to the subscription's page.
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Manage your subscription' }).click()]);
  t.equal(page.url(), schedules[0].attributes.manage_url);
  t.equal(await page.getByTestId('card').innerText(), 'Visa •••• 4242');
});

t.test('a recurring link every 3 months with an end date, and one that ends before its second charge', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const quarterly = (
    await e.api.post('/v1/payment-links', {
      title: 'Box',
      amount: 45.5,
      currency: 'EUR',
      recurring: { frequency: 'monthly', interval_count: 3, end_date: '2028-01-01' },
    })
  ).body.data;
  const { page } = await open(t, quarterly.links.pay);
  t.match(
    await page.getByTestId('subscription').innerText(),
    /Subscription: 45\.50 EUR every 3 months[\s\S]*First charge today \(2027-01-31\)\. Then 45\.50 EUR on 2027-04-30 and every 3 months after that, until 2028-01-01 \(no charge on or after it\)\./,
  );
  await submit(page, 'Continue to payment');
  t.match(await page.getByTestId('subscription').innerText(), /every 3 months[\s\S]*until 2028-01-01/);

  const short = (await e.api.post('/v1/payment-links', { title: 'Trial', amount: 5, recurring: { frequency: 'yearly', end_date: '2027-06-01' } })).body.data;
  await page.goto(short.links.pay);
  t.match(
    await page.getByTestId('subscription').innerText(),
    /Subscription: 5\.00 USD every year[\s\S]*First charge today \(2027-01-31\)\. No later charge: the subscription ends on 2027-06-01\./,
  );

  const once = (await e.api.post('/v1/payment-links', { title: 'Once', amount: 5 })).body.data;
  await page.goto(once.links.pay);
  t.equal(await page.getByTestId('subscription').count(), 0, 'a one-off link says nothing of a subscription');
  await submit(page, 'Continue to payment');
  t.equal(await page.getByTestId('subscription').count(), 0, 'nor does its checkout');
  t.equal(await page.getByRole('button', { name: 'Pay 5.00 USD' }).count(), 1);
});

t.test('the receipt: amount, currency, reference and card; authorized too; a reload does not pay again', async (t) => {
  const e = await emulator(t);
  const session = (await e.api.post('/v1/sessions', { amount: 999999.99, currency: 'EUR', reference: 'order-receipt', description: 'Two blue mugs' })).body
    .data;
  const { page, posts } = await open(t, session.attributes.checkout_url);
  await fillCard(page, '5555 5555 5555 4444');
  const paid = await submit(page, /^Pay /);
  t.same(paid.first, { status: 303, location: `/checkout/${session.id}/done` });
  t.equal(await page.getByTestId('amount').innerText(), '999999.99 EUR');
  t.equal(await page.getByTestId('reference').innerText(), 'order-receipt');
  t.equal(await page.getByTestId('card').innerText(), 'Mastercard •••• 4444');
  t.match(await page.locator('main').innerText(), /Paid to Acme Store/);
  t.match(await page.getByTestId('receipt').innerText(), /For\s+Two blue mugs/);
  const again = await reload(page, posts);
  t.equal(again.answer?.status(), 200);
  t.same(again.posted, [], 'the reload is a GET');
  t.equal(await page.getByTestId('amount').innerText(), '999999.99 EUR');
  t.same(posts(), [`/checkout/${session.id}/pay`], 'the form was posted once');
  const payments = (await e.api.get('/v1/payments')).body.data;
  t.equal(payments.length, 1);

  const held = (await e.api.post('/v1/sessions', { amount: 10, reference: 'order-held', capture_method: 'manual' })).body.data;
  await page.goto(held.attributes.checkout_url);
  await fillCard(page, '4242 4242 4242 4242');
  await submit(page, /^Pay /);
  t.match(await page.locator('main').innerText(), /The payment was authorized[\s\S]*10\.00 USD[\s\S]*Authorized for Acme Store/);
  t.equal(await page.getByTestId('reference').innerText(), 'order-held');
});

t.test('the checkout keeps its error answers: 422 on a field, 402 on a decline, and the 303 to success_url', async (t) => {
  const e = await emulator(t);
  const session = (await e.api.post('/v1/sessions', { amount: 10, reference: 'order-errors', success_url: 'http://127.0.0.1:9/thanks' })).body.data;
  const { page } = await open(t, session.attributes.checkout_url);
  await page.getByLabel('Card number').pressSequentially('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('01/20');
  await page.getByLabel('CVC').fill('123');
  const invalid = await submit(page, /^Pay /);
  t.equal(invalid.first.status, 422, 'a field error is the form again');
  t.match(await page.getByRole('alert').allTextContents(), ['The expiry date is in the past.']);
  await page.getByLabel('Card number').fill('');
  await fillCard(page, '4000 0000 0000 0002');
  const declined = await submit(page, /^Pay /);
  t.equal(declined.first.status, 402, 'a decline is the form again with the reason');
  t.match(await page.getByTestId('decline').innerText(), /insufficient funds/i);
  // The redirect itself, without following it (nothing listens on port 9).
  const answer = await fetch(`${e.url}/checkout/${session.id}/pay`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: '4242424242424242', expiry: '12/40', cvc: '123' }).toString(),
  });
  t.equal(answer.status, 303);
  t.equal(answer.headers.get('location'), 'http://127.0.0.1:9/thanks');
});

t.test('the 3-D Secure challenge, the one page a post answers directly: a reload shows it again and records nothing', async (t) => {
  const e = await emulator(t);
  const session = (await e.api.post('/v1/sessions', { amount: 10, reference: 'order-3ds' })).body.data;
  const { page, posts } = await open(t, session.attributes.checkout_url);
  await fillCard(page, '4000 0027 6000 3184');
  const challenge = await submit(page, /^Pay /);
  t.equal(challenge.first.status, 200, 'the challenge carries the card in hidden fields: payemu keeps no card to redirect to');
  const again = await reload(page, posts);
  t.same(again.posted, [`/checkout/${session.id}/pay`], 'a reload posts the card again');
  await t.resolves(page.getByRole('heading', { name: '3-D Secure' }).waitFor());
  t.equal((await e.api.get('/v1/payments/order-3ds')).status, 404, 'and records nothing');
  const done = await submit(page, 'Complete authentication');
  t.equal(done.first.status, 303);
  t.equal(await page.getByTestId('reference').innerText(), 'order-3ds');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 1);
});

t.test('Cancel without a cancel_url redirects to a page; a reload does not post', async (t) => {
  const e = await emulator(t);
  const session = (await e.api.post('/v1/sessions', { amount: 10 })).body.data;
  const { page, posts } = await open(t, session.attributes.checkout_url);
  const cancelled = await submit(page, 'Cancel');
  t.same(cancelled.first, { status: 303, location: `/checkout/${session.id}/cancelled` });
  t.equal(cancelled.landed?.status(), 200);
  await t.resolves(page.getByRole('heading', { name: 'Payment cancelled' }).waitFor());
  const again = await reload(page, posts);
  t.equal(again.answer?.status(), 200);
  t.same(again.posted, []);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Return to the checkout' }).click()]);
  t.equal(await page.getByTestId('amount').innerText(), '10.00 USD', 'the checkout is still open');
});

t.test('the manage page shows the card and replaces it through a card-update page; cancel redirects', async (t) => {
  const e = await emulator(t);
  const created = await schedule(e, 'sub-card');
  const { page, posts } = await open(t, created.attributes.manage_url);
  t.equal(await page.getByTestId('card').innerText(), 'Visa •••• 4242');
  t.match(await page.locator('table').innerText(), /Billed\s+every month/);

  const update = await submit(page, 'Update card');
  t.equal(update.first.status, 303, 'Update card opens a payment-method session and redirects to its page');
  t.match(update.first.location, /^\/card-update\/cs_\w+$/);
  await t.resolves(page.getByRole('heading', { name: 'Update your card' }).waitFor());
  t.match(await page.getByTestId('card').innerText(), 'Card on file: Visa •••• 4242');
  const updateUrl = page.url();

  // A refused card shows the reason and the form again.
  await fillCard(page, '4000 0000 0000 0002');
  const refused = await submit(page, 'Save card');
  t.equal(refused.first.status, 402);
  t.match(await page.getByTestId('decline').innerText(), /insufficient funds/i);

  await page.getByLabel('Card number').fill('');
  await fillCard(page, '3782 822463 10005');
  await page.getByLabel('CVC').fill('1234');
  const saved = await submit(page, 'Save card');
  t.same(saved.first, { status: 303, location: `/manage/${created.attributes.manage_url.split('/manage/')[1]}?payment_method=updated` });
  t.match(await page.getByRole('status').innerText(), /Your new card is saved/);
  t.equal(await page.getByTestId('card').innerText(), 'American Express •••• 0005');
  const methods = (await e.api.get('/v1/recurring-payments/sub-card')).body.data.attributes.payment_method;
  t.not(methods, created.attributes.payment_method, 'the schedule charges the new card');
  const again = await reload(page, posts);
  t.same(again.posted, [], 'a reload does not post the card again');
  t.equal((await e.api.get('/v1/recurring-payments/sub-card')).body.data.attributes.payment_method, methods);
  await page.goto(updateUrl);
  await t.resolves(page.getByRole('heading', { name: 'Card updated' }).waitFor());
  t.equal(await page.getByTestId('card').innerText(), 'American Express •••• 0005');

  const events: string[] = [];
  e.bus.on('domain', (ev) => events.push(ev.name));
  await page.goto(created.attributes.manage_url);
  const cancelled = await submit(page, 'Cancel subscription');
  t.same(cancelled.first, { status: 303, location: `/manage/${created.attributes.manage_url.split('/manage/')[1]}` });
  t.equal(await page.getByTestId('status').innerText(), 'cancelled');
  t.match(await page.getByRole('status').innerText(), /cancelled: nothing more will be charged/);
  t.equal(await page.getByRole('button').count(), 0, 'no Update card or Cancel once cancelled');
  const after = await reload(page, posts);
  t.same(after.posted, [], 'a reload does not cancel again');
  t.match(await page.getByRole('status').innerText(), /cancelled: nothing more will be charged/);
  t.same(events, ['recurring.cancelled'], 'cancelled once');
});

t.test('a card update without success_url redirects to its own page; a reload does not save again', async (t) => {
  const e = await emulator(t);
  await schedule(e, 'sub-plain');
  const session = (await e.api.post('/v1/recurring-payments/sub-plain/payment-method-session', {})).body.data;
  const { page, posts } = await open(t, session.attributes.checkout_url);
  await fillCard(page, '5555 5555 5555 4444');
  const saved = await submit(page, 'Save card');
  t.same(saved.first, { status: 303, location: `/card-update/${session.id}` });
  await t.resolves(page.getByRole('heading', { name: 'Card updated' }).waitFor());
  t.equal(await page.getByTestId('card').innerText(), 'Mastercard •••• 4444');
  const method = (await e.api.get('/v1/recurring-payments/sub-plain')).body.data.attributes.payment_method;
  const again = await reload(page, posts);
  t.equal(again.answer?.status(), 200);
  t.same(again.posted, []);
  t.equal((await e.api.get('/v1/recurring-payments/sub-plain')).body.data.attributes.payment_method, method, 'the same card on file');
});

t.test('an invoice paid on its page redirects to it; a reload does not pay again', async (t) => {
  const e = await emulator(t);
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
  const { page, posts } = await open(t, invoice.attributes.payment_url);
  await fillCard(page, '4242 4242 4242 4242');
  const paid = await submit(page, /^Pay /);
  t.same(paid.first, { status: 303, location: `/invoices/${invoice.id}` });
  t.equal(await page.getByTestId('status').innerText(), 'paid');
  const again = await reload(page, posts);
  t.same(again.posted, []);
  t.equal((await e.api.get('/v1/payments')).body.data.length, 1, 'one payment');
});
