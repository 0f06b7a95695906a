import type { Browser, Page, Response } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, openWithoutScript } from '../helpers/browser.js';
import { client, emulator, type Client, type TestEmulator } from '../helpers/emulator.js';
import { sentInvoice } from '../helpers/invoice.js';

// Section: a named namespace's hosted pages are under /~NAME/, and every form, link and redirect
// on them stays there; a page never makes a namespace, and one of another namespace is not found.

const KEY = 'sk_test_payemu_acme';

let browser: Browser;

t.before(async () => {
  browser = await launchChromium();
});
t.teardown(() => browser?.close());

/** A page with JavaScript off (the pages work without it), recording the path of every document request. */
async function open(t: Test, url: string): Promise<{ page: Page; paths: () => string[] }> {
  const { page, navigations } = await openWithoutScript(browser, t, url);
  return { page, paths: () => navigations().map((r) => `${r.method()} ${new URL(r.url()).pathname}`) };
}

/** Clicks a submit button; resolves with the answer the browser lands on and the post's own answer (a 303 when redirected). */
async function submit(page: Page, name: string | RegExp): Promise<{ landed: Response | null; first: { status: number; location?: string } }> {
  const [posted, landed] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === 'POST' && response.request().isNavigationRequest()),
    page.waitForNavigation(),
    page.getByRole('button', { name }).click(),
  ]);
  const location = posted.headers().location;
  return { landed, first: location === undefined ? { status: posted.status() } : { status: posted.status(), location } };
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill('');
  await page.getByLabel('Card number').pressSequentially(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/40');
  await page.getByLabel('CVC').fill('123');
}

/** Every form action and link of the page, as written. */
async function targets(page: Page): Promise<string[]> {
  const of = async (selector: string, name: string) => Promise.all((await page.locator(selector).all()).map(async (el) => (await el.getAttribute(name)) ?? ''));
  return [...(await of('form', 'action')), ...(await of('a', 'href'))];
}

/** Posts a form without following the redirect: its status and Location. */
async function post(url: string, form: Record<string, string> = {}): Promise<{ status: number; location: string | null }> {
  const answer = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  await answer.text();
  return { status: answer.status, location: answer.headers.get('location') };
}

async function namespaceNames(e: TestEmulator): Promise<string[]> {
  return (await e.api.get('/_payemu/namespaces')).body.namespaces.map((n: { name: string }) => n.name);
}

const CARD = { card_number: '4242424242424242', expiry: '12/40', cvc: '123' };

async function schedule(as: Client, reference: string) {
  const session = (await as.post('/v1/sessions', { amount: 1, save_payment_method: true })).body.data;
  const pm = (await as.post(`/_payemu/sessions/${session.id}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method;
  const created = await as.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference, start_date: '2099-01-01' });
  if (created.status !== 201) throw new Error(`schedule not created: ${created.text}`);
  return created.body.data;
}

t.test("a checkout made in ~w3 is paid on its pages under /~w3/: a decline, 3-D Secure; the payment is w3's", async (t) => {
  const e = await emulator(t);
  const w3 = client(e.url, `${KEY}~w3`);
  const session = (await w3.post('/v1/sessions', { amount: 12, reference: 'order-ns' })).body.data;
  const checkoutUrl: string = session.attributes.checkout_url;
  t.equal(checkoutUrl, `${e.url}/~w3/checkout/${session.id}`, 'checkout_url carries the namespace');
  const { page, paths } = await open(t, checkoutUrl);
  t.equal(await page.getByTestId('amount').innerText(), '12.00 USD');
  t.same(await targets(page), [`/~w3/checkout/${session.id}/pay`, `/~w3/checkout/${session.id}/cancel`], 'the forms post back under /~w3/');

  await fillCard(page, '4000 0000 0000 0002');
  const declined = await submit(page, /^Pay /);
  t.equal(declined.first.status, 402, 'a decline is the form again');
  t.match(await page.getByTestId('decline').innerText(), /insufficient funds/i);
  t.same(await targets(page), [`/~w3/checkout/${session.id}/pay`, `/~w3/checkout/${session.id}/cancel`]);

  await fillCard(page, '4000 0027 6000 3184');
  const challenge = await submit(page, /^Pay /);
  t.equal(challenge.first.status, 200, 'the 3-D Secure challenge');
  await t.resolves(page.getByRole('heading', { name: '3-D Secure' }).waitFor());
  t.same(await targets(page), [`/~w3/checkout/${session.id}/3ds`, `/~w3/checkout/${session.id}/3ds`], 'both answers post under /~w3/');
  const done = await submit(page, 'Complete authentication');
  t.same(done.first, { status: 303, location: `/~w3/checkout/${session.id}/done` });
  t.equal(done.landed?.status(), 200);
  t.equal(await page.getByTestId('reference').innerText(), 'order-ns');
  t.ok(
    paths().every((p) => p.split(' ')[1]!.startsWith('/~w3/')),
    `every page the browser went to is under /~w3/: ${paths().join(', ')}`,
  );

  const payments = (await w3.get('/v1/payments')).body.data;
  t.equal(payments.length, 1, 'the payment is in ~w3');
  t.match(payments[0].attributes, { reference: 'order-ns', status: 'PAID' });
  t.equal((await e.api.get('/v1/payments')).body.data.length, 0, 'and not in the default');
  t.equal((await e.api.get('/v1/payments/order-ns')).status, 404);
  // The same page in the default is not found: the id is w3's.
  t.equal((await fetch(`${e.url}/checkout/${session.id}`)).status, 404);
});

t.test('cancel and the redirects of a checkout in ~w3: its own cancelled page, its receipt, cancel_url and success_url', async (t) => {
  const e = await emulator(t);
  const w3 = client(e.url, `${KEY}~w3`);
  const plain = (await w3.post('/v1/sessions', { amount: 10 })).body.data;
  const { page } = await open(t, plain.attributes.checkout_url);
  const cancelled = await submit(page, 'Cancel');
  t.same(cancelled.first, { status: 303, location: `/~w3/checkout/${plain.id}/cancelled` });
  await t.resolves(page.getByRole('heading', { name: 'Payment cancelled' }).waitFor());
  t.same(await targets(page), [`/~w3/checkout/${plain.id}`]);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Return to the checkout' }).click()]);
  t.equal(page.url(), plain.attributes.checkout_url, 'back on the checkout, still open');
  t.equal(await page.getByTestId('amount').innerText(), '10.00 USD');

  // The merchant's addresses, without following them (nothing listens on port 9).
  const toShop = (await w3.post('/v1/sessions', { amount: 10, success_url: 'http://127.0.0.1:9/success', cancel_url: 'http://127.0.0.1:9/cancel' })).body.data;
  t.same(await post(`${toShop.attributes.checkout_url}/cancel`), { status: 303, location: 'http://127.0.0.1:9/cancel' }, 'cancel goes to cancel_url');
  t.same(await post(`${toShop.attributes.checkout_url}/pay`, CARD), { status: 303, location: 'http://127.0.0.1:9/success' }, 'a payment to success_url');
  t.equal((await w3.get('/v1/payments')).body.data.length, 1);

  // A paid checkout without success_url: its receipt, and the 409 page of an unpaid one, link under /~w3/.
  const receipt = (await w3.post('/v1/sessions', { amount: 3 })).body.data;
  t.same(await post(`${receipt.attributes.checkout_url}/pay`, CARD), { status: 303, location: `/~w3/checkout/${receipt.id}/done` });
  const unpaid = (await w3.post('/v1/sessions', { amount: 3 })).body.data;
  const notPaid = await fetch(`${unpaid.attributes.checkout_url}/done`);
  t.equal(notPaid.status, 409);
  t.match(await notPaid.text(), `<a href="/~w3/checkout/${unpaid.id}">Return to the checkout</a>`);
});

t.test('a payment link: /~w3/pay/1 and /pay/1 are two links; a recurring one in ~w3 ends on its manage page under /~w3/', async (t) => {
  const e = await emulator(t);
  const w3 = client(e.url, `${KEY}~w3`);
  const ours = (await w3.post('/v1/payment-links', { title: 'Coffee club', amount: 19, recurring: { frequency: 'monthly' } })).body.data;
  const theirs = (await e.api.post('/v1/payment-links', { title: 'Tea tin', amount: 7 })).body.data;
  t.equal(ours.id, theirs.id, 'both are link 1, each in its namespace');
  t.equal(ours.links.pay, `${e.url}/~w3/pay/1`);
  t.equal(theirs.links.pay, `${e.url}/pay/1`);

  const { page, paths } = await open(t, theirs.links.pay);
  t.equal(await page.getByRole('heading').first().innerText(), 'Tea tin');
  t.same(await targets(page), ['/pay/1'], "the default's page is as it always was");
  await page.goto(ours.links.pay);
  t.equal(await page.getByRole('heading').first().innerText(), 'Coffee club');
  t.same(await targets(page), ['/~w3/pay/1']);

  const opened = await submit(page, 'Continue to payment');
  t.equal(opened.first.status, 303);
  t.match(opened.first.location, new RegExp(`^${e.url}/~w3/checkout/cs_\\w+$`), 'the link opens a checkout in ~w3');
  const sessionId = opened.first.location!.split('/checkout/')[1]!;
  t.equal((await w3.get(`/v1/sessions/${sessionId}`)).status, 200, 'the session is in ~w3');
  t.equal((await e.api.get(`/v1/sessions/${sessionId}`)).status, 404, 'not in the default');

  await fillCard(page, '4242 4242 4242 4242');
  const paid = await submit(page, 'Pay 19.00 USD and subscribe');
  t.same(paid.first, { status: 303, location: `/~w3/checkout/${sessionId}/done` });
  const schedules = (await w3.get('/v1/recurring-payments')).body.data;
  t.equal(schedules.length, 1, 'the subscription is in ~w3');
  t.equal((await e.api.get('/v1/recurring-payments')).body.data.length, 0);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Manage your subscription' }).click()]);
  t.equal(page.url(), schedules[0].attributes.manage_url, 'the receipt links to the manage page under /~w3/');
  t.match(page.url(), `${e.url}/~w3/manage/`);
  t.equal(await page.getByTestId('card').innerText(), 'Visa •••• 4242');
  t.ok(
    paths()
      .slice(1)
      .every((p) => p.split(' ')[1]!.startsWith('/~w3/')),
    `after the default's page, every page is under /~w3/: ${paths().join(', ')}`,
  );
});

t.test('an invoice of ~w3 is paid on its page under /~w3/, through 3-D Secure', async (t) => {
  const e = await emulator(t, { clockStart: '2027-01-10T10:00:00Z' });
  const w3 = client(e.url, `${KEY}~w3`);
  const id = await sentInvoice(w3);
  const invoice = (await w3.get(`/v1/invoices/${id}`)).body.data;
  t.equal(invoice.attributes.payment_url, `${e.url}/~w3/invoices/${id}`);
  const { page } = await open(t, invoice.attributes.payment_url);
  t.same(await targets(page), [`/~w3/invoices/${id}/pay`]);
  await fillCard(page, '4000 0027 6000 3184');
  await submit(page, /^Pay /);
  t.same(await targets(page), [`/~w3/invoices/${id}/3ds`, `/~w3/invoices/${id}/3ds`]);
  const paid = await submit(page, 'Complete authentication');
  t.same(paid.first, { status: 303, location: `/~w3/invoices/${id}` });
  t.equal(await page.getByTestId('status').innerText(), 'paid');
  t.equal((await w3.get('/v1/payments')).body.data.length, 1, "the invoice's payment is in ~w3");
  t.equal((await e.api.get('/v1/payments')).body.data.length, 0);
});

t.test('the manage page of a schedule in ~w3: update the card through its card-update page, then cancel, all under /~w3/', async (t) => {
  const e = await emulator(t);
  const w3 = client(e.url, `${KEY}~w3`);
  const created = await schedule(w3, 'sub-ns');
  const manageUrl: string = created.attributes.manage_url;
  const token = manageUrl.split('/manage/')[1]!;
  t.equal(manageUrl, `${e.url}/~w3/manage/${token}`);
  const { page, paths } = await open(t, manageUrl);
  t.same(await targets(page), [`/~w3/manage/${token}/card`, `/~w3/manage/${token}/cancel`]);

  const update = await submit(page, 'Update card');
  t.match(update.first, { status: 303, location: /^\/~w3\/card-update\/cs_\w+$/ });
  const sessionPath = update.first.location!;
  t.same(await targets(page), [sessionPath]);
  await fillCard(page, '4000 0027 6000 3184');
  await submit(page, 'Save card');
  t.same(await targets(page), [`${sessionPath}/3ds`, `${sessionPath}/3ds`], 'the 3-D Secure challenge posts under /~w3/');
  const saved = await submit(page, 'Complete authentication');
  t.same(saved.first, { status: 303, location: `/~w3/manage/${token}?payment_method=updated` }, 'back to the manage page under /~w3/');
  t.match(await page.getByRole('status').innerText(), /Your new card is saved/);
  t.equal(await page.getByTestId('card').innerText(), 'Visa •••• 3184');

  const cancelled = await submit(page, 'Cancel subscription');
  t.same(cancelled.first, { status: 303, location: `/~w3/manage/${token}` });
  t.equal(await page.getByTestId('status').innerText(), 'cancelled');
  t.equal((await w3.get('/v1/recurring-payments/sub-ns')).body.data.attributes.status, 'cancelled');
  t.ok(
    paths().every((p) => p.split(' ')[1]!.startsWith('/~w3/')),
    `every page the browser went to is under /~w3/: ${paths().join(', ')}`,
  );

  // A card update without success_url comes back to its own page under /~w3/.
  const other = await schedule(w3, 'sub-ns-2');
  const method = (await w3.post(`/v1/recurring-payments/${other.attributes.reference}/payment-method-session`, {})).body.data;
  t.equal(method.attributes.checkout_url, `${e.url}/~w3/card-update/${method.id}`);
  t.same(await post(method.attributes.checkout_url, { ...CARD, card_number: '5555555555554444' }), {
    status: 303,
    location: `/~w3/card-update/${method.id}`,
  });
});

t.test("a page of another namespace, or of none, is the page's own 404 page, and makes no namespace", async (t) => {
  const e = await emulator(t);
  const w3 = client(e.url, `${KEY}~w3`);
  const session = (await w3.post('/v1/sessions', { amount: 5 })).body.data;
  t.equal((await client(e.url, `${KEY}~w4`).get('/v1/me')).status, 200, '~w4 exists');
  t.same(await namespaceNames(e), ['w3', 'w4']);

  const unknown = await fetch(`${e.url}/checkout/cs_unknown`);
  const unknownPage = await unknown.text();
  t.equal(unknown.status, 404);
  t.match(unknownPage, /Checkout not found/);

  const elsewhere = await fetch(`${e.url}/~w4/checkout/${session.id}`);
  t.equal(elsewhere.status, 404, "w3's session is not found under /~w4/");
  t.equal(await elsewhere.text(), unknownPage, 'the same page as an unknown id');

  for (const [path, method] of [
    [`/~nope/checkout/${session.id}`, 'GET'],
    [`/~nope/checkout/${session.id}/pay`, 'POST'],
    ['/~nope/pay/1', 'GET'],
    ['/~nope/invoices/inv_x', 'GET'],
    ['/~nope/manage/x', 'GET'],
    ['/~nope/card-update/cs_x', 'GET'],
    ['/~NOPE/checkout/x', 'GET'],
  ] as const) {
    const send = (url: string) => fetch(url, { method, ...(method === 'POST' ? { body: new URLSearchParams(CARD) } : {}) });
    const answer = await send(`${e.url}${path}`);
    t.equal(answer.status, 404, `${method} ${path}`);
    t.match(answer.headers.get('content-type'), /^text\/html/, `${path}: a page, not JSON`);
    t.match(answer.headers.get('content-security-policy'), /default-src 'self'/, `${path}: with the pages' headers`);
    // None of these ids is the default's either: the default answers its 404 page for them.
    const inDefault = await send(`${e.url}${path.replace(/^\/~[^/]+/, '')}`);
    t.equal(inDefault.status, 404);
    t.equal(await answer.text(), await inDefault.text(), `${path}: the page the default answers for an id it does not know`);
  }
  t.same(await namespaceNames(e), ['w3', 'w4'], 'no page made a namespace');
  t.equal((await fetch(`${e.url}/~w3/checkout/${session.id}`)).status, 200, 'the session is found in its own namespace');
});
