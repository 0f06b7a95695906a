import t, { type Test } from 'tap';
import { EVENT_NAMES } from '../src/catalogue.js';
import { runPayemu } from './helpers/cli.js';
import { assertError, emulator, type Client } from './helpers/emulator.js';

/**
 * `payemu trigger` with a live key: every event of the catalogue happens, in live mode, paid
 * with live-mode cards (live mode declines the test cards). Failure events still fail.
 */

/** The events whose trigger makes a payment fail on purpose. */
const FAILING = new Set(['payment.failed', 'recurring.failed', 'recurring.suspended']);

/** The status of the trigger's payment, for the events that leave one (by its reference). */
const PAYMENT_STATUS: Record<string, string> = {
  'payment.completed': 'PAID',
  'payment.authorized': 'AUTHORIZED',
  'payment.captured': 'PAID',
  'payment.refunded': 'REFUNDED',
  'payment.voided': 'VOIDED',
  'payment.failed': 'FAILED',
};

async function triggerEach(t: Test, mode: 'test' | 'live') {
  const e = await emulator(t, { clockStart: '2027-05-01T12:00:00Z', freezeClock: true });
  const as: Client = mode === 'live' ? e.live : e.api;
  for (const event of EVENT_NAMES) {
    const seen: { name: string; mode: string; data: Record<string, any> }[] = [];
    const off = e.bus.on('domain', (d) => seen.push({ name: d.name, mode: d.mode, data: d.data }));
    const reference = `${mode}-${event.replace('.', '-')}`;
    // Invoice and link events read no reference (a data key an event never reads is refused).
    const res = await as.post('/_payemu/trigger', { event, data: /^(payment|recurring)\./.test(event) ? { reference } : {} });
    off();
    t.equal(res.status, 200, `${event}: ${res.text.slice(0, 300)}`);
    t.equal(res.body.mode, mode);
    t.match(res.body.event_id, /^[0-9a-f-]{36}$/, `${event} happened in ${mode} mode`);
    t.ok(
      seen.some((d) => d.name === event),
      `${event} was raised`,
    );
    t.same(
      seen.filter((d) => d.mode !== mode),
      [],
      `${event}: everything happened in ${mode} mode`,
    );
    const failed = seen.filter((d) => d.name === 'payment.failed');
    if (FAILING.has(event)) t.ok(failed.length > 0, `${event}: a payment failed, as intended`);
    else t.same(failed, [], `${event}: no payment.failed`);
    const stored = await as.get(`/_payemu/events/${res.body.event_id}`);
    t.equal(stored.body.event, event, `${event} is in the ${mode} event log`);
    if (PAYMENT_STATUS[event]) {
      const payment = await as.get(`/v1/payments/${reference}`);
      t.equal(payment.body.data?.attributes?.status, PAYMENT_STATUS[event], `${event}: the payment is ${PAYMENT_STATUS[event]}`);
    }
  }
  return e;
}

t.test('every trigger works with a live key', async (t) => {
  const e = await triggerEach(t, 'live');
  const failed = await e.live.get('/v1/payments/live-payment-failed');
  t.match(failed.body.data.attributes, { status: 'FAILED', failure_code: 'card_declined', failure_message: 'A test card was used in live mode.' });
  const paid = await e.live.get('/v1/payments/live-payment-completed');
  t.match(paid.body.data.attributes, { status: 'PAID', card_brand: 'visa' });
  t.not(paid.body.data.attributes.card_last, '4242', 'not a test card');
  const schedule = await e.live.get('/v1/recurring-payments/live-recurring-suspended');
  t.equal(schedule.body.data.attributes.status, 'suspended');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 0, 'nothing in test mode');
});

t.test('and still with a test key, with the test cards', async (t) => {
  const e = await triggerEach(t, 'test');
  const failed = await e.api.get('/v1/payments/test-payment-failed');
  t.match(failed.body.data.attributes, { status: 'FAILED', failure_code: 'insufficient_funds' });
  t.equal((await e.api.get('/v1/payments/test-payment-completed')).body.data.attributes.card_last, '4242');
  t.equal((await e.live.get('/v1/payments')).body.data.length, 0, 'nothing in live mode');
});

t.test('payemu trigger payment.completed --key sk_live_payemu_acme exits 0 with the event id', async (t) => {
  const e = await emulator(t);
  const res = await runPayemu(t, ['trigger', 'payment.completed', '--key', 'sk_live_payemu_acme', '--set', 'reference=cli-live'], {
    env: { PAYEMU_URL: e.url },
  });
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, /payment\.completed triggered on acme\/live/);
  const id = /event id ([0-9a-f-]{36})/.exec(res.stdout)?.[1];
  t.ok(id, `prints the event id: ${res.stdout}`);
  t.equal((await e.live.get(`/_payemu/events/${id}`)).body.event, 'payment.completed');
  t.equal((await e.live.get('/v1/payments/cli-live')).body.data.attributes.status, 'PAID');
});

t.test('--set cards.* picks the card; a trigger whose event then does not happen is a 422 saying what happened instead', async (t) => {
  const e = await emulator(t);
  const amex = await e.live.post('/_payemu/trigger', { event: 'payment.completed', data: { reference: 'amex', cards: { approved: '3400 0000 0000 009' } } });
  t.equal(amex.status, 200, amex.text.slice(0, 300));
  t.match((await e.live.get('/v1/payments/amex')).body.data.attributes, { status: 'PAID', card_brand: 'amex', card_last: '0009' });

  const declined = await e.live.post('/_payemu/trigger', {
    event: 'payment.completed',
    data: { reference: 'declined', cards: { approved: '4242424242424242' } },
  });
  assertError(t, declined, 422, /payment\.completed did not happen: it raised payment\.failed/);
  t.equal((await e.live.get('/v1/payments/declined')).body.data.attributes.status, 'FAILED', 'what the steps did stays done');
  await t.rejects(e.trigger('payment.completed', { mode: 'live', data: { cards: { approved: '4000000000000002' } } }), {
    status: 422,
    message: /did not happen/,
  });
});

t.test('payemu trigger --set cards.approved=... (a number on the command line) pays with that card', async (t) => {
  const e = await emulator(t);
  const res = await runPayemu(
    t,
    ['trigger', 'payment.completed', '--key', 'sk_live_payemu_acme', '--set', 'reference=cli-amex', '--set', 'cards.approved=340000000000009'],
    { env: { PAYEMU_URL: e.url } },
  );
  t.equal(res.code, 0, res.stderr);
  t.match((await e.live.get('/v1/payments/cli-amex')).body.data.attributes, { status: 'PAID', card_brand: 'amex' });
  const declined = await runPayemu(t, ['trigger', 'payment.completed', '--key', 'sk_live_payemu_acme', '--set', 'cards.approved=4242 4242 4242 4242'], {
    env: { PAYEMU_URL: e.url },
  });
  t.equal(declined.code, 1, 'the event did not happen: exit 1');
  t.match(declined.stderr, /payment\.completed did not happen: it raised payment\.failed/);
});
