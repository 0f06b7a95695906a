import t, { type Test } from 'tap';
import { createClient } from '../../src/client/client.js';
import { assertError, type Client, emulator, pay, savedCard, type TestEmulator } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';
import { sentInvoice } from '../helpers/invoice.js';

// payemu's snapshots (`GET` and `POST /_payemu/snapshot`): a Source and mode's whole state, or
// everything with the clock, as one JSON document, and back. Each test is titled with the
// sentence it checks.

const START = '2027-01-31T09:00:00Z';

/** A Source and mode with one of everything a snapshot holds: records, a key, a fault, a script, counters. */
async function state(t: Test, e: TestEmulator, as: Client = e.api, prefix = 'sn') {
  const pm = await savedCard(e, '4242424242424242', as);
  await pay(e, { amount: 10, reference: `${prefix}-order` }, '4242424242424242', as);
  t.equal((await as.post(`/v1/payments/${prefix}-order/refunds`, { amount: 2 }, { 'Idempotency-Key': `${prefix}-refund` })).status, 201);
  await as.post('/v1/recurring-payments', { payment_method: pm, amount: 3, frequency: 'monthly', reference: `${prefix}-sub`, start_date: '2027-02-01' });
  const link = await as.post('/v1/payment-links', { title: 'tee', amount: 4 });
  await as.post(`/_payemu/payment-links/${link.body.data.id}/pay`, { card_number: '4242424242424242' });
  const invoice = await sentInvoice(as);
  const fault = await as.post('/_payemu/faults', { path: '/v1/tax/settings', status: 503, probability: 0.5, seed: 7 });
  const script = await as.post('/_payemu/outcomes', { schedule: `${prefix}-sub`, sequence: ['approved', 'card_declined'] });
  await as.request('PUT', '/_payemu/webhook-chaos', { stale_timestamp: 0, seed: 5 });
  await e.idle();
  return { pm, link: String(link.body.data.id), invoice, fault: fault.body.id as string, script: script.body.id as string };
}

/** Every read of a scope's /v1 API and control plane (but the journal, which snapshots do not hold), as status and bytes. */
async function reads(as: Client, prefix: string, ids: Awaited<ReturnType<typeof state>>) {
  const events = (await as.get('/_payemu/events?limit=1000')).body.events as { id: string }[];
  const paths = [
    '/v1/me',
    '/v1/payments?page[size]=100',
    `/v1/payments/${prefix}-order?include=refunds`,
    `/v1/payments/${prefix}-order/refunds`,
    `/v1/recurring-payments/${prefix}-sub`,
    '/v1/recurring-payments',
    `/v1/payment-links/${ids.link}`,
    '/v1/payment-links',
    `/v1/invoices/${ids.invoice}`,
    '/v1/invoices',
    '/_payemu/events?limit=1000',
    ...events.map((event) => `/_payemu/events/${event.id}`),
    '/_payemu/faults',
    '/_payemu/outcomes',
    '/_payemu/webhook-chaos',
  ];
  const answers: Record<string, string> = {};
  for (const path of paths) {
    const res = await as.get(path);
    answers[path] = `${res.status} ${res.text}`;
  }
  // The clock's offset_seconds is its distance from real time, which moves on between two reads of a frozen clock.
  const { now, frozen } = (await as.get('/_payemu/clock')).body;
  answers['/_payemu/clock'] = JSON.stringify({ now, frozen });
  return answers;
}

t.test(
  'GET /_payemu/snapshot answers the Source and mode\'s whole state ({"payemu_snapshot": 1, "scope": {...}, "clock": {...}, "data": {...}}); ?all=true takes everything and the clock',
  async (t) => {
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    await state(t, e);
    await state(t, e, e.globex, 'gx');
    const scoped = await e.api.get('/_payemu/snapshot');
    t.equal(scoped.status, 200);
    t.same(Object.keys(scoped.body), ['payemu_snapshot', 'scope', 'clock', 'data']);
    t.match(scoped.body, { payemu_snapshot: 1, scope: { source: 'acme', mode: 'test' }, clock: { now: '2027-01-31T09:00:00.000000Z', frozen: true } });
    const mine = (records: { source?: string; mode?: string }[]) => records.every((r) => r.source === undefined || (r.source === 'acme' && r.mode === 'test'));
    for (const [name, records] of Object.entries(scoped.body.data) as [string, { source?: string }[]][]) t.ok(mine(records), `${name}: acme test only`);
    t.ok(
      scoped.body.data.payments.some((p: { reference: string }) => p.reference === 'sn-order'),
      'its payments',
    );
    const all = await e.api.get('/_payemu/snapshot?all=true');
    t.match(all.body, { payemu_snapshot: 1, scope: 'all', clock: { now: '2027-01-31T09:00:00.000000Z' } });
    const sources = new Set(all.body.data.payments.map((p: { source: string }) => p.source));
    t.same([...sources].sort(), ['acme', 'globex'], 'every Source');
  },
);

t.test('A snapshot holds every record, idempotency keys, faults, scripts and id counters, not the journal', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const ids = await state(t, e);
  const { data } = (await e.api.get('/_payemu/snapshot')).body;
  for (const name of ['sessions', 'payments', 'payment_methods', 'refunds', 'recurring_payments', 'invoices', 'payment_links', 'events'])
    t.ok(data[name].length > 0, `${name} are held`);
  t.ok(data.idempotency_keys.length > 0, 'idempotency keys');
  t.same(
    data.faults.map((f: { id: string }) => f.id),
    [ids.fault],
    'faults',
  );
  t.same(
    data.outcome_scripts.map((s: { script_id: string }) => s.script_id),
    [ids.script],
    'scripts',
  );
  t.ok(
    data.meta.some((m: { id: string }) => m.id === 'counter:payments'),
    'id counters',
  );
  t.ok((await e.api.get('/_payemu/requests')).body.total > 0, 'the journal has entries');
  t.notOk('requests' in data, 'no journal');
  t.notMatch(JSON.stringify(data), /req_[0-9A-Za-z]{24}/, 'no journal entry anywhere');
});

t.test('POST /_payemu/snapshot replaces that scope and answers the counts', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  await state(t, e);
  const snapshot = (await e.api.get('/_payemu/snapshot')).body;
  await pay(e, { amount: 1, reference: 'sn-later' });
  await e.globex.post('/v1/sessions', { amount: 1, reference: 'sn-globex' });
  const res = await e.api.post('/_payemu/snapshot', snapshot);
  t.equal(res.status, 200);
  t.match(res.body, { scope: { source: 'acme', mode: 'test' }, removed: Number, renumbered: {}, now: String });
  for (const [name, records] of Object.entries(snapshot.data) as [string, unknown[]][]) t.equal(res.body.counts[name], records.length, `counts.${name}`);
  assertError(t, await e.api.get('/v1/payments/sn-later'), 404, undefined);
  t.equal((await e.api.get('/v1/payments/sn-order')).status, 200);
});

t.test('After export all, reset all and import, every /v1 and control-plane read answers the same', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { clockStart: START, freezeClock: true, webhookUrl: r.url, webhookBackoff: '0,0,0' });
  const ids = await state(t, e);
  const gx = await state(t, e, e.globex, 'gx');
  await e.api.post('/_payemu/clock/advance', { by: '2d' });
  t.equal((await e.api.post('/v1/payments/sn-order/refunds', { amount: 1 }, { 'Idempotency-Key': 'sn-late' })).status, 201);
  await e.idle();
  const before = { acme: await reads(e.api, 'sn', ids), globex: await reads(e.globex, 'gx', gx) };
  const snapshot = (await e.api.get('/_payemu/snapshot?all=true')).body;
  t.equal((await e.api.post('/_payemu/reset', { all: true })).status, 200);
  t.equal((await e.api.post('/_payemu/snapshot?all=true', snapshot)).status, 200);
  t.same({ acme: await reads(e.api, 'sn', ids), globex: await reads(e.globex, 'gx', gx) }, before);
  const replay = await e.api.post('/v1/payments/sn-order/refunds', { amount: 1 }, { 'Idempotency-Key': 'sn-late' });
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'the idempotency keys came back');
  const raw = createClient({ url: e.url, key: 'sk_test_payemu_acme' });
  const pattern = async () => {
    let marks = '';
    for (let i = 0; i < 12; i++) marks += (await raw.request('GET', '/v1/tax/settings')).status === 503 ? 'x' : '.';
    return marks;
  };
  const next = await pattern();
  await e.api.post('/_payemu/snapshot?all=true', snapshot);
  t.equal(await pattern(), next, "a fault's generator carries on where it stood");
});

t.test(
  'A scoped import never changes, hides or deletes a record of another Source or mode: a payment or payment link whose integer id another scope uses gets a new id above the counter ("renumbered": {"payments": {"3": 41}})',
  async (t) => {
    const from = await emulator(t, { clockStart: START, freezeClock: true });
    await state(t, from);
    const snapshot = (await from.api.get('/_payemu/snapshot')).body;
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    const gx = await state(t, e, e.globex, 'gx');
    const globexBefore = await reads(e.globex, 'gx', gx);
    const counter = (await e.api.get('/_payemu/snapshot?all=true')).body.data.meta.find((m: { id: string }) => m.id === 'counter:payments').value;
    const res = await e.api.post('/_payemu/snapshot', snapshot);
    t.equal(res.status, 200, res.text);
    const moved = res.body.renumbered.payments as Record<string, number>;
    t.same(Object.keys(moved).sort(), snapshot.data.payments.map((p: { id: string }) => p.id).sort(), 'every payment whose id globex uses');
    for (const id of Object.values(moved)) t.ok(id > counter, `${id} is above the store's counter (${counter})`);
    t.ok(res.body.renumbered.payment_links, 'links too');
    t.same(await reads(e.globex, 'gx', gx), globexBefore, "globex's reads are unchanged");
    const order = await e.api.get('/v1/payments/sn-order?include=refunds');
    const oldId = snapshot.data.payments.find((p: { reference: string }) => p.reference === 'sn-order').id;
    t.equal(order.body.data.id, String(moved[oldId]), 'the payment under its new id');
    t.equal(order.body.included?.length, 1, 'its refund follows it');
    const now = (await e.api.get('/_payemu/snapshot')).body.data;
    const paymentIds = new Set(now.payments.map((p: { id: string }) => String(p.id)));
    t.ok(
      now.refunds.every((r: { payment_id: string }) => paymentIds.has(String(r.payment_id))),
      "every refund names its payment's new id",
    );
    t.ok(
      now.events.every((x: { data?: { payment_id?: number } }) => x.data?.payment_id === undefined || paymentIds.has(String(x.data.payment_id))),
      "every event names its payment's new id",
    );
  },
);

t.test('A colliding random id (cs_, pm_, inv_, ...) is a 422 naming it, and nothing changes', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  await state(t, e);
  const gx = await state(t, e, e.globex, 'gx');
  const acme = (await e.api.get('/_payemu/snapshot')).body;
  const globex = (await e.globex.get('/_payemu/snapshot')).body;
  const globexBefore = await reads(e.globex, 'gx', gx);
  for (const name of ['sessions', 'payment_methods', 'invoices']) {
    const taken = acme.data[name][0].id;
    const records = globex.data[name].map((r: { id: string }, i: number) => (i === 0 ? { ...r, id: taken } : r));
    const res = await e.globex.post('/_payemu/snapshot', { ...globex, data: { ...globex.data, [name]: records } });
    assertError(t, res, 422, new RegExp(taken));
    t.same(Object.keys(res.body.errors[0].meta.errors), [`data.${name}.0`], 'names the record');
  }
  t.same(await reads(e.globex, 'gx', gx), globexBefore, 'nothing changed');
});

t.test('A malformed snapshot, or one of a later format, is a 422 saying what is wrong and changes nothing', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const ids = await state(t, e);
  const good = (await e.api.get('/_payemu/snapshot')).body;
  const before = await reads(e.api, 'sn', ids);
  const bad: [unknown, RegExp][] = [
    [{ ...good, payemu_snapshot: 2 }, /format 2, written by a later payemu/],
    [{ ...good, payemu_snapshot: undefined }, /payemu_snapshot/],
    [{ ...good, scope: { source: 'globex', mode: 'test' } }, /snapshot of globex/],
    [{ ...good, clock: null }, /"clock" must be/],
    [{ ...good, data: [] }, /"data" must be an object/],
    [{ ...good, data: { ...good.data, widgets: [] } }, /unknown collection "widgets"/],
    [{ ...good, data: { ...good.data, payments: [null] } }, /data\.payments\.0 is not a record/],
    [[], /must be an object/],
  ];
  for (const [document, message] of bad) assertError(t, await e.api.post('/_payemu/snapshot', document), 422, message);
  t.same(await reads(e.api, 'sn', ids), before, 'nothing changed');
});

t.test(
  "Every record in a snapshot is validated against the same rules as a record payemu writes itself (types, ranges, enums, interval_count >= 1, dates, counters below 2^31), and so is the clock (an all snapshot's clock at most 3,653 days ahead)",
  async (t) => {
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    const ids = await state(t, e);
    const good = (await e.api.get('/_payemu/snapshot')).body;
    const before = await reads(e.api, 'sn', ids);
    const change = (name: string, fields: Record<string, unknown>) => ({
      ...good,
      data: { ...good.data, [name]: good.data[name].map((r: object, i: number) => (i === 0 ? { ...r, ...fields } : r)) },
    });
    const cases: [unknown, string][] = [
      [change('payments', { amount: '10.00' }), 'data.payments.0.amount'],
      [change('payments', { status: 'SETTLED' }), 'data.payments.0.status'],
      [change('payments', { amount: -1 }), 'data.payments.0.amount'],
      [change('recurring_payments', { interval_count: 0 }), 'data.recurring_payments.0.interval_count'],
      [change('recurring_payments', { next_billing_date: '2027-02-30' }), 'data.recurring_payments.0.next_billing_date'],
      [change('recurring_payments', { created_at: 1e20 }), 'data.recurring_payments.0.created_at'],
      [change('meta', { value: 2 ** 31 }), 'data.meta.0.value'],
      [change('faults', { status: 200 }), 'data.faults.0.status'],
      [change('outcome_scripts', { sequence: ['maybe'] }), 'data.outcome_scripts.0.sequence.0'],
    ];
    for (const [document, field] of cases) {
      const res = await e.api.post('/_payemu/snapshot', document);
      assertError(t, res, 422);
      t.same(Object.keys(res.body.errors[0].meta?.errors ?? {}), [field], `names ${field}`);
    }
    const all = (await e.api.get('/_payemu/snapshot?all=true')).body;
    const ahead = (now: string) => ({ ...all, clock: { ...all.clock, now } });
    const far = await e.api.post('/_payemu/snapshot?all=true', ahead('2037-02-01T09:00:00Z'));
    assertError(t, far, 422, /3653 days/);
    t.same(Object.keys(far.body.errors[0].meta.errors), ['clock.now']);
    assertError(t, await e.api.post('/_payemu/snapshot?all=true', { ...all, clock: { ...all.clock, frozen: 'yes' } }), 422, /clock\.frozen|true or false/);
    t.same(await reads(e.api, 'sn', ids), before, 'nothing changed');
    t.equal((await e.api.post('/_payemu/snapshot?all=true', ahead('2037-01-31T09:00:00Z'))).status, 200, '3,653 days ahead is allowed');
  },
);

t.test(
  "...and so is the rule between a record's fields that payemu keeps when it writes one: a fault that does nothing, drops with a status, or has acted its times; a script used up or filed under another target",
  async (t) => {
    const e = await emulator(t, { clockStart: START, freezeClock: true });
    const ids = await state(t, e);
    await e.api.post('/_payemu/faults', { path: '/v1/charges', status: 500, times: 2 });
    const good = (await e.api.get('/_payemu/snapshot')).body;
    const before = await reads(e.api, 'sn', ids);
    const change = (name: string, index: number, fields: Record<string, unknown>) => ({
      ...good,
      data: { ...good.data, [name]: good.data[name].map((r: object, i: number) => (i === index ? { ...r, ...fields } : r)) },
    });
    const timed = good.data.faults.findIndex((f: { times: number | null }) => f.times === 2);
    const cases: [unknown, string][] = [
      [change('faults', 0, { status: null }), 'data.faults.0.status'],
      [change('faults', 0, { drop: true }), 'data.faults.0.drop'],
      [change('faults', 0, { path: '/v1/**/refunds' }), 'data.faults.0.path'],
      [change('faults', timed, { hits: 2 }), `data.faults.${timed}.hits`],
      [change('outcome_scripts', 0, { used: 2 }), 'data.outcome_scripts.0.used'],
      [change('outcome_scripts', 0, { value: 'sn-other' }), 'data.outcome_scripts.0.id'],
    ];
    for (const [document, field] of cases) {
      const res = await e.api.post('/_payemu/snapshot', document);
      assertError(t, res, 422);
      t.same(Object.keys(res.body.errors[0].meta?.errors ?? {}), [field], `names ${field}`);
    }
    t.same(await reads(e.api, 'sn', ids), before, 'nothing changed');
    t.equal((await e.api.post('/_payemu/snapshot', change('faults', timed, { hits: 1 }))).status, 200, 'a fault with a time left imports');
  },
);
