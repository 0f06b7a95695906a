import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import t from 'tap';
import { verifyWebhook } from '../../src/index.js';
import { assertError, emulator, pay, savedCard, type TestEmulator } from '../helpers/emulator.js';
import { receiver, type Received } from '../helpers/receiver.js';
import { sentInvoice } from '../helpers/invoice.js';

// payemu's webhook chaos (`/_payemu/webhook-chaos`) and scripted outcomes (`/_payemu/outcomes`):
// the testing tools that make deliveries and card attempts misbehave on purpose. Each test is
// titled with the sentence it checks. Webhook backoff 0,0,0; no real sleeps beyond a delay of a
// few milliseconds.

const SECRET = 'whsec_payemu_acme';
const fast = { webhookBackoff: '0,0,0', clockStart: '2027-01-31T09:00:00Z', freezeClock: true };
const put = (e: TestEmulator, body: unknown) => e.api.request('PUT', '/_payemu/webhook-chaos', body);
const sign = (t: string, body: string, secret = SECRET) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
const parts = (header: unknown) => {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header)) ?? [];
  return { t: t!, v1: v1! };
};
/** The attempts of the event of `reference` as `[status, chaos]`. */
const attempts = async (e: TestEmulator, reference: string) => {
  const [event] = (await e.api.get(`/_payemu/events?reference=${reference}`)).body.events;
  const one = (await e.api.get(`/_payemu/events/${event.id}`)).body;
  return one.attempts.map((a: { status: number; chaos: string | null }) => [a.status, a.chaos]);
};
/** A receiver that checks signatures as a careful handler does (a 400 when verification fails). */
const verifying = (req: Received, res: ServerResponse) => {
  try {
    verifyWebhook(req.body, req.headers['x-webhook-signature'] as string, SECRET);
    res.end('ok');
  } catch (error) {
    res.statusCode = 400;
    res.end((error as Error).message);
  }
};

t.test(
  'PUT /_payemu/webhook-chaos {duplicate, delay, stale_timestamp, bad_signature, seed} (each optional); GET reads it; PUT replaces the settings; after DELETE, GET answers {}',
  async (t) => {
    const e = await emulator(t, fast);
    const all = { duplicate: 0.2, delay: '5s', stale_timestamp: 0.1, bad_signature: 0.1, seed: 7 };
    const res = await put(e, all);
    t.equal(res.status, 200);
    t.same(res.body, all, 'answers the settings');
    t.same((await e.api.get('/_payemu/webhook-chaos')).body, all);
    t.equal((await put(e, { bad_signature: 0.5, seed: 3 })).status, 200);
    t.same((await e.api.get('/_payemu/webhook-chaos')).body, { bad_signature: 0.5, seed: 3 }, 'replaced: a field left out is off');
    t.same((await e.globex.get('/_payemu/webhook-chaos')).body, {}, "another Source's is its own");
    for (const bad of [{ duplicate: 2 }, { delay: 'soon' }, { shuffle: 1 }]) assertError(t, await put(e, bad), 422);
    t.same((await e.api.get('/_payemu/webhook-chaos')).body, { bad_signature: 0.5, seed: 3 }, 'a refused PUT changes nothing');
    const off = await e.api.request('DELETE', '/_payemu/webhook-chaos');
    t.equal(off.status, 200);
    t.same(off.body, {});
    t.same((await e.api.get('/_payemu/webhook-chaos')).body, {});
  },
);

t.test('duplicate: the delivery is sent a second time (same event, same body); the log says duplicate on the second copy', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  await put(e, { duplicate: 1 });
  await pay(e, { amount: 5, reference: 'ch-dup' });
  await e.idle();
  t.equal(r.received.length, 2);
  const [first, second] = r.received as [Received, Received];
  t.equal(second.body, first.body, 'the same body');
  t.equal(second.headers['x-webhook-event-id'], first.headers['x-webhook-event-id'], 'the same event');
  t.same(await attempts(e, 'ch-dup'), [
    [200, null],
    [200, 'duplicate'],
  ]);
});

t.test('stale_timestamp: signed with a t= 10 minutes old; bad_signature: signed with a wrong secret; delay: the attempt is delayed', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  await put(e, { stale_timestamp: 1 });
  await pay(e, { amount: 5, reference: 'ch-stale' });
  await e.idle();
  const stale = r.received[0]!;
  const { t: at, v1 } = parts(stale.headers['x-webhook-signature']);
  const age = Date.now() / 1000 - Number(at);
  t.ok(age >= 595 && age <= 620, `t= is 10 minutes old (${age} s)`);
  t.equal(v1, sign(at, stale.body), 'rightly signed with the Source secret, for that t=');
  t.same(await attempts(e, 'ch-stale'), [[200, 'stale_timestamp']]);

  await put(e, { bad_signature: 1 });
  await pay(e, { amount: 5, reference: 'ch-bad' });
  await e.idle();
  const bad = r.received[1]!;
  const signed = parts(bad.headers['x-webhook-signature']);
  t.ok(Math.abs(Date.now() / 1000 - Number(signed.t)) < 60, 't= is now');
  t.not(signed.v1, sign(signed.t, bad.body), 'not the HMAC with the Source secret');
  t.same(await attempts(e, 'ch-bad'), [[200, 'bad_signature']]);

  await put(e, { delay: '5ms' });
  await pay(e, { amount: 5, reference: 'ch-delay' });
  await e.idle();
  t.same(await attempts(e, 'ch-delay'), [[200, 'delayed']]);
  t.equal(r.received.length, 3);

  await e.api.request('DELETE', '/_payemu/webhook-chaos');
  await pay(e, { amount: 5, reference: 'ch-none' });
  await e.idle();
  t.same(await attempts(e, 'ch-none'), [[200, null]], 'chaos: null');
});

t.test(
  'A receiver that rightly refuses a stale or badly signed attempt gets a correct retry: chaos touches first attempts only, and a retry carries none',
  async (t) => {
    const r = await receiver(t, verifying);
    const e = await emulator(t, { ...fast, webhookUrl: r.url });
    await put(e, { stale_timestamp: 1 });
    await pay(e, { amount: 5, reference: 'ch-r-stale' });
    await e.idle();
    await put(e, { bad_signature: 1 });
    await pay(e, { amount: 5, reference: 'ch-r-bad' });
    await e.idle();
    t.same(await attempts(e, 'ch-r-stale'), [
      [400, 'stale_timestamp'],
      [200, null],
    ]);
    t.same(await attempts(e, 'ch-r-bad'), [
      [400, 'bad_signature'],
      [200, null],
    ]);
    for (const reference of ['ch-r-stale', 'ch-r-bad']) {
      const [event] = (await e.api.get(`/_payemu/events?reference=${reference}`)).body.events;
      t.equal(event.delivery_status, 'delivered');
    }
  },
);

t.test('The seed makes the pattern repeat: each PUT starts the generator again from it', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  const run = async (prefix: string) => {
    await put(e, { duplicate: 0.5, bad_signature: 0.3, seed: 7 });
    const marks: string[] = [];
    for (let i = 0; i < 8; i++) {
      await pay(e, { amount: 1, reference: `${prefix}-${i}` });
      await e.idle();
      marks.push((await attempts(e, `${prefix}-${i}`)).map((a: unknown[]) => a[1] ?? '-').join('+'));
    }
    return marks.join(' ');
  };
  const first = await run('seed-a');
  t.match(first, /duplicate/);
  t.equal(await run('seed-b'), first);
});

// Scripted outcomes.

const script = (e: TestEmulator, body: Record<string, unknown>) => e.api.post('/_payemu/outcomes', body);
const outcomes = async (e: TestEmulator) => (await e.api.get('/_payemu/outcomes')).body.outcomes as Record<string, any>[];
const charge = async (e: TestEmulator, pm: string, reference: string) => {
  const res = await e.api.post('/v1/charges', { payment_method: pm, amount: 5, reference });
  return res.body.data.attributes as Record<string, any>;
};

t.test(
  'POST /_payemu/outcomes {"payment_method": "pm_..."} with "sequence" makes the next matching payment attempts take those outcomes in order, then the card\'s own again; 201 {id, payment_method, sequence, remaining}',
  async (t) => {
    const e = await emulator(t, fast);
    const pm = await savedCard(e);
    const created = await script(e, { payment_method: pm, sequence: ['approved', 'insufficient_funds', 'card_declined'] });
    t.equal(created.status, 201);
    t.same(created.body, { id: created.body.id, payment_method: pm, sequence: ['approved', 'insufficient_funds', 'card_declined'], remaining: 3 });
    t.match(created.body.id, /^out_/);
    t.match(await charge(e, pm, 'so-1'), { status: 'PAID' });
    t.match(await outcomes(e), [{ id: created.body.id, remaining: 2 }]);
    t.match(await charge(e, pm, 'so-2'), { status: 'FAILED', failure_code: 'insufficient_funds' });
    t.match(await charge(e, pm, 'so-3'), { status: 'FAILED', failure_code: 'card_declined' });
    t.same(await outcomes(e), [], 'a used-up script leaves the list');
    t.match(await charge(e, pm, 'so-4'), { status: 'PAID' }, "then the card's own again");
  },
);

t.test('A second script for the same target replaces the first; GET /_payemu/outcomes ({"outcomes": [...]}) and DELETE /_payemu/outcomes', async (t) => {
  const e = await emulator(t, fast);
  const pm = await savedCard(e);
  await script(e, { payment_method: pm, sequence: ['card_declined', 'card_declined'] });
  const second = await script(e, { payment_method: pm, sequence: ['expired_card'] });
  await script(e, { reference: 'so-ref', sequence: ['approved'] });
  const listed = await e.api.get('/_payemu/outcomes');
  t.same(Object.keys(listed.body), ['outcomes']);
  t.same(
    listed.body.outcomes.map((s: Record<string, any>) => [s.payment_method ?? s.reference, s.sequence]),
    [
      [pm, ['expired_card']],
      ['so-ref', ['approved']],
    ],
    'the second replaced the first',
  );
  t.equal(listed.body.outcomes[0].id, second.body.id);
  t.same((await e.globex.get('/_payemu/outcomes')).body, { outcomes: [] }, "the key's Source and mode only");
  const removed = await e.api.request('DELETE', '/_payemu/outcomes');
  t.equal(removed.status, 200);
  t.same(removed.body, { removed: 2 });
  t.same(await outcomes(e), []);
  t.match(await charge(e, pm, 'so-after'), { status: 'PAID' }, 'removed scripts no longer act');
  for (const bad of [
    { sequence: ['approved'] },
    { payment_method: pm, reference: 'x', sequence: ['approved'] },
    { reference: 'x', sequence: [] },
    { reference: 'x', sequence: ['approved', 'maybe'] },
    { payment_method: 'pm_nope', sequence: ['approved'] },
    { schedule: 'nope', sequence: ['approved'] },
  ]) {
    assertError(t, await script(e, bad), 422);
  }
  t.same(await outcomes(e), [], 'a refused script stores nothing');
});

t.test("A reference script wins over a schedule's, a schedule's over a card's", async (t) => {
  const e = await emulator(t, fast);
  const pm = await savedCard(e);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'monthly', reference: 'so-sub', start_date: '2027-02-01' });
  await script(e, { payment_method: pm, sequence: ['expired_card', 'expired_card', 'expired_card'] });
  await script(e, { schedule: 'so-sub', sequence: ['card_declined', 'card_declined'] });
  await script(e, { reference: 'so-sub-0001', sequence: ['incorrect_cvc'] });
  await e.api.post('/_payemu/clock/advance', { by: '1d' });
  t.match((await e.api.get('/v1/payments/so-sub-0001')).body.data.attributes, { status: 'FAILED', failure_code: 'incorrect_cvc' }, 'the reference first');
  await e.api.post('/_payemu/clock/advance', { by: '1d' });
  t.match(
    (await e.api.get('/v1/payments/so-sub-0001')).body.data.attributes,
    { status: 'FAILED', failure_code: 'card_declined' },
    "then the schedule's (its retry)",
  );
  t.match(await charge(e, pm, 'so-card'), { failure_code: 'expired_card' }, "a charge outside the schedule: the card's");
  t.same(
    (await outcomes(e)).map((s) => [s.payment_method ?? s.schedule ?? s.reference, s.remaining]),
    [
      [pm, 2],
      ['so-sub', 1],
    ],
    'only the winner takes a step',
  );
});

t.test('Every card payment attempt counts (checkout, charge, recurring charge, invoice, link); a 3-D Secure challenge still asks first', async (t) => {
  const e = await emulator(t, fast);
  const pm = await savedCard(e);
  const failed = { status: 'FAILED', failure_code: 'insufficient_funds' };

  await script(e, { reference: 'so-checkout', sequence: ['insufficient_funds'] });
  const { completed } = await pay(e, { amount: 3, reference: 'so-checkout' });
  t.match(completed.body.payment, failed, 'checkout');

  await script(e, { payment_method: pm, sequence: ['insufficient_funds'] });
  t.match(await charge(e, pm, 'so-charge'), failed, 'charge');

  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 2, frequency: 'monthly', reference: 'so-rec', start_date: '2027-02-01' });
  await script(e, { schedule: 'so-rec', sequence: ['insufficient_funds'] });
  await e.api.post('/_payemu/clock/advance', { by: '1d' });
  t.match((await e.api.get('/v1/payments/so-rec-0001')).body.data.attributes, failed, 'recurring charge');

  const invoice = await sentInvoice(e.api);
  await script(e, { reference: invoice, sequence: ['insufficient_funds'] });
  t.match((await e.api.post(`/_payemu/invoices/${invoice}/pay`, { card_number: '4242424242424242' })).body.payment, failed, 'invoice');

  const link = await e.api.post('/v1/payment-links', { title: 'x', amount: 2 });
  await script(e, { reference: String(link.body.data.id), sequence: ['insufficient_funds'] });
  t.match((await e.api.post(`/_payemu/payment-links/${link.body.data.id}/pay`, { card_number: '4242424242424242' })).body.payment, failed, 'payment link');
  t.same(await outcomes(e), [], 'each took its step');

  await script(e, { reference: 'so-3ds', sequence: ['approved'] });
  const session = await e.api.post('/v1/sessions', { amount: 3, reference: 'so-3ds' });
  const asked = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4000002760003184' });
  assertError(t, asked, 422);
  t.match(await outcomes(e), [{ reference: 'so-3ds', remaining: 1 }], 'the challenge asks first, and takes no step');
  const answered = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4000002760003184', three_ds: 'fail' });
  t.match(answered.body.payment, { status: 'PAID' }, 'once answered, the script decides');
});
