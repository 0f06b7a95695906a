import t, { type Test } from 'tap';
import { type Answer, assertError, type Client, emulator, pay, savedCard } from '../helpers/emulator.js';
import { sentInvoice } from '../helpers/invoice.js';

// payemu's control plane and `Idempotency-Key`: a control-plane POST that changes state either
// honours the key exactly as /v1 does or refuses it with a 400, and never answers 5xx for work
// it did. payemu honours it on every control-plane POST. Each test is titled with the sentence
// it checks.

const START = '2027-01-31T09:00:00Z';
const key = (k: string) => ({ 'Idempotency-Key': k });

/** The second answer is the first's replay: its status, its body byte for byte, Idempotent-Replayed. */
function replayed(t: Test, first: Answer, again: Answer, what: string): void {
  t.ok(first.status < 500, `${what}: ${first.status}, not a 5xx`);
  t.equal(again.status, first.status, `${what}: the original status`);
  t.equal(again.text, first.text, `${what}: the byte-identical body`);
  t.equal(first.headers.get('idempotent-replayed'), null, `${what}: the first is not a replay`);
  t.equal(again.headers.get('idempotent-replayed'), 'true', `${what}: Idempotent-Replayed: true`);
}

/** Sends `body` twice to `path` with one key, then another body with it: a replay, then a 409. */
async function honoured(t: Test, as: Client, path: string, body: unknown, other: unknown, name: string) {
  const first = await as.post(path, body, key(name));
  replayed(t, first, await as.post(path, body, key(name)), name);
  assertError(t, await as.post(path, other, key(name)), 409, /Idempotency-Key/);
  return first;
}

t.test(
  'clock/advance honours Idempotency-Key exactly as /v1 does: the replay of the original status and byte-identical body; 409 for another body; the work runs once',
  async (t) => {
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    const pm = await savedCard(e);
    await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 2, frequency: 'daily', reference: 'ci-daily', start_date: '2027-02-01' });
    const first = await honoured(t, e.api, '/_payemu/clock/advance', { by: '2d' }, { by: '3d' }, 'ci-advance');
    t.match(first.body, { now: '2027-02-02T09:00:00.000000Z' });
    t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-02-02T09:00:00.000000Z', 'the clock moved once');
    t.equal((await e.api.get('/v1/recurring-payments/ci-daily')).body.data.attributes.next_billing_date, '2027-02-03', 'charged for two days, once');
  },
);

t.test('reset honours it: the replay answers the first reset, and what was written since stays', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  await pay(e, { amount: 1, reference: 'ci-before' });
  const first = await e.api.post('/_payemu/reset', {}, key('ci-reset'));
  await pay(e, { amount: 1, reference: 'ci-after' });
  replayed(t, first, await e.api.post('/_payemu/reset', {}, key('ci-reset')), 'reset');
  t.equal((await e.api.get('/v1/payments/ci-after')).status, 200, 'the replay reset nothing');
  assertError(t, await e.api.post('/_payemu/reset', { all: true }, key('ci-reset')), 409);
  const all = await e.api.post('/_payemu/reset', { all: true }, key('ci-reset-all'));
  await pay(e, { amount: 1, reference: 'ci-after-all' });
  replayed(t, all, await e.api.post('/_payemu/reset', { all: true }, key('ci-reset-all')), 'reset all');
  t.equal((await e.api.get('/v1/payments/ci-after-all')).status, 200);
});

t.test('snapshot import honours it: the replay imports nothing again; 409 for another body', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  await pay(e, { amount: 1, reference: 'ci-snap' });
  const scoped = (await e.api.get('/_payemu/snapshot')).body;
  const first = await e.api.post('/_payemu/snapshot', scoped, key('ci-import'));
  await pay(e, { amount: 1, reference: 'ci-since' });
  replayed(t, first, await e.api.post('/_payemu/snapshot', scoped, key('ci-import')), 'scoped import');
  t.equal((await e.api.get('/v1/payments/ci-since')).status, 200, 'the replay imported nothing');
  assertError(t, await e.api.post('/_payemu/snapshot', { ...scoped, data: {} }, key('ci-import')), 409);
  const all = (await e.api.get('/_payemu/snapshot?all=true')).body;
  await honoured(t, e.api, '/_payemu/snapshot?all=true', all, { ...all, data: {} }, 'ci-import-all');
});

t.test('trigger honours it: the event happens once', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const first = await honoured(t, e.api, '/_payemu/trigger', { event: 'payment.refunded' }, { event: 'payment.voided' }, 'ci-trigger');
  t.equal(first.status, 200);
  const events = (await e.api.get('/_payemu/events?event=payment.refunded')).body.events;
  t.equal(events.length, 1, 'one payment.refunded');
  t.equal((await e.api.get('/_payemu/events?event=payment.voided')).body.events.length, 0, 'the 409 did nothing');
});

t.test('every other control-plane POST that changes state honours it too (complete, pay, faults, outcomes, resend)', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const card = { card_number: '4242424242424242' };
  const session = await e.api.post('/v1/sessions', { amount: 1, reference: 'ci-complete' });
  await honoured(t, e.api, `/_payemu/sessions/${session.body.data.id}/complete`, card, { card_number: '4000000000000002' }, 'ci-complete');
  const link = await e.api.post('/v1/payment-links', { title: 'x', amount: 2 });
  await honoured(t, e.api, `/_payemu/payment-links/${link.body.data.id}/pay`, card, { card_number: '4000000000000002' }, 'ci-link');
  t.equal((await e.api.get(`/v1/payment-links/${link.body.data.id}`)).body.data.attributes.uses_count, 1, 'the link paid once');
  const invoice = await sentInvoice(e.api);
  await honoured(t, e.api, `/_payemu/invoices/${invoice}/pay`, card, { card_number: '4000000000000002' }, 'ci-invoice');
  await honoured(t, e.api, '/_payemu/faults', { path: '/v1/charges', status: 503 }, { path: '/v1/charges', status: 502 }, 'ci-fault');
  t.equal((await e.api.get('/_payemu/faults')).body.faults.length, 1, 'one fault added');
  await honoured(t, e.api, '/_payemu/outcomes', { reference: 'x', sequence: ['approved'] }, { reference: 'y', sequence: ['approved'] }, 'ci-outcome');
  t.equal((await e.api.get('/_payemu/outcomes')).body.outcomes.length, 1, 'one script');
  const [event] = (await e.api.get('/_payemu/events')).body.events;
  const resend = await e.api.post(`/_payemu/events/${event.id}/resend`, {}, key('ci-resend'));
  replayed(t, resend, await e.api.post(`/_payemu/events/${event.id}/resend`, {}, key('ci-resend')), 'resend');
});

t.test(
  "as /v1 does: a key is scoped by Source and mode; the same key on another path is a 409; a refusal of the rules is saved, one of the request's form (a schema 422 on /v1) is not",
  async (t) => {
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    await e.api.post('/v1/sessions', { amount: 1 }, key('ci-shared'));
    assertError(t, await e.api.post('/_payemu/reset', {}, key('ci-shared')), 409, /Idempotency-Key/);
    t.equal((await e.globex.post('/_payemu/reset', {}, key('ci-shared'))).status, 200, 'another Source: its own keys');
    t.equal((await e.live.post('/_payemu/reset', {}, key('ci-shared'))).status, 200, 'another mode: its own keys');
    const past = await e.api.post('/_payemu/clock/advance', { to: '2020-01-01T00:00:00Z' }, key('ci-past'));
    assertError(t, past, 422);
    replayed(t, past, await e.api.post('/_payemu/clock/advance', { to: '2020-01-01T00:00:00Z' }, key('ci-past')), 'a refusal of the rules');
    // A refusal of the request's own form is not kept, as a schema 422 on /v1: the corrected request may reuse the key.
    const forms: [string, unknown, unknown][] = [
      ['/_payemu/clock/advance', { by: 'soon' }, { by: '1h' }],
      ['/_payemu/clock/advance', { by: '1h', to: '2027-02-01T00:00:00Z' }, { by: '1h' }],
      ['/_payemu/trigger', { event: 'payment.nope' }, { event: 'payment.completed' }],
      ['/_payemu/trigger', { event: 'payment.completed', data: { colour: 'red' } }, { event: 'payment.completed' }],
      ['/_payemu/faults', { path: '/v1/me' }, { path: '/v1/me', latency_ms: 1 }],
      ['/_payemu/outcomes', { reference: 'x', sequence: ['maybe'] }, { reference: 'x', sequence: ['approved'] }],
    ];
    for (const [i, [path, wrong, right]] of forms.entries()) {
      assertError(t, await e.api.post(path, wrong, key(`ci-form-${i}`)), 422);
      const corrected = await e.api.post(path, right, key(`ci-form-${i}`));
      t.ok(corrected.status < 300, `${path} ${JSON.stringify(wrong)}: not kept, the corrected request runs (${corrected.status})`);
    }
    assertError(t, await e.api.post('/_payemu/reset', {}, key('')), 400);
    assertError(t, await e.api.post('/_payemu/reset', {}, key('k'.repeat(256))), 400);
  },
);

t.test('It never answers 5xx for work it did: a trigger whose step a fault answers or drops after work was done', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const cases: [string, Record<string, unknown>][] = [
    ['a 500 after the step ran (apply)', { method: 'POST', path: '/v1/sessions', status: 500, apply: true, times: 1 }],
    ['the connection dropped after the step ran (apply)', { method: 'POST', path: '/v1/sessions', drop: true, apply: true, times: 1 }],
    ['the connection dropped after earlier steps ran', { method: 'POST', path: '/v1/payments/*/refunds', drop: true, times: 1 }],
    ['a 503 after earlier steps ran', { method: 'POST', path: '/v1/payments/*/refunds', status: 503, times: 1 }],
  ];
  for (const [i, [what, fault]] of cases.entries()) {
    await e.api.post('/_payemu/faults', fault);
    const first = await e.api.post('/_payemu/trigger', { event: 'payment.refunded' }, key(`ci-trigger-fault-${i}`));
    assertError(t, first, 422, /carried out|what they made stays/);
    const made = await e.api.get('/_payemu/requests?path=/v1/sessions').then((r) => r.body.total);
    replayed(t, first, await e.api.post('/_payemu/trigger', { event: 'payment.refunded' }, key(`ci-trigger-fault-${i}`)), what);
    t.equal((await e.api.get('/_payemu/requests?path=/v1/sessions')).body.total, made, `${what}: the retry ran nothing again`);
  }
  // Nothing ran: a 5xx, and the retry runs.
  await e.api.post('/_payemu/faults', { method: 'POST', path: '/v1/sessions', drop: true, times: 1 });
  const dropped = await e.api.post('/_payemu/trigger', { event: 'payment.refunded' }, key('ci-trigger-dropped'));
  assertError(t, dropped, 500, /got no answer: a fault closed its connection/);
  t.equal((await e.api.post('/_payemu/trigger', { event: 'payment.refunded' }, key('ci-trigger-dropped'))).status, 200, 'nothing ran: the retry runs');
});

t.test('It never answers 5xx for work it did: duplicates sent while an advance runs get its replay', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const pm = await savedCard(e);
  for (let i = 0; i < 5; i++)
    await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'daily', reference: `ci-many-${i}`, start_date: '2027-02-01' });
  const answers = await Promise.all([0, 1, 2].map(() => e.api.post('/_payemu/clock/advance', { by: '30d' }, key('ci-concurrent'))));
  for (const answer of answers) t.equal(answer.status, 200);
  t.equal(new Set(answers.map((a) => a.text)).size, 1, 'one answer, three times');
  t.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 2, 'two replays');
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-03-02T09:00:00.000000Z', 'advanced once');
  const payments = (await e.api.get('/v1/payments?page[size]=1')).body.meta.total;
  t.equal(payments, 1 + 5 * 30, 'each schedule charged each day once');
});
