import t from 'tap';
import { createClient } from '../src/client/client.js';
import { startEmulator } from '../src/emulator.js';

// `emulator.namespace(name)`: two named namespaces and the default through the library, each
// with ids from 1, a clock of its own, keys ending in ~NAME, its own events and bus.
const KEY = 'sk_test_payemu_acme';

/** A paid checkout through HTTP with `key`: the payment's id. */
async function paidWith(url: string, key: string, reference: string): Promise<string> {
  const api = createClient({ url, key });
  const session = (await api.call('POST', '/v1/sessions', { amount: 10, reference })).data;
  const paid = (await api.completeSession(session.id, { card_number: '4242424242424242' })) as { payment: { id: string | number } };
  return String(paid.payment.id);
}

t.test('two namespaces: ids from 1 in each, clocks apart, keys with the suffix, events and bus apart', async (t) => {
  const payemu = await startEmulator({ freezeClock: true, clockStart: '2030-01-01T00:00:00Z', webhookUrl: 'http://127.0.0.1:9/hooks' });
  t.teardown(() => payemu.close());
  const a = await payemu.namespace('a');
  const b = await payemu.namespace('b-2');

  t.equal(a.name, 'a');
  t.same(a.keys, { test: `${KEY}~a`, live: 'sk_live_payemu_acme~a' });
  t.same(b.keys, { test: `${KEY}~b-2`, live: 'sk_live_payemu_acme~b-2' });
  t.same(
    a.sources.map((s) => [s.slug, s.test_key, s.live_key]),
    payemu.sources.map((s) => [s.slug, `${s.test_key}~a`, `${s.live_key}~a`]),
    "every Source's keys carry ~a",
  );
  t.equal(a.webhookSecret, payemu.webhookSecret);
  t.equal(a.url, payemu.url, 'one server');
  t.equal(a.dashboardUrl, `${payemu.url}/_payemu/dashboard?namespace=a`);
  t.equal(a.webhookUrl('acme'), 'http://127.0.0.1:9/hooks', 'the destination in force there');
  t.equal(a.webhookUrl('nope'), null);
  await a.webhook.set('http://127.0.0.1:3001/a-hooks');
  t.equal(a.webhookUrl('acme'), 'http://127.0.0.1:3001/a-hooks', "a's own destination, once set there");
  t.equal(b.webhookUrl('acme'), 'http://127.0.0.1:9/hooks', "b's stays the option's");
  t.equal(payemu.webhookUrl('acme'), 'http://127.0.0.1:9/hooks', "and so does the default's");
  await a.webhook.clear();
  t.equal(a.webhookUrl('acme'), 'http://127.0.0.1:9/hooks');
  t.notOk('close' in a, 'the emulator closes, not a namespace');
  t.notOk('dataDir' in a);

  const aSeen: string[] = [];
  const rootSeen: (string | undefined)[] = [];
  a.events.on((event) => aSeen.push(event.name));
  b.bus.on('domain', (event) => t.notOk(event.source === 'nobody', 'b hears its own'));
  payemu.bus.on('domain', (event) => rootSeen.push((event as { namespace?: string }).namespace));

  t.equal(await paidWith(payemu.url, a.keys.test, 'order-1'), '1', "a's first payment is 1");
  t.equal(await paidWith(payemu.url, b.keys.test, 'order-1'), '1', "b's first payment is 1, the same reference allowed");
  t.equal(await paidWith(payemu.url, a.keys.test, 'order-2'), '2');
  t.equal(await paidWith(payemu.url, KEY, 'order-1'), '1', "the default's own count");

  t.ok(aSeen.includes('payment.completed'), 'a.events.on hears a');
  t.equal(a.events.list({ event: 'payment.completed' }).length, 2, "a's log: a's two");
  t.equal(b.events.list({ event: 'payment.completed' }).length, 1);
  t.equal(payemu.events.list({ event: 'payment.completed' }).length, 1, "the default's log: its own");
  t.ok(rootSeen.includes('a') && rootSeen.includes('b-2') && rootSeen.includes(undefined), "the emulator's bus hears every namespace, tagged");

  const moved = await a.clock.advance('30d');
  t.equal(moved.now, '2030-01-31T00:00:00.000000Z');
  t.equal(a.clock.now(), '2030-01-31T00:00:00.000000Z');
  t.equal(b.clock.now(), '2030-01-01T00:00:00.000000Z', "b's clock stayed");
  t.equal(payemu.clock.now(), '2030-01-01T00:00:00.000000Z', "the default's clock stayed");

  t.equal(a.requests().total, 2, "a's journal: its two /v1 requests");
  t.equal(a.requests({ key: a.keys.live }).total, 0, "a key with a's suffix names a's journal");
  t.equal(payemu.requests().total, 1, "the default's: its one");
  t.throws(() => a.requests({ key: KEY }), TypeError, "in a namespace, a key without its suffix is another namespace's: refused");
  t.throws(() => payemu.requests({ key: a.keys.test }), TypeError, "and a's key is no key of the default's");

  const again = await payemu.namespace('a');
  t.equal(again.clock.now(), '2030-01-31T00:00:00.000000Z', 'the same namespace again');
  t.same(
    (await payemu.namespaces.list()).map((n: { name: string }) => n.name),
    ['a', 'b-2'],
  );
  await payemu.idle();
  await a.idle();
});

t.test('an invalid name is a RangeError saying what a name allows, and makes nothing', async (t) => {
  const payemu = await startEmulator();
  t.teardown(() => payemu.close());
  for (const name of ['', 'W3', 'a~b', 'x'.repeat(33), 'a b'])
    await t.rejects(
      payemu.namespace(name),
      { name: 'RangeError', message: /a namespace name is 1 to 32 characters of a-z, 0-9, _ and -/ },
      JSON.stringify(name),
    );
  t.same(await payemu.namespaces.list(), []);
});

t.test('one namespace more than maxNamespaces allows is a RangeError naming the limit', async (t) => {
  const payemu = await startEmulator({ maxNamespaces: 1 });
  t.teardown(() => payemu.close());
  await payemu.namespace('one');
  await t.rejects(payemu.namespace('two'), { name: 'RangeError', message: /max-namespaces/ });
});
