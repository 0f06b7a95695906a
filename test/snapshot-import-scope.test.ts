import http from 'node:http';
import t, { type Test } from 'tap';
import { SNAPSHOT_BODY_LIMIT } from '../src/control/snapshot.js';
import { assertError, emulator, pay, type Client, type TestEmulator, savedCard } from './helpers/emulator.js';
import { checkAgainstOpenApi } from './helpers/openapi.js';

/** Sends only the head of a POST declaring `length` bytes, and resolves with the answer that comes before any body byte. */
function declareOnly(url: string, path: string, length: number): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_test_payemu_acme', 'Content-Type': 'application/json', 'Content-Length': String(length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode!, type: res.headers['content-type'], text });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

t.test('a snapshot body over the limit (500 MiB, below what V8 can hold as one string) is a 413 before the body is read', async (t) => {
  t.equal(SNAPSHOT_BODY_LIMIT, 500 * 1024 * 1024);
  const e = await emulator(t);
  // The head alone: the answer must come without a byte of the body (none is ever sent).
  const answer = await declareOnly(e.url, '/_payemu/snapshot', SNAPSHOT_BODY_LIMIT + 1);
  t.equal(answer.status, 413);
  checkAgainstOpenApi('POST', '/_payemu/snapshot', answer.status, answer.type ?? null, answer.text);
  t.match(JSON.parse(answer.text), { errors: [{ status: '413', detail: 'The request body is larger than 500 MiB.' }] });
  t.equal((await e.api.get('/_payemu/health')).status, 200, 'payemu answers on');
});

const START = '2027-01-31T09:00:00Z';
const LIVE_CARD = '4111111111111111'; // Luhn-valid, not a test card: approved in live mode

const invoiceBody = {
  customer_name: 'Ada',
  customer_email: 'ada@example.com',
  currency: 'USD',
  due_date: '2027-06-30',
  items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
};

/** A run's state in one Source and mode: a link paid through, a payment refunded in part, a saved card charged, an invoice paid, an open session. */
async function scopeState(t: Test, e: TestEmulator, as: Client, card: string, prefix: string) {
  const link = await as.post('/v1/payment-links', { title: `${prefix} tee`, amount: 20 });
  t.equal(link.status, 201, link.text);
  t.equal((await as.post(`/_payemu/payment-links/${link.body.data.id}/pay`, { card_number: card })).status, 200);
  await pay(e, { amount: 10, reference: `${prefix}-order-1` }, card, as);
  t.equal((await as.post(`/v1/payments/${prefix}-order-1/refunds`, { amount: 2 })).status, 201);
  const pm = await savedCard(e, card, as);
  const charge = await as.post('/v1/charges', { payment_method: pm, amount: 5, reference: `${prefix}-charge-1` });
  t.equal(charge.status, 201, charge.text);
  const invoice = await as.post('/v1/invoices', invoiceBody);
  await as.post(`/v1/invoices/${invoice.body.data.id}/send`, {});
  t.equal((await as.post(`/_payemu/invoices/${invoice.body.data.id}/pay`, { card_number: card })).status, 200);
  const session = await as.post('/v1/sessions', { amount: 3, reference: `${prefix}-open` });
  await e.idle();
  return {
    link: link.body.data.id as string,
    pm,
    charge: charge.body.data.id as string,
    invoice: invoice.body.data.id as string,
    session: session.body.data.id as string,
  };
}

/** Every read of a scope, as the bytes answered. */
async function readsOf(as: Client, prefix: string, ids: Awaited<ReturnType<typeof scopeState>>) {
  const paths = [
    '/v1/payments?per_page=100',
    `/v1/payments/${prefix}-order-1?include=refunds`,
    `/v1/payments/${prefix}-charge-1`,
    `/v1/sessions/${ids.session}`,
    `/v1/charges/${ids.charge}`,
    '/v1/invoices',
    `/v1/invoices/${ids.invoice}`,
    '/v1/payment-links',
    `/v1/payment-links/${ids.link}`,
    '/_payemu/events?limit=1000',
  ];
  const answers: Record<string, string> = {};
  for (const path of paths) {
    const res = await as.get(path);
    answers[path] = `${res.status} ${res.text}`;
  }
  return answers;
}

/** Every `payment_id` and `payment_link_id` in a scope's snapshot names a payment or link of that snapshot. */
function assertReferencesResolve(t: Test, snapshot: any) {
  const payments = new Set(snapshot.data.payments.map((p: any) => p.id));
  const links = new Set(snapshot.data.payment_links.map((l: any) => l.id));
  let seen = 0;
  const walk = (value: any, where: string) => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (key === 'payment_id' && item !== null) {
        seen++;
        t.ok(payments.has(String(item)), `${where}.payment_id ${String(item)} is a payment of the snapshot`);
      } else if (key === 'payment_link_id') {
        seen++;
        t.ok(links.has(String(item)), `${where}.payment_link_id ${String(item)} is a link of the snapshot`);
      } else walk(item, `${where}.${key}`);
    }
  };
  for (const [name, records] of Object.entries(snapshot.data)) walk(records, name);
  t.ok(seen > 5, `references checked (${seen})`);
}

t.test('a scoped import into a run whose other scopes use the same ids renumbers payments and links and changes nothing of theirs', async (t) => {
  // The run the snapshot comes from: acme live.
  const from = await emulator(t, { clockStart: START, freezeClock: true });
  const liveIds = await scopeState(t, from, from.live, LIVE_CARD, 'live');
  const snapshot = (await from.live.get('/_payemu/snapshot')).body;
  t.same(snapshot.scope, { source: 'acme', mode: 'live' });
  const original = JSON.stringify(snapshot);

  // The run it goes to: acme test and globex test hold the same integer ids (1, 2, ...); acme live holds one old payment.
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const testIds = await scopeState(t, e, e.api, '4242424242424242', 'test');
  const globex = await pay(e, { amount: 4, reference: 'globex-1' }, '4242424242424242', e.globex);
  await pay(e, { amount: 6, reference: 'old-live' }, LIVE_CARD, e.live);
  await e.idle();
  const oldLive = (await e.live.get('/_payemu/snapshot')).body;
  const inLiveBefore = Object.entries(oldLive.data).reduce((n, [name, records]: [string, any]) => (name === 'meta' ? n : n + records.length), 0);
  const counterBefore = (await e.api.get('/_payemu/snapshot?all=true')).body.data.meta.find((m: any) => m.id === 'counter:payments').value;
  const acmeTest = await readsOf(e.api, 'test', testIds);
  const globexBefore = `${(await e.globex.get('/v1/payments?per_page=100')).text}${(await e.globex.get('/v1/payments/globex-1')).text}`;
  t.match(acmeTest['/v1/payments/test-order-1?include=refunds'], /^200 /);

  const imported = await e.live.post('/_payemu/snapshot', snapshot);
  t.equal(imported.status, 200, imported.text);
  t.equal(JSON.stringify(snapshot), original, 'the document sent is not what was changed (sanity)');
  t.equal(imported.body.removed, inLiveBefore, 'removed: the records acme live held before, no more');
  const renumbered = imported.body.renumbered;
  t.ok(Object.keys(renumbered.payments).length >= 4, `payments renumbered: ${JSON.stringify(renumbered)}`);
  t.same(Object.keys(renumbered.payment_links), [liveIds.link], 'the link whose id acme test uses is renumbered');
  const snapshotCounter = snapshot.data.meta.find((m: any) => m.id === 'counter:payments').value;
  for (const id of Object.values(renumbered.payments) as number[]) t.ok(id > Math.max(counterBefore, snapshotCounter), `new id ${id} is above both counters`);

  t.same(await readsOf(e.api, 'test', testIds), acmeTest, "acme test's reads are byte-identical");
  t.equal(`${(await e.globex.get('/v1/payments?per_page=100')).text}${(await e.globex.get('/v1/payments/globex-1')).text}`, globexBefore, "globex's too");
  t.ok(globex.completed.body.payment, 'globex paid');

  // acme live is the snapshot's, every reference following its record's new id.
  const live = (await e.live.get('/_payemu/snapshot')).body;
  assertReferencesResolve(t, live);
  t.equal(live.data.payments.length, snapshot.data.payments.length);
  const order = await e.live.get('/v1/payments/live-order-1?include=refunds');
  const oldOrderId = snapshot.data.payments.find((p: any) => p.reference === 'live-order-1').id;
  t.equal(order.body.data.id, String(renumbered.payments[oldOrderId] ?? oldOrderId));
  t.equal(order.body.included?.length, 1, 'its refund follows it');
  const charge = await e.live.get(`/v1/charges/${liveIds.charge}`);
  t.equal(String(charge.body.data.attributes.payment_id), (await e.live.get('/v1/payments/live-charge-1')).body.data.id);
  const invoice = await e.live.get(`/v1/invoices/${liveIds.invoice}`);
  t.ok(
    live.data.payments.some((p: any) => Number(p.id) === invoice.body.data.attributes.payment_id),
    "the invoice's payment is its new id",
  );
  const newLink = String(renumbered.payment_links[liveIds.link]);
  t.match((await e.live.get(`/v1/payment-links/${newLink}`)).body.data, { id: newLink, attributes: { title: 'live tee', uses_count: 1 } });
  const events = (await e.live.get('/_payemu/events?limit=1000')).body.events;
  t.equal(events.length, snapshot.data.events.length);
  for (const event of events.filter((x: any) => x.payload.data.payment_id !== undefined))
    t.ok(
      live.data.payments.some((p: any) => Number(p.id) === event.payload.data.payment_id),
      `${event.type ?? event.payload.event} names a payment of acme live`,
    );
  t.equal((await e.live.get('/v1/payments/old-live')).status, 404, 'what acme live held before is gone');

  // New ids keep counting above the renumbered ones; a second import renumbers again and still leaves acme test alone.
  const after = await pay(e, { amount: 1, reference: 'after' });
  t.ok(Number(after.completed.body.payment.id) > Math.max(...(Object.values(renumbered.payments) as number[])));
  const again = await e.live.post('/_payemu/snapshot', snapshot);
  t.equal(again.status, 200);
  t.equal(
    again.body.removed,
    Object.entries(live.data).reduce((n, [name, records]: [string, any]) => (name === 'meta' ? n : n + records.length), 0),
  );
  const acmeTestNow = await readsOf(e.api, 'test', testIds);
  t.same(acmeTestNow['/v1/payments/test-order-1?include=refunds'], acmeTest['/v1/payments/test-order-1?include=refunds']);
});

t.test(
  'a scoped import whose random id (cs_, pm_, inv_, ch_, re_, event) or reference another scope uses is a 422 naming it, and nothing changes',
  async (t) => {
    const from = await emulator(t, { clockStart: START, freezeClock: true });
    await scopeState(t, from, from.live, LIVE_CARD, 'live');
    const snapshot = (await from.live.get('/_payemu/snapshot')).body;
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    const testIds = await scopeState(t, e, e.api, '4242424242424242', 'test');
    await pay(e, { amount: 6, reference: 'old-live' }, LIVE_CARD, e.live);
    await e.idle();
    const theirs = (await e.api.get('/_payemu/snapshot')).body;
    const acmeTest = await readsOf(e.api, 'test', testIds);
    const liveBefore = (await e.live.get('/v1/payments?per_page=100')).text;
    for (const name of ['sessions', 'payment_methods', 'invoices', 'charges', 'refunds', 'events']) {
      const taken = theirs.data[name][0].id;
      const records = snapshot.data[name].map((r: any, i: number) => (i === 0 ? { ...r, id: taken } : r));
      const answer = await e.live.post('/_payemu/snapshot', { ...snapshot, data: { ...snapshot.data, [name]: records } });
      assertError(t, answer, 422, new RegExp(`data\\.${name}\\.0: the id "${taken}" is already used by a record of another Source or mode`));
      t.ok(answer.body.errors[0].source?.pointer ?? answer.body.errors[0].meta ?? true);
    }
    // A reference belongs to one Source per mode: globex's is refused in acme's import.
    await pay(e, { amount: 4, reference: 'globex-1' }, '4242424242424242', e.globex);
    const acmeTestSnapshot = (await e.api.get('/_payemu/snapshot')).body;
    const payments = acmeTestSnapshot.data.payments.map((p: any, i: number) => (i === 0 ? { ...p, reference: 'globex-1' } : p));
    assertError(
      t,
      await e.api.post('/_payemu/snapshot', { ...acmeTestSnapshot, data: { ...acmeTestSnapshot.data, payments } }),
      422,
      /the reference "globex-1" is already used by another Source in test mode/,
    );
    t.same(await readsOf(e.api, 'test', testIds), acmeTest, 'acme test unchanged');
    t.equal((await e.live.get('/v1/payments?per_page=100')).text, liveBefore, 'acme live unchanged');
    t.equal((await e.globex.get('/v1/payments/globex-1')).status, 200);
  },
);

t.test(
  "an `all` snapshot's clock: at most 3653 days ahead of the running clock, sane fields, and its due work runs in batches while other requests are answered",
  async (t) => {
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    const pm = await savedCard(e, '4242424242424242', e.api);
    for (let i = 0; i < 10; i++) await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'daily', start_date: '2027-02-01' });
    await e.idle();
    const snapshot = (await e.api.get('/_payemu/snapshot?all=true')).body;
    const before = (await e.api.get('/v1/payments?per_page=100')).text;
    const at = (now: string) => ({ ...snapshot, clock: { ...snapshot.clock, now } });
    const bad: [unknown, string, RegExp][] = [
      [at('9999-06-01T00:00:00Z'), 'clock.now', /more than 3653 days \(ten years, the limit of one advance\) ahead/],
      [at('2037-02-01T09:00:00.001Z'), 'clock.now', /more than 3653 days/],
      [at('1969-12-31T23:59:59Z'), 'clock.now', /between 1970-01-01 and 9999-12-31/],
      [{ ...snapshot, clock: { ...snapshot.clock, offset_seconds: 1e300 } }, 'clock.offset_seconds', /whole number of seconds/],
      [{ ...snapshot, clock: { ...snapshot.clock, offset_seconds: 1.5 } }, 'clock.offset_seconds', /whole number of seconds/],
      [{ ...snapshot, clock: { ...snapshot.clock, frozen: 'yes' } }, 'clock.frozen', /true or false/],
    ];
    for (const [document, field, message] of bad) {
      const res = await e.api.post('/_payemu/snapshot?all=true', document);
      assertError(t, res, 422, message);
      t.same(Object.keys(res.body.errors[0].meta.errors), [field], `names ${field}`);
    }
    const scoped = (await e.api.get('/_payemu/snapshot')).body;
    assertError(t, await e.api.post('/_payemu/snapshot', { ...scoped, clock: { ...scoped.clock, offset_seconds: -1e20 } }), 422, /offset_seconds/);
    t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-31T09:00:00.000000Z', 'the clock did not move');
    t.equal((await e.api.get('/v1/payments?per_page=100')).text, before, 'nothing was written');

    // Ten years is allowed (the advance's own limit); 1,000 days of ten daily schedules run in batches.
    t.equal((await e.api.post('/_payemu/snapshot?all=true', at('2037-01-31T09:00:00Z'))).status, 200, 'exactly 3653 days ahead is allowed');
    await e.api.post('/_payemu/snapshot?all=true', snapshot);
    let imported = false;
    const importing = e.api.post('/_payemu/snapshot?all=true', at('2029-10-28T09:00:00Z')).then((res) => {
      imported = true;
      return res;
    });
    let answeredDuring = 0;
    while (!imported) {
      const started = Date.now();
      const health = await e.anon.get('/_payemu/health');
      t.equal(health.status, 200);
      if (!imported) {
        answeredDuring++;
        t.ok(Date.now() - started < 2000, 'health answers while the work runs');
      }
    }
    const res = await importing;
    t.equal(res.status, 200, res.text);
    t.equal(res.body.now, '2029-10-28T09:00:00.000000Z');
    t.same(res.body.renumbered, {}, 'renumbered is always there: {} when nothing moved');
    t.ok(answeredDuring > 0, `${answeredDuring} health checks answered during the import's work`);
    const charges = (await e.api.get('/v1/payments?per_page=1')).body.meta.total;
    t.equal(charges, 1 + 10 * 1001, 'each schedule billed each day from Feb 1 2027 to Oct 28 2029 (1,001), once, before the answer');
  },
);
