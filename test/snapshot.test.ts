import t from 'tap';
import { assertError, emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';
import { RICH_START, richState } from './helpers/rich-state.js';

const START = RICH_START;

/** Every read a user could make of that state, /v1 and control plane, as answered. */
async function reads(e: TestEmulator, ids: Record<string, string>) {
  const paths = [
    '/v1/me',
    '/v1/payments?per_page=100',
    '/v1/payments/paid-1?include=refunds',
    '/v1/payments/held-1',
    '/v1/payments/refunded-1?include=refunds',
    '/v1/payments/retry-me',
    `/v1/sessions/${ids.session}`,
    `/v1/charges/${ids.charge}`,
    '/v1/recurring-payments',
    '/v1/recurring-payments/sub-1',
    '/v1/invoices',
    `/v1/invoices/${ids.overdue}`,
    `/v1/invoices/${ids.sent}`,
    '/v1/payment-links',
    '/v1/payment-links/1',
    '/_payemu/events?limit=1000',
    '/_payemu/clock',
    '/_payemu/outcomes',
  ];
  const answers: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await e.api.get(path);
    answers[path] = { status: res.status, body: res.body };
  }
  // A frozen clock's offset from real time grows as real time passes: the time itself must match.
  delete ((answers['/_payemu/clock'] as any).body as Record<string, unknown>).offset_seconds;
  answers.globex = (await e.globex.get(`/v1/sessions/${ids.globex}`)).body;
  const replay = await e.api.post('/v1/payments/paid-1/refunds', { amount: 1 }, { 'Idempotency-Key': 'refund-once' });
  answers.replay = { status: replay.status, body: replay.body, replayed: replay.headers.get('idempotent-replayed') };
  return answers;
}

t.test('export all, reset all, import: every read answers the same, and schedules, invoices and deliveries carry on', async (t) => {
  const { e, r, ids } = await richState(t);
  const before = await reads(e, ids);
  const waiting = (before['/_payemu/events?limit=1000'] as any).body.events.find((x: any) => x.reference === 'retry-me');
  t.match(waiting, { delivery_status: 'retrying', next_attempt_at: '2027-02-10T09:00:01.000000Z' }, 'a delivery waits for its retry');
  const snapshot = await e.api.get('/_payemu/snapshot?all=true');
  t.equal(snapshot.status, 200);
  t.equal(snapshot.body.payemu_snapshot, 1);
  t.equal(snapshot.body.scope, 'all');
  t.equal(snapshot.body.clock.now, '2027-02-10T09:00:00.000000Z');
  for (const name of [
    'sessions',
    'payments',
    'payment_methods',
    'refunds',
    'charges',
    'recurring_payments',
    'invoices',
    'payment_links',
    'events',
    'idempotency_keys',
    'outcome_scripts',
    'meta',
  ])
    t.ok(snapshot.body.data[name]?.length > 0, `the snapshot holds ${name}`);

  t.equal((await e.api.post('/_payemu/reset', { all: true })).status, 200);
  t.equal((await e.api.get('/v1/payments/paid-1')).status, 404);
  const imported = await e.api.post('/_payemu/snapshot?all=true', snapshot.body);
  t.equal(imported.status, 200);
  t.match(imported.body, { scope: 'all', now: '2027-02-10T09:00:00.000000Z' });
  t.equal(imported.body.counts.payments, snapshot.body.data.payments.length);
  t.same(await reads(e, ids), before, 'every read answers the same');

  const delivered = r.received.length;
  const res = await e.api.post('/_payemu/clock/advance', { by: '30d' });
  t.equal(res.body.ran['recurring.charge'], 1, 'the schedule bills on Feb 28');
  t.equal(res.body.ran['webhook.retry'], 1, 'the pending delivery is retried');
  await e.idle();
  t.match((await e.api.get('/v1/payments/sub-1-0002')).body.data.attributes, { status: 'PAID', created_at: '2027-02-28T00:00:00.000000Z' });
  const retried = (await e.api.get('/_payemu/events?reference=retry-me')).body.events[0];
  t.equal(retried.delivery_status, 'delivered');
  t.ok(
    r.received.slice(delivered).some((x) => JSON.parse(x.body).data.reference === 'retry-me'),
    'the receiver got it',
  );
  const pay2 = await pay(e, { amount: 1, reference: 'after-import' });
  t.ok(Number(pay2.completed.body.payment.id) > Math.max(...snapshot.body.data.payments.map((p: any) => Number(p.id))), 'payment ids never repeat');
});

t.test("a scope's snapshot replaces that scope only", async (t) => {
  const { e, ids } = await richState(t);
  const snapshot = (await e.api.get('/_payemu/snapshot')).body;
  t.same(snapshot.scope, { source: 'acme', mode: 'test' });
  t.notOk(
    snapshot.data.sessions.some((s: any) => s.source !== 'acme'),
    "another Source's records are not in it",
  );
  const before = await reads(e, ids);
  const madeAfter = await e.api.post('/v1/sessions', { amount: 2, reference: 'made-after' });
  const globex2 = await e.globex.post('/v1/sessions', { amount: 4, reference: 'globex-2' });
  const imported = await e.api.post('/_payemu/snapshot', snapshot);
  t.equal(imported.status, 200);
  t.same(imported.body.scope, { source: 'acme', mode: 'test' });
  t.equal((await e.api.get(`/v1/sessions/${madeAfter.body.data.id}`)).status, 404, 'what came after is gone');
  t.equal((await e.globex.get(`/v1/sessions/${globex2.body.data.id}`)).status, 200, "globex's sessions are untouched");
  const after = await reads(e, ids);
  t.same(after, before);
  assertError(t, await e.globex.post('/_payemu/snapshot', snapshot), 422, /snapshot of acme in test mode/);
});

t.test('a snapshot of an earlier version, whose events kept their body whole, imports: the log and the deliveries are as before', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { clockStart: START, freezeClock: true, webhookUrl: r.url });
  const snapshot = (await e.api.get('/_payemu/snapshot')).body;
  const at = Date.parse(START);
  const data = { payment_id: 7, reference: 'old-1', amount: 10, currency: 'USD', status: 'PAID', card_last: '4242', card_brand: 'visa', metadata: {} };
  // How versions before the lean event record stored an event: the webhook body whole, a copy of
  // its reference, the attempt log (one failed attempt, a retry due in a second).
  const attempt = { status: 500, response_body: 'down', duration_ms: 3, error: 'HTTP 500', at, url: r.url };
  snapshot.data.events = [
    {
      id: '0b9c5a3e-7d3f-4c1e-9a65-2f5c8d1e4b7a',
      source: 'acme',
      mode: 'test',
      event: 'payment.completed',
      payload: { event: 'payment.completed', data },
      reference: 'old-1',
      created_at: at,
      delivery_status: 'retrying',
      attempts: [attempt],
      cycle_attempts: 1,
      next_attempt_at: at + 1000,
    },
  ];
  t.equal((await e.api.post('/_payemu/snapshot', snapshot)).status, 200);
  const listed = (await e.api.get('/_payemu/events?reference=old-1')).body.events;
  t.match(listed, [
    {
      id: '0b9c5a3e-7d3f-4c1e-9a65-2f5c8d1e4b7a',
      reference: 'old-1',
      payload: { event: 'payment.completed', data },
      delivery_status: 'retrying',
      attempts: [{ status: 500, state: 'failed' }],
    },
  ]);
  const delivered = r.next();
  await e.api.post('/_payemu/clock/advance', { by: '1s' });
  t.same(JSON.parse((await delivered).body), { event: 'payment.completed', data }, 'the retry sends the same body');
  await e.idle();
  t.match((await e.api.get('/_payemu/events?reference=old-1')).body.events[0], { delivery_status: 'delivered', attempts: [{ status: 500 }, { status: 200 }] });
});

t.test('a malformed snapshot, or one of a later format, is a 422 saying what is wrong, and changes nothing', async (t) => {
  const { e, ids } = await richState(t);
  const good = (await e.api.get('/_payemu/snapshot?all=true')).body;
  const before = await reads(e, ids);
  const bad: [unknown, RegExp][] = [
    [{ ...good, payemu_snapshot: 2 }, /format 2, written by a later payemu/],
    [{ ...good, payemu_snapshot: undefined }, /no "payemu_snapshot"/],
    [{ ...good, clock: { now: 'yesterday' } }, /"clock" must be/],
    [{ ...good, data: { ...good.data, widgets: [] } }, /unknown collection "widgets"/],
    [{ ...good, data: { ...good.data, payments: {} } }, /must be an array/],
    [{ ...good, data: { ...good.data, payments: [...good.data.payments, { amount: 1 }] } }, /data\.payments\.\d+ has no "id"/],
    [{ ...good, data: { ...good.data, payments: [...good.data.payments, good.data.payments[0]] } }, /twice/],
    [{ ...good, data: { ...good.data, meta: [{ id: 'clock', clock: {} }] } }, /must be a counter/],
    [{ ...good, extra: 1 }, /unknown field "extra"/],
  ];
  // Two payments of one reference, or a reference of two Sources: payemu never writes either.
  const first = good.data.payments[0];
  const second = good.data.payments.findIndex((p: any, i: number) => i > 0 && p.mode === first.mode);
  const session = good.data.sessions.findIndex((s: any) => s.source !== first.source && s.mode === first.mode);
  t.ok(second > 0 && session >= 0, "the state has a second payment and another Source's session in one mode");
  const reused = (name: string, i: number) => ({
    ...good,
    data: { ...good.data, [name]: good.data[name].map((r: any, j: number) => (j === i ? { ...r, reference: first.reference } : r)) },
  });
  bad.push(
    [reused('payments', second), new RegExp(`data\\.payments\\.${second}: the reference "${first.reference}" has another payment in ${first.mode} mode`)],
    [reused('sessions', session), new RegExp(`data\\.sessions\\.${session}: the reference "${first.reference}" is used by two Sources`)],
  );
  for (const [document, message] of bad) assertError(t, await e.api.post('/_payemu/snapshot?all=true', document), 422, message);
  // With an Idempotency-Key the body is parsed whole and checked by the other path: the same answers.
  for (const [i, [document, message]] of bad.slice(-2).entries())
    assertError(t, await e.api.post('/_payemu/snapshot?all=true', document, { 'Idempotency-Key': `reference-rule-${i}` }), 422, message);
  assertError(t, await e.api.post('/_payemu/snapshot', good), 422, /import it with \?all=true/);
  const scoped = (await e.api.get('/_payemu/snapshot')).body;
  const own = 1;
  t.ok(scoped.data.payments.length > own, 'the scope has two payments');
  assertError(
    t,
    await e.api.post('/_payemu/snapshot', {
      ...scoped,
      data: {
        ...scoped.data,
        payments: scoped.data.payments.map((p: any, i: number) => (i === own ? { ...p, reference: scoped.data.payments[0].reference } : p)),
      },
    }),
    422,
    new RegExp(`data\\.payments\\.${own}: the reference .* has another payment`),
  );
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', scoped), 422, /without \?all=true/);
  assertError(
    t,
    await e.api.post('/_payemu/snapshot', {
      ...scoped,
      data: { ...scoped.data, sessions: [...scoped.data.sessions, { id: 'x', source: 'globex', mode: 'test' }] },
    }),
    422,
    /belongs to another Source or mode/,
  );
  t.same(await reads(e, ids), before, 'nothing changed');
});

t.test('library: snapshot.export / snapshot.import, and startEmulator({import})', async (t) => {
  const { e, ids } = await richState(t);
  const all = e.snapshot.export({ all: true });
  const scoped = e.snapshot.export();
  t.same(scoped.scope, { source: 'acme', mode: 'test' });
  const before = await reads(e, ids);
  await e.api.post('/_payemu/reset', { all: true });
  t.match(e.snapshot.import(all), { scope: 'all' });
  t.same(await reads(e, ids), before);
  t.throws(() => e.snapshot.import({ ...all, payemu_snapshot: 9 }), /format 9/);
  const fresh = await emulator(t, { import: all, freezeClock: true });
  t.equal(fresh.clock.now(), '2027-02-10T09:00:00.000000Z');
  t.equal((await fresh.api.get('/v1/payments/paid-1')).body.data.attributes.status, 'PARTIALLY_REFUNDED');
  await t.rejects(emulator(t, { import: { ...all, data: 7 } as never }), /--import: .*"data" must be an object/);
});

t.test(
  'library: what the HTTP body refuses, a document given as a value is refused for too (a __proto__ key, a lone surrogate, 65 levels, a cycle)',
  async (t) => {
    const { e } = await richState(t);
    const all = e.snapshot.export({ all: true });
    const before = JSON.stringify(e.snapshot.export({ all: true }).data);
    const withMetadata = (metadata: unknown) => {
      const copy = structuredClone(all);
      (copy.data.payments![0] as { metadata?: unknown }).metadata = metadata;
      return copy;
    };
    const refusals: [unknown, number, RegExp][] = [
      [withMetadata(JSON.parse('{"__proto__":{"x":1}}')), 422, /The data\.payments\.0\.metadata\.__proto__ field is not allowed/],
      [withMetadata({ note: 'a\ud800b' }), 422, /data\.payments\.0\.metadata\.note/],
      [withMetadata({ 'k\udc00': 1 }), 422, /data\.payments\.0\.metadata\.k/],
      [withMetadata(JSON.parse(`${'['.repeat(65)}${']'.repeat(65)}`)), 400, /nested too deeply: more than 64 levels/],
    ];
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    refusals.push([withMetadata(cycle), 400, /nested too deeply/]);
    for (const [document, status, message] of refusals) {
      t.throws(() => e.snapshot.import(document as typeof all), { status, message }, `${status} ${message}`);
    }
    t.equal(JSON.stringify(e.snapshot.export({ all: true }).data), before, 'nothing changed');
  },
);
