import type { Browser, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, pageFor } from './helpers/browser.js';
import { emulator, type TestEmulator } from './helpers/emulator.js';

/** The hosted invoice, payment-link, card-update and manage pages in a real headless Chromium. */

let browser: Browser;

t.before(async () => {
  browser = await launchChromium();
});
t.teardown(() => browser?.close());

async function open(t: Test, url: string): Promise<Page> {
  const page = await pageFor(browser, t);
  await page.goto(url);
  return page;
}

async function payWith(page: Page, number: string, button: string | RegExp) {
  await page.getByLabel('Card number').pressSequentially(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/40');
  await page.getByLabel('CVC').fill('123');
  return Promise.all([page.waitForNavigation(), page.getByRole('button', { name: button }).click()]);
}

async function sentInvoice(e: TestEmulator, body: Record<string, unknown> = {}) {
  const invoice = (
    await e.api.post('/v1/invoices', {
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
      currency: 'USD',
      due_date: '2099-01-01',
      discount: 1,
      apply_tax: true,
      items: [
        { description: 'Analytical engine tune-up', quantity: 3, unit_price: 0.33 },
        { description: 'Punched cards <b>bold</b>', quantity: 2, unit_price: 10 },
      ],
      ...body,
    })
  ).body.data;
  await e.api.post(`/v1/invoices/${invoice.id}/send`);
  return invoice;
}

t.test('invoice page: items and totals, a decline, then paid', async (t) => {
  const e = await emulator(t);
  const invoice = await sentInvoice(e);
  const page = await open(t, invoice.attributes.payment_url);
  await t.resolves(page.getByRole('heading', { name: `Invoice ${invoice.attributes.number}` }).waitFor());
  const items = page.getByTestId('items');
  t.match(await items.innerText(), /Analytical engine tune-up × 3\s+0\.99 USD/);
  t.match(await items.innerText(), /Punched cards <b>bold<\/b> × 2/, 'item text is shown as text');
  t.match(await items.innerText(), /Discount\s+−1\.00 USD/);
  t.match(await items.innerText(), /Tax \(7\.25 %\)\s+1\.45 USD/);
  t.equal(await page.getByTestId('total').innerText(), '21.44 USD');

  const [declined] = await payWith(page, '4000 0000 0000 0002', /Pay 21\.44 USD/);
  t.equal(declined?.status(), 402);
  t.match(await page.getByTestId('decline').innerText(), /insufficient funds/);
  t.equal((await e.api.get(`/v1/invoices/${invoice.id}`)).body.data.attributes.status, 'sent');

  await payWith(page, '4242 4242 4242 4242', /Pay 21\.44 USD/);
  await t.resolves(page.getByText('Paid. Thank you.').waitFor());
  t.equal(await page.getByTestId('status').innerText(), 'paid');
  t.equal(await page.getByRole('button', { name: /Pay/ }).count(), 0, 'no card form once paid');
  t.equal((await e.api.get(`/v1/invoices/${invoice.id}`)).body.data.attributes.status, 'paid');
});

t.test('invoice page: a draft cannot be paid; 3-D Secure works', async (t) => {
  const e = await emulator(t);
  const draft = (
    await e.api.post('/v1/invoices', {
      customer_name: 'A',
      customer_email: 'a@example.com',
      currency: 'USD',
      due_date: '2099-01-01',
      items: [{ description: 'x', quantity: 1, unit_price: 5 }],
    })
  ).body.data;
  const page = await open(t, draft.attributes.payment_url);
  await t.resolves(page.getByText('This invoice has not been sent yet.').waitFor());
  t.equal(await page.getByLabel('Card number').count(), 0);

  const invoice = await sentInvoice(e);
  const pay = await open(t, invoice.attributes.payment_url);
  await payWith(pay, '4000 0027 6000 3184', /Pay/);
  await t.resolves(pay.getByRole('heading', { name: '3-D Secure' }).waitFor());
  await Promise.all([pay.waitForNavigation(), pay.getByRole('button', { name: 'Complete authentication' }).click()]);
  await t.resolves(pay.getByText('Paid. Thank you.').waitFor());
});

t.test('payment link page: what it sells, continue to a checkout, pay, the link used up', async (t) => {
  const e = await emulator(t);
  const link = (
    await e.api.post('/v1/payment-links', {
      title: 'Bundle',
      description: 'Shirt and stickers',
      products: [{ id: 1, quantity: 2 }, { id: 3 }],
      max_uses: 1,
      taxable: true,
    })
  ).body.data;
  const page = await open(t, link.links.pay);
  await t.resolves(page.getByRole('heading', { name: 'Bundle' }).waitFor());
  t.match(await page.locator('table').innerText(), /Acme T-shirt × 2\s+50\.00 USD/);
  t.equal(await page.getByTestId('amount').innerText(), '58.98 USD', '54.99 + 7.25 % tax');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Continue to payment' }).click()]);
  t.match(page.url(), /\/checkout\/cs_/);
  t.equal(await page.getByTestId('amount').innerText(), '58.98 USD');
  await payWith(page, '4242 4242 4242 4242', /Pay 58\.98 USD/);
  await t.resolves(page.getByRole('heading', { name: 'Payment complete' }).waitFor());
  t.match((await e.api.get(`/v1/payment-links/${link.id}`)).body.data.attributes, { uses_count: 1, usable: false });

  const again = await open(t, link.links.pay);
  await t.resolves(again.getByText('This payment link is no longer available.').waitFor());
});

t.test('card-update page with 3-D Secure, then the manage page cancels the schedule', async (t) => {
  const e = await emulator(t);
  const session = (await e.api.post('/v1/sessions', { amount: 1, save_payment_method: true })).body.data;
  const pm = (await e.api.post(`/_payemu/sessions/${session.id}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method;
  const schedule = (
    await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference: 'sub-1', start_date: '2099-01-01' })
  ).body.data;
  const update = (await e.api.post('/v1/recurring-payments/sub-1/payment-method-session', {})).body.data;

  const page = await open(t, update.attributes.checkout_url);
  await t.resolves(page.getByRole('heading', { name: 'Update your card' }).waitFor());
  await payWith(page, '4000 0027 6000 3184', 'Save card');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Complete authentication' }).click()]);
  await t.resolves(page.getByRole('heading', { name: 'Card updated' }).waitFor());
  t.not((await e.api.get('/v1/recurring-payments/sub-1')).body.data.attributes.payment_method, pm);

  const manage = await open(t, schedule.attributes.manage_url);
  t.equal(await manage.getByTestId('status').innerText(), 'active');
  await Promise.all([manage.waitForNavigation(), manage.getByRole('button', { name: 'Cancel subscription' }).click()]);
  t.equal(await manage.getByTestId('status').innerText(), 'cancelled');
  t.equal((await e.api.get('/v1/recurring-payments/sub-1')).body.data.attributes.status, 'cancelled');
});
