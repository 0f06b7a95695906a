import type { Browser } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, pageFor } from './helpers/browser.js';
import { emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

/** The dashboard at /_payemu/dashboard in a real headless Chromium, with JavaScript on and off. */

let browser: Browser;
t.before(async () => {
  browser = await launchChromium();
});
t.teardown(() => browser?.close());

const D = '/_payemu/dashboard';

/** An emulator with a payment (refunded in part), a schedule, an invoice, a payment link, and webhooks to a receiver. */
async function withData(t: Test): Promise<{ e: TestEmulator; hook: Awaited<ReturnType<typeof receiver>>; paymentId: string }> {
  const hook = await receiver(t);
  const e = await emulator(t, { clockStart: '2027-01-31T09:00:00Z', freezeClock: true, webhookUrl: hook.url });
  const { completed } = await pay(e, { amount: 25, reference: 'order-<1>', save_payment_method: true, customer_email: 'ada@example.com' });
  const paymentId = String(completed.body.payment.id);
  await e.api.post('/v1/payments/order-%3C1%3E/refunds', { amount: 5, reason: 'broken' });
  await e.api.post('/v1/recurring-payments', { payment_method: completed.body.payment.payment_method, amount: 9, frequency: 'monthly', reference: 'sub-1' });
  const invoice = (
    await e.api.post('/v1/invoices', {
      customer_name: 'Ada',
      customer_email: 'ada@example.com',
      currency: 'USD',
      due_date: '2027-03-01',
      items: [{ description: 'Work', quantity: 1, unit_price: 40 }],
    })
  ).body.data;
  await e.api.post(`/v1/invoices/${invoice.id}/send`);
  await e.api.post('/v1/payment-links', { title: 'Coffee', amount: 3 });
  await e.idle();
  return { e, hook, paymentId };
}

const PAGES = (paymentId: string, eventId: string) =>
  [
    ['', 'Overview'],
    ['/payments', 'Payments'],
    [`/payments/${paymentId}`, 'Payment order-<1>'],
    ['/schedules', 'Schedules'],
    ['/invoices', 'Invoices'],
    ['/payment-links', 'Payment links'],
    ['/events', 'Events'],
    [`/events/${eventId}`, 'payment.completed'],
    ['/requests', 'Requests'],
    ['/faults', 'Faults'],
    ['/clock', 'Clock'],
    ['/reset', 'Reset Acme Store, test mode?'],
  ] as const;

t.test('every page renders with JavaScript on and off, with its data, and the page headers', { timeout: 300_000 }, async (t) => {
  const { e, paymentId } = await withData(t);
  const events = (await e.api.get('/_payemu/events?event=payment.completed')).body.events;
  for (const javaScriptEnabled of [true, false]) {
    const page = await pageFor(browser, t, { javaScriptEnabled });
    for (const [path, heading] of PAGES(paymentId, events[0].id)) {
      const answer = await page.goto(`${e.url}${D}${path}`);
      t.equal(answer?.status(), 200, `${path || '/'} answers 200 (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`);
      t.match(answer?.headers()['content-security-policy'], /script-src 'self'/);
      await t.resolves(page.getByRole('heading', { level: 1, name: heading }).waitFor(), `${path || '/'} shows "${heading}"`);
      t.equal(await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').count(), 10, 'the nav bar');
      t.equal(await page.locator('select[name=source]').inputValue(), 'acme', 'the switcher shows the Source');
    }
  }
  t.equal(e.dashboardUrl, `${e.url}${D}`, 'the library names the dashboard');
  const page = await pageFor(browser, t, { javaScriptEnabled: false });
  await page.goto(e.dashboardUrl);
  t.equal(await page.getByTestId('test-key').innerText(), 'sk_test_payemu_acme');
  t.equal(await page.getByTestId('webhook-secret').innerText(), e.webhookSecret);
  t.match(await page.getByTestId('connect').innerText(), e.url);
  t.match(await page.getByTestId('clock').innerText(), /2027-01-31T09:00:00\.000000Z[\s\S]*Frozen\s+yes/);
  t.match(await page.getByTestId('counts').innerText(), /Payments\s+2[\s\S]*Refunds\s+1[\s\S]*Schedules\s+1[\s\S]*Invoices\s+1[\s\S]*Payment links\s+1/);

  await page.goto(`${e.url}${D}/payments/${paymentId}`);
  t.match(await page.getByTestId('payment').innerText(), /PARTIALLY_REFUNDED[\s\S]*25\.00 USD[\s\S]*5\.00 USD/);
  t.match(await page.getByTestId('refunds').innerText(), /5\.00 USD\s+broken/);
  t.ok((await page.getByTestId('attempts').count()) >= 2, 'each event of the payment with its attempts');
  t.match(await page.getByTestId('attempts').first().innerText(), /\/webhooks\s+200 succeeded/);
  t.match(await page.getByTestId('requests').innerText(), /POST\s+\/v1\/payments\/order-%3C1%3E\/refunds\s+201/, 'the journal requests that touched it');

  await page.goto(`${e.url}${D}/payments?status=PAID`);
  t.match(await page.getByTestId('total').innerText(), /^1 payment$/, 'filter by status: the schedule’s first charge');
  await page.goto(`${e.url}${D}/payments?reference=order`);
  t.equal(await page.getByTestId('payments').locator('tbody tr').count(), 1, 'filter by reference');
  await page.goto(`${e.url}${D}/payments?from=2027-02-01`);
  t.equal(await page.getByTestId('payments-empty').count(), 1, 'filter by date');
  await page.goto(`${e.url}${D}/schedules`);
  t.match(await page.getByTestId('next-billing').innerText(), /2027-02-28/, 'next billing date');
  await page.goto(`${e.url}${D}/invoices`);
  t.match(await page.getByTestId('invoices').innerText(), /INV-000001[\s\S]*40\.00 USD\s+sent\s+2027-03-01/);
  await page.goto(`${e.url}${D}/payment-links`);
  t.match(await page.getByTestId('payment-links').innerText(), /Coffee[\s\S]*3\.00 USD[\s\S]*usable/);
  await page.goto(`${e.url}${D}/requests?method=post&path=/v1/invoices/**`);
  t.match(await page.getByTestId('total').innerText(), /^1 request/, 'journal filtered by method and path');
  await page.goto(`${e.url}${D}/requests?status=9xx`);
  t.match(await page.getByTestId('filter-problem').innerText(), /status/, 'a bad filter says why');
  await page.goto(`${e.url}${D}/events/${events[0].id}`);
  t.match(await page.getByTestId('payload').innerText(), /"event": "payment.completed"/);
});

t.test('actions through the browser: resend, clock advance, reset with confirmation (JavaScript off)', { timeout: 300_000 }, async (t) => {
  const { e, hook } = await withData(t);
  const page = await pageFor(browser, t, { javaScriptEnabled: false });
  const [event] = (await e.api.get('/_payemu/events?event=payment.completed')).body.events;
  await page.goto(`${e.url}${D}/events/${event.id}`);
  const before = hook.received.length;
  const delivered = hook.next();
  await Promise.all([page.waitForURL(/notice=resent/), page.getByRole('button', { name: 'Resend' }).click()]);
  t.match(await page.getByTestId('notice').innerText(), /Sent again/);
  await delivered;
  await e.idle();
  t.equal(hook.received.length, before + 1, 'the receiver got the event again');
  t.equal((await e.api.get(`/_payemu/events/${event.id}`)).body.attempts.length, event.attempts.length + 1);

  await page.goto(`${e.url}${D}/clock`);
  await page.getByLabel(/^By/).fill('1d');
  await page.getByLabel(/^or to/).fill('2027-01-01T00:00:00Z');
  await page.getByRole('button', { name: 'Advance' }).click();
  t.match(await page.getByTestId('problem').innerText(), /either/, 'both fields: refused, saying why');
  await page.getByLabel(/^or to/).fill('');
  await page.getByLabel(/^By/).fill('40d');
  await Promise.all([page.waitForURL(/report=/), page.getByRole('button', { name: 'Advance' }).click()]);
  t.match(await page.getByTestId('advanced').innerText(), /to 2027-03-12T09:00:00\.000000Z: .*recurring\.charge/);
  t.match(await page.getByTestId('ran').innerText(), /invoice\.overdue/);
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-03-12T09:00:00.000000Z');
  await page.getByLabel(/^or to/).fill('2027-03-13T00:00:00Z');
  await Promise.all([page.waitForURL(/report=/), page.getByRole('button', { name: 'Advance' }).click()]);
  t.match(await page.getByTestId('advanced').innerText(), /to 2027-03-13T00:00:00\.000000Z: nothing fell due/);

  await pay(e, { amount: 1 }, '4242424242424242', e.globex);
  await page.goto(`${e.url}${D}`);
  await page.getByRole('link', { name: 'Reset' }).click();
  t.equal((await e.api.get('/v1/payments')).body.data.length > 0, true, 'the confirmation page changes nothing');
  await Promise.all([page.waitForURL(/reset=/), page.getByRole('button', { name: 'Yes, reset acme test' }).click()]);
  t.match(await page.getByTestId('reset-done').innerText(), /records removed from acme test/);
  t.equal((await e.api.get('/v1/payments')).body.data.length, 0, 'acme test is empty');
  t.equal((await e.globex.get('/v1/payments')).body.data.length, 1, 'globex is untouched');
});

t.test(
  'faults and webhook chaos through the browser: add, a request gets it, remove, clear; set chaos, an attempt carries it, turn it off (JavaScript off)',
  { timeout: 300_000 },
  async (t) => {
    const hook = await receiver(t);
    const e = await emulator(t, { webhookUrl: hook.url });
    const page = await pageFor(browser, t, { javaScriptEnabled: false });
    await page.goto(`${e.url}${D}/faults`);
    t.equal(await page.getByTestId('faults-empty').count(), 1);
    const form = page.getByRole('form', { name: 'Add a fault' });
    await form.getByLabel('Path').fill('/payments');
    await form.getByRole('button', { name: 'Add fault' }).click();
    t.match(await page.getByTestId('problem').innerText(), /start with \/v1\//, 'a bad path says why, nothing added');
    t.same((await e.api.get('/_payemu/faults')).body.faults, []);
    await form.getByLabel('Method').selectOption('GET');
    await form.getByLabel('Path').fill('/v1/payments/*');
    await form.getByLabel('Status').fill('503');
    await form.getByLabel('Times').fill('1');
    await Promise.all([page.waitForURL(/notice=Added/), form.getByRole('button', { name: 'Add fault' }).click()]);
    t.match(await page.getByTestId('faults').innerText(), /GET\s+\/v1\/payments\/\*\s+503[\s\S]*0 of 1/);
    // A faulted answer is outside the route's OpenAPI answers: asked with plain fetch, not the checking client.
    const faulted = await fetch(`${e.url}/v1/payments/nope`, { headers: { Authorization: 'Bearer sk_test_payemu_acme' } });
    t.equal(faulted.status, 503, 'the fault acts on a /v1 request');
    await page.reload();
    t.equal(await page.getByTestId('faults-empty').count(), 1, 'retired after its one hit');

    for (const path of ['/v1/a', '/v1/b']) {
      await form.getByLabel('Path').fill(path);
      await form.getByLabel('Latency (ms)').fill('1');
      await Promise.all([page.waitForURL(/notice=Added/), form.getByRole('button', { name: 'Add fault' }).click()]);
    }
    const [first] = (await e.api.get('/_payemu/faults')).body.faults;
    await Promise.all([page.waitForURL(/notice=Removed/), page.getByRole('button', { name: `Remove ${first.id}` }).click()]);
    t.same(
      (await e.api.get('/_payemu/faults')).body.faults.map((f: { path: string }) => f.path),
      ['/v1/b'],
    );
    await Promise.all([page.waitForURL(/notice=Removed/), page.getByRole('button', { name: 'Clear all faults' }).click()]);
    t.match(await page.getByTestId('notice').innerText(), /Removed 1 fault\./);
    t.same((await e.api.get('/_payemu/faults')).body.faults, []);

    t.equal(await page.getByTestId('webhook-chaos-off').count(), 1, 'webhook chaos is off');
    const chaos = page.getByRole('form', { name: 'Set webhook chaos' });
    await chaos.getByLabel('Bad signature').fill('2');
    const [refusedAnswer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/faults/webhook-chaos') && r.request().method() === 'POST'),
      chaos.getByRole('button', { name: 'Set webhook chaos' }).click(),
    ]);
    t.equal(refusedAnswer.status(), 422);
    t.match(await page.getByTestId('chaos-problem').innerText(), /bad_signature field must be a probability from 0 to 1/, 'a refused value says why');
    t.equal(await chaos.getByLabel('Bad signature').inputValue(), '2', 'the form keeps what was typed');
    t.same((await e.api.get('/_payemu/webhook-chaos')).body, {}, 'nothing was set');
    await chaos.getByLabel('Bad signature').fill('1');
    await chaos.getByLabel('Seed').fill('7');
    await Promise.all([page.waitForURL(/notice=Webhook/), chaos.getByRole('button', { name: 'Set webhook chaos' }).click()]);
    t.match(await page.getByTestId('webhook-chaos').innerText(), /Bad signature\s+1[\s\S]*Seed\s+7/);
    t.same((await e.api.get('/_payemu/webhook-chaos')).body, { bad_signature: 1, seed: 7 }, 'as the control plane has it');
    await pay(e, { amount: 4 });
    await e.idle();
    const [event] = (await e.api.get('/_payemu/events?event=payment.completed')).body.events;
    await page.goto(`${e.url}${D}/events/${event.id}`);
    t.equal(await page.getByTestId('chaos').first().innerText(), 'chaos: bad_signature', "the attempt's chaos is shown");
    await page.goto(`${e.url}${D}/faults`);
    await Promise.all([page.waitForURL(/notice=Webhook/), page.getByRole('button', { name: 'Turn webhook chaos off' }).click()]);
    t.equal(await page.getByTestId('webhook-chaos-off').count(), 1);
    t.same((await e.api.get('/_payemu/webhook-chaos')).body, {}, 'turned off as DELETE does');
  },
);

t.test('CSRF: a post without the token, or from another origin, is a 403 that changes nothing', { timeout: 300_000 }, async (t) => {
  const e = await emulator(t, { clockStart: '2027-01-31T09:00:00Z', freezeClock: true });
  await pay(e, { amount: 2, reference: 'kept' });
  const page = await pageFor(browser, t);
  await page.goto(`${e.url}${D}/reset`);
  const token = await page.locator('input[name=csrf]').inputValue();
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${e.url}${D}${path}?source=acme&mode=test`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    });
  const noToken = await post('/reset', '');
  t.equal(noToken.status, 403);
  t.match(await noToken.text(), /no security token[\s\S]*Nothing was changed/);
  t.equal((await post('/reset', 'csrf=forged')).status, 403, 'a wrong token');
  t.equal((await post('/clock/advance', `csrf=${token}&by=1d`)).status, 403, 'the reset token does not advance the clock');
  t.equal((await post('/faults/webhook-chaos', 'duplicate=1')).status, 403, 'no token, no webhook chaos');
  t.same((await e.api.get('/_payemu/webhook-chaos')).body, {});
  const foreign = await post('/reset', `csrf=${token}`, { Origin: 'http://evil.example' });
  t.equal(foreign.status, 403);
  t.match(await foreign.text(), /another site \(http:\/\/evil\.example\)/);
  t.equal((await e.api.get('/v1/payments')).body.data.length, 1, 'nothing was reset');
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-31T09:00:00.000000Z', 'the clock did not move');
  const globexToken = await post('/reset', `csrf=${token}`.replace('acme', 'globex'));
  t.equal(globexToken.status, 303, 'the right token from this origin works');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 0);
});

t.test('the switcher shows only the chosen Source and mode; live refresh notices a new event', { timeout: 300_000 }, async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 1, reference: 'acme-test' });
  await pay(e, { amount: 2, reference: 'acme-live' }, '4242424242424242', e.live);
  await pay(e, { amount: 3, reference: 'globex-test' }, '4242424242424242', e.globex);
  const page = await pageFor(browser, t);
  await page.goto(`${e.url}${D}/payments`);
  t.match(await page.getByTestId('payments').innerText(), /acme-test/);
  t.notMatch(await page.getByTestId('payments').innerText(), /acme-live|globex-test/);
  await page.locator('select[name=mode]').selectOption('live');
  await Promise.all([page.waitForURL(/mode=live/), page.getByRole('button', { name: 'Show' }).click()]);
  t.match(await page.getByTestId('payments').innerText(), /acme-live/);
  t.notMatch(await page.getByTestId('payments').innerText(), /acme-test|globex-test/);
  await page.goto(`${e.url}${D}/events?source=globex&mode=test`);
  t.match(await page.getByTestId('events').innerText(), /payment\.completed/);
  await page.goto(`${e.url}${D}/payments?source=globex&mode=test`);
  t.match(await page.getByTestId('payments').innerText(), /globex-test/);
  t.notMatch(await page.getByTestId('payments').innerText(), /acme/);
  t.equal(await page.getByTestId('test-key').count(), 0);
  await page.goto(`${e.url}${D}?source=globex`);
  t.equal(await page.getByTestId('test-key').innerText(), 'sk_test_payemu_globex');

  await page.goto(`${e.url}${D}/events`);
  await page.locator('body[data-live=connected]').waitFor();
  t.ok(await page.locator('#live-notice').isHidden(), 'no notice before anything happens');
  await pay(e, { amount: 4, reference: 'globex-only' }, '4242424242424242', e.globex);
  await pay(e, { amount: 5, reference: 'new-one' });
  await page.locator('#live-notice').waitFor({ state: 'visible' });
  await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'refresh' }).click()]);
  await page.getByTestId('events').getByText('new-one').first().waitFor();
  t.pass('the notice showed and its refresh link reloaded the list');
});

t.test('readable on a phone: no horizontal scroll at 375 px', { timeout: 300_000 }, async (t) => {
  const { e, paymentId } = await withData(t);
  const events = (await e.api.get('/_payemu/events?event=payment.completed')).body.events;
  await e.api.post('/_payemu/faults', { method: 'POST', path: '/v1/payments/*/refunds', status: 503, times: 2, seed: 7 });
  e.webhookChaos.set({ duplicate: 0.2, delay: '5s', seed: 7 });
  const phone = await pageFor(browser, t, { viewport: { width: 375, height: 740 } });
  for (const [path] of PAGES(paymentId, events[0].id)) {
    await phone.goto(`${e.url}${D}${path}`);
    const [scroll, client] = (await phone.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]')) as [number, number];
    t.ok(scroll <= client, `${path || '/'}: ${scroll} px wide in ${client}`);
  }
  // The pictures of docs/dashboard.md: test/dashboard-look.test.ts, with PAYEMU_SCREENSHOTS=1.
});
