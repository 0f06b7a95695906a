import t from 'tap';
import { client, emulator, pay, savedCard } from '../helpers/emulator.js';
import { streamReader } from '../helpers/stream.js';

// The rest of a namespace's state: the event stream, rate-limit windows, scripted outcomes,
// snapshots, the library's bus. Each is its namespace's alone.

const KEY = 'sk_test_payemu_acme';

t.test("the event stream of a namespace sends that namespace's events only", async (t) => {
  const e = await emulator(t);
  const a = client(e.url, `${KEY}~a`);
  const controller = new AbortController();
  const res = await fetch(`${e.url}/_payemu/events/stream?key=${KEY}~a`, { signal: controller.signal });
  t.equal(res.status, 200);
  const stream = streamReader(res);
  const until = stream.until;
  await until(/payemu event stream/);
  await pay(e, { amount: 10, reference: 'in-default' });
  await pay(e, { amount: 11, reference: 'in-a' }, '4242424242424242', a);
  await until(/"reference":"in-a"/);
  t.notMatch(stream.text(), /in-default/, "the default's payment is not in a's stream");
  controller.abort();
});

t.test('rate-limit windows are per namespace', async (t) => {
  const e = await emulator(t, { rateLimit: true, config: { sources: [{ slug: 'acme', rate_limit_per_minute: 2 }] } });
  const a = client(e.url, `${KEY}~a`);
  const b = client(e.url, `${KEY}~b`);
  t.equal((await a.get('/v1/me')).status, 200);
  t.equal((await a.get('/v1/me')).status, 200);
  t.equal((await a.get('/v1/me')).status, 429, "a's window is used up");
  const inB = await b.get('/v1/me');
  t.equal(inB.status, 200, "b's window is its own");
  t.equal(inB.headers.get('x-ratelimit-remaining'), '1');
  t.equal((await e.api.get('/v1/me')).status, 200, "and so is the default's");
});

t.test('scripted outcomes act in their namespace only', async (t) => {
  const e = await emulator(t);
  const a = client(e.url, `${KEY}~a`);
  const inA = await savedCard(e, '4242424242424242', a);
  const inDefault = await savedCard(e);
  t.equal((await a.post('/_payemu/outcomes', { payment_method: inA, sequence: ['insufficient_funds'] })).status, 201);
  t.same((await e.api.get('/_payemu/outcomes')).body.outcomes, [], 'none in the default');
  const charged = await e.api.post('/v1/charges', { payment_method: inDefault, amount: 5 });
  t.match(charged.body.data.attributes, { status: 'PAID' }, "the default's charge is not touched by a's script");
  const refused = await a.post('/v1/charges', { payment_method: inA, amount: 5 });
  t.match(refused.body.data.attributes, { failure_code: 'insufficient_funds' }, "a's script declines a's charge");
});

t.test("a snapshot is of the key's namespace; importing one fills that namespace only", async (t) => {
  const e = await emulator(t);
  const a = client(e.url, `${KEY}~a`);
  const b = client(e.url, `${KEY}~b`);
  await pay(e, { amount: 1, reference: 'only-in-a' }, '4242424242424242', a);
  await pay(e, { amount: 2, reference: 'only-in-default' });
  const exported = await a.get('/_payemu/snapshot?scope=all');
  t.equal(exported.status, 200);
  const text = JSON.stringify(exported.body);
  t.match(text, /only-in-a/);
  t.notMatch(text, /only-in-default/, "the default's records are not in a's snapshot");
  t.equal((await b.post('/_payemu/snapshot', exported.body)).status, 200);
  t.equal((await b.get('/v1/payments/only-in-a')).status, 200, 'imported into b');
  t.equal((await e.api.get('/v1/payments/only-in-a')).status, 404, 'not into the default');
  t.equal((await e.api.get('/v1/payments/only-in-default')).status, 200);
});

t.test("emulator.bus hears a named namespace's events with its name; emulator.events.on the default's only", async (t) => {
  const e = await emulator(t);
  const heard: (string | undefined)[] = [];
  const off = e.bus.on('domain', (event) => heard.push(`${event.name}@${event.namespace ?? 'default'}`));
  const own: string[] = [];
  const offOwn = e.events.on((event) => own.push(event.name));
  await pay(e, { amount: 1 }, '4242424242424242', client(e.url, `${KEY}~a`));
  await pay(e, { amount: 1 });
  off();
  offOwn();
  t.same(heard, ['payment.completed@a', 'payment.completed@default']);
  t.same(own, ['payment.completed']);
});
