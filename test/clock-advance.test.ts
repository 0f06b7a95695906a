import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { startPayemu } from './helpers/cli.js';
import { assertError, client, emulator, pay, type TestEmulator, dailySchedules } from './helpers/emulator.js';

/**
 * Clock advances: bounded (ten years at most), run in batches that store the clock with their
 * work (so a crash in the middle loses nothing and runs nothing twice), answering other requests
 * between batches, and never stamping work before the change that made it due.
 */

const START = '2027-01-01T10:00:00Z';

/** A card saved by a paid session; returns its pm_ id. */
async function savedCard(e: TestEmulator): Promise<string> {
  const { completed } = await pay(e, { amount: 1, save_payment_method: true });
  return completed.body.payment.payment_method;
}
const DAY = 86_400_000;

t.test('one advance moves at most 3,653 days; more is a 422 naming the field and changes nothing', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  for (const [body, field] of [
    [{ by: '3654d' }, 'by'],
    [{ by: 3654 * 86_400 }, 'by'],
    [{ to: '9999-12-31' }, 'to'],
    [{ to: '2037-01-01T10:00:00.001Z' }, 'to'],
  ] as const) {
    const res = await e.api.post('/_payemu/clock/advance', body);
    assertError(t, res, 422, /3653 days/);
    t.same(Object.keys(res.body.errors[0].meta.errors), [field], `names ${field}`);
  }
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-01T10:00:00.000000Z', 'the clock did not move');
  await t.rejects(e.clock.advance('3654d'), RangeError, 'the library refuses it too');

  const ok = await e.api.post('/_payemu/clock/advance', { by: '3653d' });
  t.equal(ok.status, 200, 'ten years is allowed');
  t.equal(ok.body.now, '2037-01-01T10:00:00.000000Z');
  t.equal((await e.api.post('/_payemu/clock/advance', { to: '2047-01-01T10:00:00Z' })).status, 200, 'and ten more, to a timestamp');
});

t.test('while an advance runs, other requests are answered; two advances take turns', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const pm = await savedCard(e);
  for (let i = 0; i < 40; i++) await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'daily', start_date: '2027-01-02' });
  let advanced = false;
  const first = e.api.post('/_payemu/clock/advance', { by: '1000d' }).then((res) => {
    advanced = true;
    return res;
  });
  const second = e.api.post('/_payemu/clock/advance', { by: '1d' });
  // Asked for after the advance began, answered before it ends.
  let answeredDuring = 0;
  let sawMidway = false;
  while (!advanced) {
    const health = await e.anon.get('/_payemu/health');
    t.equal(health.status, 200);
    const now = Date.parse((await e.api.get('/_payemu/clock')).body.now);
    if (!advanced) answeredDuring++;
    if (!advanced && now > Date.parse(START) + DAY && now < Date.parse(START) + 1000 * DAY) sawMidway = true;
  }
  t.ok(answeredDuring > 0, `${answeredDuring} requests answered during the advance`);
  t.ok(sawMidway, 'the clock was seen between its start and the target: it moves with each batch');
  const [a, b] = await Promise.all([first, second]);
  t.equal(a.body.now, '2029-09-27T10:00:00.000000Z');
  t.equal(a.body.ran['recurring.charge'], 40 * 1000);
  t.equal(b.body.now, '2029-09-28T10:00:00.000000Z', 'the second advance counted from where the first stopped');
  t.equal(b.body.ran['recurring.charge'], 40);
});

t.test('time stamps never go backwards', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const pm = await savedCard(e);

  // A schedule created at 10:00 whose first charge is due at 00:00 that day: charged at 10:00.
  const created = await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 5, frequency: 'monthly', reference: 'today' });
  t.equal(created.status, 201);
  await e.api.post('/_payemu/clock/advance', { by: '0s' });
  const charge = (await e.api.get('/v1/payments/today-0001')).body.data.attributes;
  t.equal(charge.created_at, '2027-01-01T10:00:00.000000Z', 'not before the schedule existed');
  t.ok(charge.created_at >= created.body.data.attributes.created_at);
  const events = (await e.api.get('/_payemu/events?reference=today')).body.events;
  for (const event of events) t.ok(event.created_at >= created.body.data.attributes.created_at, `${event.event} at ${event.created_at}`);

  // An invoice sent after its due date turns overdue the moment it is sent, not before.
  const invoice = await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    currency: 'USD',
    due_date: '2027-01-01',
    items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
  });
  t.equal(invoice.status, 201, invoice.text);
  await e.api.post('/_payemu/clock/advance', { by: '50h' });
  const sent = await e.api.post(`/v1/invoices/${invoice.body.data.id}/send`, {});
  t.equal(sent.status, 200, sent.text);
  await e.api.post('/_payemu/clock/advance', { by: '0s' });
  const overdue = (await e.api.get(`/v1/invoices/${invoice.body.data.id}`)).body.data.attributes;
  t.equal(overdue.status, 'overdue');
  t.equal(overdue.sent_at, '2027-01-03T12:00:00.000000Z');
  t.equal(overdue.updated_at, overdue.sent_at, 'overdue at the moment it was sent');
  const overdueEvent = (await e.api.get('/_payemu/events?event=invoice.overdue')).body.events[0];
  t.equal(overdueEvent.created_at, '2027-01-03T12:00:00.000000Z', 'not at 00:00 on the day after the due date');
});

t.test('kill -9 during an advance: the restart carries on from the last stored batch, nothing lost, nothing run twice', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-advance-crash-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const SCHEDULES = 20;
  const DAYS = 2000;
  const args = ['--data', dir, '--clock-start', '2027-01-01T12:00:00Z', '--freeze-clock', '--no-ui'];
  const first = await startPayemu(t, args);
  const api = client(first.url, 'sk_test_payemu_acme');
  await dailySchedules(t, api, SCHEDULES, 's');
  const started = Date.parse('2027-01-01T12:00:00Z');
  const target = started + DAYS * DAY;

  // Start a long advance, watch the clock move batch by batch, and kill the process midway.
  const advance = api.post('/_payemu/clock/advance', { by: `${DAYS}d` }).catch(() => undefined);
  let seen = started;
  while (seen < started + 200 * DAY) seen = Date.parse((await api.get('/_payemu/clock')).body.now);
  first.proc.child.kill('SIGKILL');
  await first.proc.exited;
  await advance;
  t.ok(seen < target, 'killed in the middle of the advance');

  const second = await startPayemu(t, args);
  const again = client(second.url, 'sk_test_payemu_acme');
  const clock = Date.parse((await again.get('/_payemu/clock')).body.now);
  t.ok(clock >= seen, 'the clock restarts at or after the last batch seen stored');
  t.ok(clock < target, 'and before the target: the rest has not run');
  // Everything due up to the restored clock was charged exactly once, nothing after it.
  const dueDays = Math.floor((clock - Date.parse('2027-01-02T00:00:00Z')) / DAY) + 1;
  for (let i = 0; i < SCHEDULES; i++) {
    const total = (await again.get(`/v1/payments?filter[customer_email]=s${i}@example.com`)).body.meta.total;
    if (total !== dueDays) t.fail(`schedule s${i}: ${total} charges, ${dueDays} fell due by the restored clock`);
    const next = (await again.get(`/v1/recurring-payments/s${i}`)).body.data.attributes.next_billing_date;
    if (Date.parse(next) !== Date.parse('2027-01-02T00:00:00Z') + dueDays * DAY) t.fail(`schedule s${i}: next billing ${next}`);
  }

  // The next advance runs the rest.
  const rest = await again.post('/_payemu/clock/advance', { to: new Date(target).toISOString() });
  t.equal(rest.status, 200);
  const all = Math.floor((target - Date.parse('2027-01-02T00:00:00Z')) / DAY) + 1;
  for (let i = 0; i < SCHEDULES; i++) {
    const total = (await again.get(`/v1/payments?filter[customer_email]=s${i}@example.com`)).body.meta.total;
    if (total !== all) t.fail(`schedule s${i}: ${total} charges after the rest ran, ${all} expected`);
  }
  t.equal((await again.get('/v1/payments')).body.meta.total, SCHEDULES * all + 1, 'every charge once, plus the payment that saved the card');
  t.equal((await second.proc.stop('SIGTERM')).code, 0);
});
