import t from 'tap';
import { assertError, client, emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

// `PUT/GET/DELETE /_payemu/webhook`: a Source's own webhook destination, set at run time, over the
// config's webhook_url and --webhook-url, per namespace; and the `Payemu-Namespace` header of a named namespace's deliveries.

const fast = { webhookBackoff: '0,0,0' };

/** The event names a receiver got, in order. */
const names = (r: { received: { headers: Record<string, unknown> }[] }) => r.received.map((x) => x.headers['x-webhook-event']);

async function paidAndDelivered(e: TestEmulator, reference: string, as = e.api) {
  await pay(e, { amount: 10, reference }, '4242424242424242', as);
  await e.idle();
}

t.test('GET answers the destination in force: none, then --webhook-url, not overridden', async (t) => {
  const bare = await emulator(t);
  t.same((await bare.api.get('/_payemu/webhook')).body, { source: 'acme', url: null, overridden: false });
  const r = await receiver(t);
  const e = await emulator(t, { webhookUrl: r.url });
  t.same((await e.api.get('/_payemu/webhook')).body, { source: 'acme', url: r.url, overridden: false });
  t.same((await e.globex.get('/_payemu/webhook')).body, { source: 'globex', url: r.url, overridden: false }, 'each key answers for its own Source');
});

t.test('PUT wins over --webhook-url, for this Source in both modes; DELETE goes back', async (t) => {
  const flag = await receiver(t);
  const mine = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: flag.url });
  const set = await e.api.request('PUT', '/_payemu/webhook', { url: mine.url });
  t.equal(set.status, 200);
  t.same(set.body, { source: 'acme', url: mine.url, overridden: true });
  t.same((await e.live.get('/_payemu/webhook')).body, { source: 'acme', url: mine.url, overridden: true }, 'the live key of the Source sees it too');
  t.same((await e.globex.get('/_payemu/webhook')).body, { source: 'globex', url: flag.url, overridden: false }, 'another Source is unaffected');
  t.equal(e.webhookUrl('acme'), mine.url, 'emulator.webhookUrl reads the destination in force');
  t.equal(e.webhookUrl('globex'), flag.url);

  await paidAndDelivered(e, 'test-1');
  await paidAndDelivered(e, 'live-1', e.live);
  await paidAndDelivered(e, 'globex-1', e.globex);
  t.equal(mine.received.length, 2, "acme's test and live events went to the URL set");
  t.equal(flag.received.length, 1, "globex's went to --webhook-url");
  t.same(
    e.events.list({ reference: 'test-1' })[0]!.attempts.map((a) => a.url),
    [mine.url],
    'the attempt logs the URL it went to',
  );

  const cleared = await e.api.request('DELETE', '/_payemu/webhook');
  t.equal(cleared.status, 200);
  t.same(cleared.body, { source: 'acme', url: flag.url, overridden: false });
  t.same((await e.api.request('DELETE', '/_payemu/webhook')).body, { source: 'acme', url: flag.url, overridden: false }, 'a second DELETE changes nothing');
  await paidAndDelivered(e, 'test-2');
  t.equal(mine.received.length, 2, 'nothing more to the URL cleared');
  t.equal(flag.received.length, 2, 'back to --webhook-url');
});

t.test("PUT wins over the config's webhook_url; /v1/me and the dashboard read the destination in force", async (t) => {
  const configured = await receiver(t);
  const mine = await receiver(t);
  const e = await emulator(t, { ...fast, config: { sources: [{ slug: 'acme', webhook_url: configured.url }] } });
  t.equal((await e.globex.get('/v1/me')).body.data.attributes.webhook_configured, false, 'globex has no endpoint');
  t.equal((await e.globex.request('PUT', '/_payemu/webhook', { url: mine.url })).status, 200);
  t.equal((await e.globex.get('/v1/me')).body.data.attributes.webhook_configured, true, 'a destination set at run time counts');
  const overview = await fetch(`${e.dashboardUrl}?source=globex&mode=test`);
  t.match(await overview.text(), mine.url, 'the dashboard overview shows the destination in force');

  t.same((await e.api.request('PUT', '/_payemu/webhook', { url: mine.url })).body, { source: 'acme', url: mine.url, overridden: true });
  await paidAndDelivered(e, 'over-config');
  t.same(names(mine), ['payment.completed']);
  t.equal(configured.received.length, 0, "the config's URL got nothing");
  t.same(
    (await e.api.request('DELETE', '/_payemu/webhook')).body,
    { source: 'acme', url: configured.url, overridden: false },
    "DELETE goes back to the config's",
  );
  await paidAndDelivered(e, 'config-again');
  t.equal(configured.received.length, 1);
});

t.test('a bad URL is a 422 in the envelope naming url, and changes nothing', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { webhookUrl: r.url });
  const before = (await e.api.get('/_payemu/webhook')).body;
  const cases: [unknown, RegExp][] = [
    [{ url: 'ftp://127.0.0.1/hooks' }, /absolute http:\/\/ or https:\/\/ URL/],
    [{ url: 'http:/127.0.0.1/hooks' }, /absolute http/],
    [{ url: '/webhooks' }, /absolute http/],
    [{ url: 'http://127.0.0.1:3001/web hooks' }, /absolute http/],
    [{ url: 'http://user:secret@127.0.0.1:3001/webhooks' }, /credentials/],
    [{ url: 'http://127.0.0.1:3001/webhooks#part' }, /fragment/],
    [{ url: `http://127.0.0.1/${'a'.repeat(2048)}` }, /2048|absolute http/],
    [{ url: 42 }, /url/],
    [{}, /url/],
    [{ url: 'http://127.0.0.1:3001/webhooks', other: 1 }, /other/],
  ];
  for (const [body, detail] of cases) {
    const res = await e.api.request('PUT', '/_payemu/webhook', body);
    assertError(t, res, 422, detail);
    t.ok(Object.keys(res.body.errors[0].meta?.errors ?? {}).length > 0, `${JSON.stringify(body).slice(0, 60)}: meta.errors names the field`);
  }
  t.same((await e.api.get('/_payemu/webhook')).body, before, 'nothing changed');
  t.throws(() => e.webhook.set('ftp://x/y'), { name: 'RangeError', message: /^webhook\.set: url: / }, 'the library refuses with a RangeError');
  t.same(e.webhook.get(), before);
});

t.test('--strict-webhook-urls refuses a private address written as one, at once', async (t) => {
  const e = await emulator(t, { strictWebhookUrls: true });
  assertError(t, await e.api.request('PUT', '/_payemu/webhook', { url: 'http://127.0.0.1:3001/webhooks' }), 422, /private or reserved/);
  assertError(t, await e.api.request('PUT', '/_payemu/webhook', { url: 'http://[::1]:3001/webhooks' }), 422, /private or reserved/);
  t.equal(
    (await e.api.request('PUT', '/_payemu/webhook', { url: 'https://example.com/webhooks' })).status,
    200,
    'a host name is resolved when an attempt goes out',
  );
});

t.test('a reset, and a reset of everything, leave the destination; a restart keeps it', async (t) => {
  const r = await receiver(t);
  const dataDir = t.testdir();
  const e = await emulator(t, { ...fast, dataDir, inMemory: false });
  e.webhook.set(r.url);
  t.equal((await e.api.post('/_payemu/reset')).status, 200);
  t.same(e.webhook.get(), { source: 'acme', url: r.url, overridden: true }, 'after a reset');
  t.equal((await e.api.post('/_payemu/reset', { all: true })).status, 200);
  t.same(e.webhook.get(), { source: 'acme', url: r.url, overridden: true }, 'after a reset of everything');
  await e.close();
  const again = await emulator(t, { ...fast, dataDir, inMemory: false });
  t.same(again.webhook.get(), { source: 'acme', url: r.url, overridden: true }, 'after a restart');
  await paidAndDelivered(again, 'after-restart');
  t.same(names(r), ['payment.completed']);
  t.same(again.webhook.clear(), { source: 'acme', url: null, overridden: false }, 'the library clears it');
  t.same(again.webhook.get({ source: 'globex' }), { source: 'globex', url: null, overridden: false }, 'the library names a Source');
});

t.test('snapshots: of everything, the destinations go with it; of one Source and mode, they stay', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t);
  e.webhook.set(r.url);
  const all = (await e.api.get('/_payemu/snapshot?all=true')).body;
  t.same(all.data.webhook_destinations, [{ id: 'acme', source: 'acme', url: r.url }]);
  const scoped = (await e.api.get('/_payemu/snapshot')).body;
  t.same(scoped.data.webhook_destinations, [], 'not in a snapshot of one Source and mode: it is of the Source, both modes');
  t.equal((await e.api.post('/_payemu/snapshot', scoped)).status, 200);
  t.same(e.webhook.get().overridden, true, 'a scoped import leaves it');
  e.webhook.clear();
  t.equal((await e.api.post('/_payemu/snapshot?all=true', all)).status, 200);
  t.same(e.webhook.get(), { source: 'acme', url: r.url, overridden: true }, 'an import of everything brings it back');
  const bad = structuredClone(all);
  bad.data.webhook_destinations[0].url = 'http://user:pw@127.0.0.1/x';
  const refused = await e.api.post('/_payemu/snapshot?all=true', bad);
  assertError(t, refused, 422, /credentials/);
  const wrongId = structuredClone(all);
  wrongId.data.webhook_destinations[0].id = 'globex';
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', wrongId), 422, /its Source/);
  const inScoped = structuredClone(scoped);
  inScoped.data.webhook_destinations = [{ id: 'acme', source: 'acme', url: r.url }];
  assertError(t, await e.api.post('/_payemu/snapshot', inScoped), 422, /another Source or mode/);
});

t.test('namespaces: each sets its own destination and gets only its own events, with Payemu-Namespace; the default sends no such header', async (t) => {
  const shared = await receiver(t);
  const r1 = await receiver(t);
  const r2 = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: shared.url });
  const w1 = client(e.url, 'sk_test_payemu_acme~w1');
  const w2 = client(e.url, 'sk_test_payemu_acme~w2');
  const w3 = client(e.url, 'sk_test_payemu_acme~w3');
  t.same((await w1.request('PUT', '/_payemu/webhook', { url: r1.url })).body, { source: 'acme', url: r1.url, overridden: true });
  t.same((await w2.request('PUT', '/_payemu/webhook', { url: r2.url })).body, { source: 'acme', url: r2.url, overridden: true });
  t.same((await e.api.get('/_payemu/webhook')).body, { source: 'acme', url: shared.url, overridden: false }, "the default's is its own");
  t.same(
    (await w3.get('/_payemu/webhook')).body,
    { source: 'acme', url: shared.url, overridden: false },
    'a namespace without one: the config and --webhook-url',
  );
  t.equal(e.webhookUrl('acme'), shared.url);

  await pay(e, { amount: 1, reference: 'one' }, '4242424242424242', w1);
  await pay(e, { amount: 2, reference: 'two' }, '4242424242424242', w2);
  await pay(e, { amount: 3, reference: 'three' }, '4242424242424242', w3);
  await pay(e, { amount: 4, reference: 'default' });
  await e.idle();

  const references = (r: typeof shared) => r.received.map((x) => JSON.parse(x.body).data.reference);
  const headers = (r: typeof shared) => r.received.map((x) => x.headers['payemu-namespace']);
  t.same(references(r1), ['one'], "w1's receiver gets w1's event only");
  t.same(headers(r1), ['w1']);
  t.same(references(r2), ['two'], "w2's receiver gets w2's event only");
  t.same(headers(r2), ['w2']);
  t.same(references(shared).sort(), ['default', 'three']);
  const byReference = Object.fromEntries(shared.received.map((x) => [JSON.parse(x.body).data.reference, x.headers['payemu-namespace']]));
  t.same(byReference, { three: 'w3', default: undefined }, "the default namespace's delivery carries no Payemu-Namespace");

  // Clearing one namespace's destination leaves the other's.
  t.same((await w1.request('DELETE', '/_payemu/webhook')).body, { source: 'acme', url: shared.url, overridden: false });
  t.same((await w2.get('/_payemu/webhook')).body, { source: 'acme', url: r2.url, overridden: true });
  // A setting, not a record a test makes: not among a namespace's counts.
  const listed = (await e.api.get('/_payemu/namespaces')).body.namespaces;
  t.ok(
    listed.every((n: { counts: Record<string, number> }) => !('webhook_destinations' in n.counts)),
    'not counted',
  );
  // A reset of everything in a namespace keeps its destination, as in the default.
  t.equal((await w2.post('/_payemu/reset', { all: true })).status, 200);
  t.same((await w2.get('/_payemu/webhook')).body.overridden, true);
});

t.test("namespaces: a retry due in one namespace is made by that namespace's advance, not another's", async (t) => {
  let calls = 0;
  const r1 = await receiver(t, (_req, res) => {
    res.statusCode = ++calls === 1 ? 500 : 200;
    res.end();
  });
  const r2 = await receiver(t);
  const e = await emulator(t, { webhookBackoff: '1h,1h,1h', freezeClock: true });
  const w1 = client(e.url, 'sk_test_payemu_acme~w1');
  const w2 = client(e.url, 'sk_test_payemu_acme~w2');
  await w1.request('PUT', '/_payemu/webhook', { url: r1.url });
  await w2.request('PUT', '/_payemu/webhook', { url: r2.url });
  await pay(e, { amount: 1, reference: 'retry-me' }, '4242424242424242', w1);
  await e.idle();
  t.equal(r1.received.length, 1, 'the first attempt failed');
  t.equal((await w2.post('/_payemu/clock/advance', { by: '2h' })).status, 200);
  await e.idle();
  t.equal(r1.received.length, 1, "w2's advance made no retry of w1's");
  t.equal((await w1.post('/_payemu/clock/advance', { by: '2h' })).status, 200);
  await e.idle();
  t.equal(r1.received.length, 2, "w1's advance made it");
  t.equal(r1.received[1]!.headers['payemu-namespace'], 'w1');
  t.equal(r2.received.length, 0);
});
