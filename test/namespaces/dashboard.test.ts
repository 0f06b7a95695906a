import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, pageFor } from '../helpers/browser.js';
import { client, emulator, pay } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';

// Section: the dashboard's namespace switcher (`?namespace=NAME`): each namespace's pages read and act on it alone.

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const D = '/_payemu/dashboard';
const KEY = 'sk_test_payemu_acme';

let browser: Browser;
t.before(async () => {
  browser = await launchChromium();
});
t.teardown(() => browser?.close());

/** A payemu with a payment in the default namespace and one in each of ~w3 and ~w4. */
async function threeNamespaces(t: Test, hookUrl?: string) {
  const e = await emulator(t, { clockStart: '2027-01-31T09:00:00Z', freezeClock: true, ...(hookUrl ? { webhookUrl: hookUrl } : {}) });
  const w3 = client(e.url, `${KEY}~w3`);
  const w4 = client(e.url, `${KEY}~w4`);
  await pay(e, { amount: 1, reference: 'default-1' });
  await pay(e, { amount: 3, reference: 'w3-1' }, '4242424242424242', w3);
  await pay(e, { amount: 4, reference: 'w4-1' }, '4242424242424242', w4);
  await e.idle();
  return { e, w3, w4 };
}

/** The `href` of each link `selector` finds, as written in the page. */
const hrefs = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((links) => links.map((a) => (a as unknown as { getAttribute(name: string): string | null }).getAttribute('href') ?? ''));

t.test('the switcher lists the default and each named namespace; each shows its own records, with JavaScript on and off', { timeout: 300_000 }, async (t) => {
  const { e, w3 } = await threeNamespaces(t);
  for (const javaScriptEnabled of [true, false]) {
    const page = await pageFor(browser, t, { javaScriptEnabled });
    await page.goto(`${e.url}${D}/payments`);
    t.same(await page.locator('select[name=namespace] option').allInnerTexts(), ['default', '~w3', '~w4'], 'the default, then the named ones by name');
    t.match(await page.getByTestId('payments').innerText(), /default-1/);
    t.notMatch(await page.getByTestId('payments').innerText(), /w3-1|w4-1/);
    t.ok(
      (await hrefs(page, 'nav a')).every((href) => !href.includes('namespace')),
      "the default's addresses carry no namespace",
    );

    await page.locator('select[name=namespace]').selectOption('w3');
    await Promise.all([page.waitForURL(/namespace=w3/), page.getByRole('button', { name: 'Show' }).click()]);
    t.match(await page.getByTestId('scope').innerText(), /~w3/, 'the page says which namespace it shows');
    t.match(await page.title(), /~w3/);
    t.match(await page.getByTestId('payments').innerText(), /w3-1/);
    t.notMatch(await page.getByTestId('payments').innerText(), /default-1|w4-1/, "~w3's payments only");
    t.ok(
      (await hrefs(page, 'nav a')).every((href) => href.includes('namespace=w3')),
      'every link keeps the namespace',
    );
    // A filter form keeps it too.
    await page.getByLabel('Reference').fill('w3');
    await Promise.all([page.waitForURL(/reference=w3/), page.getByRole('button', { name: 'Filter' }).click()]);
    t.match(page.url(), /namespace=w3/);
    t.match(await page.getByTestId('total').innerText(), /^1 payment/);
    await page.getByRole('link', { name: 'w3-1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment w3-1' }).waitFor();
    t.match(page.url(), /\/payments\/1\?source=acme&mode=test&namespace=w3$/, 'payment 1 of ~w3 (ids start at 1 in each)');

    await page.getByRole('link', { name: 'Overview' }).click();
    t.equal(await page.getByTestId('test-key').innerText(), `${KEY}~w3`, "the overview gives the namespace's key");
    t.equal(await page.getByTestId('counts').getByRole('definition').first().innerText(), '1');

    await page.locator('select[name=namespace]').selectOption('');
    await Promise.all([page.waitForURL(/namespace=&|namespace=$/), page.getByRole('button', { name: 'Show' }).click()]);
    t.equal(await page.getByTestId('test-key').innerText(), KEY, 'back to the default');
    t.notMatch(await page.getByTestId('scope').innerText(), /~/);
  }
  const page = await pageFor(browser, t, { javaScriptEnabled: false });
  await page.goto(`${e.url}${D}/payments?namespace=nope`);
  t.match(await page.getByTestId('payments').innerText(), /default-1/, 'an unknown namespace shows the default, as an unknown Source does');
  t.same(
    (await e.api.get('/_payemu/namespaces')).body.namespaces.map((n: { name: string }) => n.name),
    ['w3', 'w4'],
    'the dashboard made none',
  );
  await w3.post('/v1/payment-links', { title: 'Coffee', amount: 3 });
  await page.goto(`${e.url}${D}/payment-links?namespace=w3`);
  t.same(await hrefs(page, '[data-testid=payment-links] a'), ['/~w3/pay/1', '/~w3/pay/1'], "a link's hosted page is its namespace's");
  await page.getByRole('link', { name: 'Coffee' }).click();
  await page.getByRole('heading', { name: 'Coffee' }).waitFor();
  t.match(page.url(), /\/~w3\/pay\/1$/);
  await page.goto(`${e.url}/~w4${D}/payments`);
  t.match(await page.getByTestId('payments').innerText(), /w4-1/, 'under /~NAME/ the dashboard is that namespace’s');
  t.ok((await hrefs(page, 'nav a')).every((href) => href.includes('namespace=w4')));
});

t.test('a payemu without named namespaces keeps the switcher it had', { timeout: 300_000 }, async (t) => {
  const e = await emulator(t);
  const page = await pageFor(browser, t, { javaScriptEnabled: false });
  await page.goto(`${e.url}${D}`);
  t.equal(await page.locator('select[name=namespace]').count(), 0);
  t.equal(await page.getByRole('form', { name: 'Source and mode' }).count(), 1);
});

t.test('actions in a namespace act there only: clock advance, fault, resend, reset (JavaScript off)', { timeout: 300_000 }, async (t) => {
  const hook = await receiver(t);
  const { e, w3, w4 } = await threeNamespaces(t, hook.url);
  const page = await pageFor(browser, t, { javaScriptEnabled: false });
  const q = '?source=acme&mode=test&namespace=w3';

  await page.goto(`${e.url}${D}/clock${q}`);
  t.match(await page.locator('main').innerText(), /clock of namespace ~w3/);
  await page.getByLabel(/^By/).fill('2d');
  await Promise.all([page.waitForURL(/report=/), page.getByRole('button', { name: 'Advance' }).click()]);
  t.match(page.url(), /namespace=w3/);
  t.match(await page.getByTestId('advanced').innerText(), /to 2027-02-02T09:00:00\.000000Z/);
  t.equal((await w3.get('/_payemu/clock')).body.now, '2027-02-02T09:00:00.000000Z', "~w3's clock moved");
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-31T09:00:00.000000Z', "the default's did not");
  t.equal((await w4.get('/_payemu/clock')).body.now, '2027-01-31T09:00:00.000000Z', "nor ~w4's");

  await page.goto(`${e.url}${D}/faults${q}`);
  await page.getByLabel('Path').fill('/v1/me');
  await page.getByLabel('Status').fill('503');
  await Promise.all([page.waitForURL(/notice=/), page.getByRole('button', { name: 'Add fault' }).click()]);
  t.equal((await w3.get('/_payemu/faults')).body.faults.length, 1, 'the fault is in ~w3');
  t.equal((await e.api.get('/_payemu/faults')).body.faults.length, 0, 'not in the default');
  t.equal((await w4.get('/_payemu/faults')).body.faults.length, 0, 'nor in ~w4');
  await Promise.all([page.waitForURL(/notice=/), page.getByRole('button', { name: 'Clear all faults' }).click()]);
  t.equal((await w3.get('/_payemu/faults')).body.faults.length, 0);

  const [event] = (await w3.get('/_payemu/events?event=payment.completed')).body.events;
  await page.goto(`${e.url}${D}/events/${event.id}${q}`);
  const before = hook.received.length;
  const delivered = hook.next();
  await Promise.all([page.waitForURL(/notice=resent/), page.getByRole('button', { name: 'Resend' }).click()]);
  await delivered;
  await e.idle();
  t.equal(hook.received.length, before + 1, "~w3's event was sent again");
  t.equal((await w3.get(`/_payemu/events/${event.id}`)).body.attempts.length, event.attempts.length + 1);
  await page.goto(`${e.url}${D}/events/${event.id}`);
  t.equal(await page.getByRole('heading', { level: 1, name: 'Event not found' }).count(), 1, "~w3's event is not in the default");

  await page.goto(`${e.url}${D}${q}`);
  await page.getByRole('link', { name: 'Reset' }).click();
  await page.getByRole('heading', { level: 1, name: 'Reset Acme Store, test mode of ~w3?' }).waitFor();
  await Promise.all([page.waitForURL(/reset=/), page.getByRole('button', { name: 'Yes, reset acme test' }).click()]);
  t.match(page.url(), /namespace=w3/);
  t.equal((await w3.get('/v1/payments')).body.data.length, 0, '~w3 is empty');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 1, 'the default is untouched');
  t.equal((await w4.get('/v1/payments')).body.data.length, 1, '~w4 is untouched');
});

t.test("CSRF: a form's token is good in its own namespace only", { timeout: 300_000 }, async (t) => {
  const { e, w3 } = await threeNamespaces(t);
  const page = await pageFor(browser, t);
  await page.goto(`${e.url}${D}/reset?namespace=w3`);
  const token = await page.locator('input[name=csrf]').inputValue();
  const post = (query: string) =>
    fetch(`${e.url}${D}/reset?source=acme&mode=test${query}`, {
      method: 'POST',
      body: `csrf=${token}`,
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  t.equal((await post('')).status, 403, "~w3's token does not reset the default");
  t.equal((await post('&namespace=w4')).status, 403, 'nor ~w4');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 1);
  const good = await post('&namespace=w3');
  t.equal(good.status, 303);
  t.match(good.headers.get('location'), /^\/_payemu\/dashboard\?source=acme&mode=test&namespace=w3&reset=\d+$/);
  t.equal((await w3.get('/v1/payments')).body.data.length, 0);
});

t.test('live refresh listens to the namespace shown; axe finds nothing serious on a namespaced page', { timeout: 300_000 }, async (t) => {
  const { e, w3, w4 } = await threeNamespaces(t);
  const page = await pageFor(browser, t, { bypassCSP: true });
  await page.goto(`${e.url}${D}/events?namespace=w3`);
  t.match(await page.locator('body').getAttribute('data-stream'), /key=sk_test_payemu_acme~w3$/);
  await page.locator('body[data-live=connected]').waitFor();
  await pay(e, { amount: 5 }, '4242424242424242', w4);
  await pay(e, { amount: 6 });
  await e.idle();
  t.ok(await page.locator('#live-notice').isHidden(), "another namespace's events are not this page's");
  await pay(e, { amount: 7 }, '4242424242424242', w3);
  await page.locator('#live-notice').waitFor({ state: 'visible' });
  t.pass("~w3's event shows the notice");

  await page.goto(`${e.url}${D}?namespace=w3`);
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))`)) as string[];
  t.same(violations, [], 'the overview of ~w3, with its switcher');
});
