import t, { type Test } from 'tap';
import { type Client, client, emulator, type TestEmulator } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';

// Section: many test workers at once, each in its own namespace, each a whole story (checkout,
// refund, a schedule billed over a month on its own clock, webhooks): nothing crosses between them.

const KEY = 'sk_test_payemu_acme';
const WORKERS = 8;
const START = '2027-01-04T09:00:00.000000Z';
const DAY = 86_400_000;

interface Worker {
  name: string;
  api: Client;
  /** Its own webhook receiver, set as its namespace's destination (`PUT /_payemu/webhook`). */
  hooks: Awaited<ReturnType<typeof receiver>>;
  /** Days this worker advances its own clock (each a different number, so that a clock moved by another shows). */
  days: number;
}

/** Weekly charges from the day after START to `days` days after it: days 1, 8, 15, ... */
const weeklyCharges = (days: number) => Math.floor((days - 1) / 7) + 1;

/** One worker's whole story, run concurrently with the others'; answers its two sessions' ids. */
async function story(t: Test, w: Worker): Promise<string[]> {
  const { api, name } = w;
  const destination = await api.request('PUT', '/_payemu/webhook', { url: w.hooks.url });
  t.same(destination.body, { source: 'acme', url: w.hooks.url, overridden: true }, `${name}: its webhooks go to its own receiver`);
  // A checkout paid through the control plane, then part of it refunded.
  const session = await api.post('/v1/sessions', { amount: 20, reference: `${name}-order` });
  t.equal(session.status, 201, `${name}: checkout made`);
  const paid = await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
  t.equal(paid.status, 200, `${name}: checkout paid`);
  t.equal(paid.body.payment.id, 1, `${name}: its first payment is 1`);
  const refund = await api.post(`/v1/payments/${name}-order/refunds`, { amount: 5 });
  t.equal(refund.status, 201, `${name}: refund made`);
  t.equal(refund.body.meta.payment.status, 'PARTIALLY_REFUNDED');

  // A card saved by a second checkout, and a weekly schedule on it from tomorrow.
  const saving = await api.post('/v1/sessions', { amount: 1, reference: `${name}-card`, save_payment_method: true });
  const saved = await api.post(`/_payemu/sessions/${saving.body.data.id}/complete`, { card_number: '4242424242424242' });
  t.equal(saved.body.payment.id, 2, `${name}: its second payment is 2`);
  const schedule = await api.post('/v1/recurring-payments', {
    payment_method: saved.body.payment.payment_method,
    amount: 9,
    frequency: 'weekly',
    start_date: '2027-01-05',
    reference: `${name}-sub`,
  });
  t.equal(schedule.status, 201, `${name}: schedule made`);

  // Its month, a day at a time, interleaved with every other worker's advances.
  const refused: string[] = [];
  for (let day = 0; day < w.days; day++) {
    const advanced = await api.post('/_payemu/clock/advance', { by: '1d' });
    if (advanced.status !== 200) refused.push(advanced.text);
  }
  t.same(refused, [], `${name}: ${w.days} advances of a day`);
  return [session.body.data.id, saving.body.data.id];
}

/** Every payment and event of a namespace (one page each: a worker has fewer than 100). */
async function holdings(api: Client) {
  const payments = (await api.get('/v1/payments?page[size]=100')).body.data as { id: string; attributes: { reference: string } }[];
  const events = (await api.get('/_payemu/events?limit=1000')).body.events as { id: string; reference: string; delivery_status: string }[];
  return { ids: payments.map((p) => Number(p.id)).sort((a, b) => a - b), payments, events };
}

t.test(`${WORKERS} workers, each in its own namespace, each a whole story at once: no cross-talk`, async (t) => {
  // --webhook-url is the destination of whoever sets none: each worker sets its own, so nothing comes here.
  const fallback = await receiver(t);
  const e: TestEmulator = await emulator(t, { clockStart: START, freezeClock: true, webhookUrl: fallback.url, webhookBackoff: '0,0,0' });
  const workers: Worker[] = await Promise.all(
    Array.from({ length: WORKERS }, async (_, i) => ({ name: `w${i + 1}`, api: client(e.url, `${KEY}~w${i + 1}`), hooks: await receiver(t), days: 30 + i })),
  );

  const sessions = await Promise.all(workers.map((w) => story(t, w)));
  await e.idle();

  const listed = (await e.api.get('/_payemu/namespaces')).body.namespaces as { name: string; clock: { now: string }; counts: Record<string, number> }[];
  t.same(
    listed.map((n) => n.name),
    workers.map((w) => w.name),
    'one namespace per worker',
  );
  for (const [i, w] of workers.entries()) {
    const mine = await holdings(w.api);
    const entry = listed.find((n) => n.name === w.name);
    const charges = weeklyCharges(w.days);
    // Ids start at 1 in each, and run on with no gap: no other worker's payment took a number.
    t.same(
      mine.ids,
      Array.from({ length: 2 + charges }, (_, n) => n + 1),
      `${w.name}: payments 1 to ${2 + charges}`,
    );
    t.ok(
      mine.payments.every((p) => p.attributes.reference.startsWith(`${w.name}-`)),
      `${w.name}: its payments are its own`,
    );
    t.match(entry?.counts, { payments: 2 + charges, sessions: 2, refunds: 1, recurring_payments: 1 }, `${w.name}: its counts are its own`);
    // Its sessions are found in it, and in no other namespace.
    const next = workers[(i + 1) % workers.length]!;
    for (const id of sessions[i]!) {
      t.equal((await w.api.get(`/v1/sessions/${id}`)).status, 200);
      t.equal((await next.api.get(`/v1/sessions/${id}`)).status, 404, `${w.name}'s session is not in ${next.name}`);
      t.equal((await e.api.get(`/v1/sessions/${id}`)).status, 404, `${w.name}'s session is not in the default`);
    }
    t.ok(
      mine.events.every((ev) => ev.reference.startsWith(`${w.name}-`)),
      `${w.name}: its events are its own`,
    );
    // Its clock moved by its own advances only, and only its own schedule was billed.
    const clock = (await w.api.get('/_payemu/clock')).body;
    t.equal(clock.now, new Date(Date.parse(START) + w.days * DAY).toISOString().replace('Z', '000Z'), `${w.name}: its clock moved ${w.days} days`);
    t.equal(entry?.clock.now, clock.now);
    const nextBilling = new Date(Date.parse('2027-01-05') + 7 * charges * DAY).toISOString().slice(0, 10);
    t.equal(
      (await w.api.get(`/v1/recurring-payments/${w.name}-sub`)).body.data.attributes.next_billing_date,
      nextBilling,
      `${w.name}: billed ${charges} times`,
    );
    // Every event of the namespace was delivered once to its own receiver, naming the namespace, and nothing else came there.
    t.ok(
      mine.events.every((ev) => ev.delivery_status === 'delivered'),
      `${w.name}: every event delivered`,
    );
    t.same(
      w.hooks.received.map((delivery) => delivery.headers['x-webhook-event-id']).sort(),
      mine.events.map((ev) => ev.id).sort(),
      `${w.name}: its receiver got its ${mine.events.length} events, each once, and no other`,
    );
    t.same(
      [...new Set(w.hooks.received.map((delivery) => delivery.headers['payemu-namespace']))],
      [w.name],
      `${w.name}: Payemu-Namespace names it on each delivery`,
    );
  }
  t.same(fallback.received, [], '--webhook-url got nothing: every worker had its own destination');

  // The default namespace saw none of it, and its clock did not move.
  const dflt = await holdings(e.api);
  t.same([dflt.payments, dflt.events], [[], []], 'the default namespace is empty');
  t.equal((await e.api.get('/_payemu/clock')).body.now, START, "the default's clock did not move");
});
