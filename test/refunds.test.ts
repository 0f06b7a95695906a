import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { COLLECTIONS } from '../src/catalogue.js';
import { packageVersion } from '../src/lib/version.js';
import { refundRecordSchema } from '../src/resources/refunds/record-schema.js';
import type { RefundRecord } from '../src/resources/refunds/records.js';
import { collection } from '../src/store/collection.js';
import { filePersistence } from '../src/store/file-persistence.js';
import { Store } from '../src/store/store.js';
import { assertError, emulator, pay, type TestEmulator } from './helpers/emulator.js';

t.test('a partial then a full refund: statuses, meta.payment strings, payment.refunded', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 100, reference: 'r1' });
  const events: { name: string; data: Record<string, unknown> }[] = [];
  e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));

  const first = await e.api.post('/v1/payments/r1/refunds', { amount: 30, reason: 'damaged' });
  t.equal(first.status, 201);
  t.match(first.body.data.id, /^re_[0-9A-Za-z]{24}$/);
  t.equal(first.body.data.type, 'refunds');
  t.match(first.body.data.attributes, { amount: '30.00', reason: 'damaged', status: 'completed' });
  t.match(first.body.data.attributes.created_at, /\.\d{6}Z$/);
  t.same(first.body.meta.payment, { reference: 'r1', status: 'PARTIALLY_REFUNDED', amount: '100.00', total_refunded: '30.00', refundable_amount: '70.00' });
  t.match((await e.api.get('/v1/payments/r1')).body.data.attributes, { status: 'PARTIALLY_REFUNDED', paid: true });

  const second = await e.api.post('/v1/payments/r1/refunds', { amount: 70 });
  t.same(second.body.meta.payment, { reference: 'r1', status: 'REFUNDED', amount: '100.00', total_refunded: '100.00', refundable_amount: '0.00' });
  t.equal(second.body.data.attributes.reason, null);
  t.match((await e.api.get('/v1/payments/r1')).body.data.attributes, { status: 'REFUNDED', paid: true });

  t.same(
    events.map((ev) => ev.name),
    ['payment.refunded', 'payment.refunded'],
  );
  t.match(events[0]!.data, { reference: 'r1', status: 'PARTIALLY_REFUNDED', refund_amount: 30, total_refunded: 30, refundable_amount: 70 });

  const list = await e.api.get('/v1/payments/r1/refunds');
  t.equal(list.status, 200);
  t.same(
    list.body.data.map((r: { attributes: { amount: string } }) => r.attributes.amount),
    ['30.00', '70.00'],
  );
  t.same(list.body.meta.payment.total_refunded, '100.00');
});

t.test('every refusal is a 422 that says why and changes nothing', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'paid' });
  await pay(e, { amount: 10, reference: 'failed' }, '4000000000000002');
  await pay(e, { amount: 10, reference: 'held', capture_method: 'manual' });

  const cases: [string, unknown, RegExp][] = [
    ['failed', { amount: 1 }, /status is FAILED/],
    ['held', { amount: 1 }, /status is AUTHORIZED/],
    ['paid', { amount: 10.01 }, /exceeds the refundable amount 10\.00/],
    ['paid', { amount: 0 }, /at least 0\.01/],
    ['paid', { amount: 5.001 }, /2 decimal places/],
    ['paid', {}, /amount field is required/],
    ['paid', { amount: '5' }, /must be a number/],
    ['paid', { amount: 1, reason: 'x'.repeat(501) }, /reason/],
  ];
  for (const [reference, body, detail] of cases) {
    assertError(t, await e.api.post(`/v1/payments/${reference}/refunds`, body), 422, detail);
  }
  t.same((await e.api.get('/v1/payments/paid/refunds')).body.data, [], 'no refund was made');
  t.equal((await e.api.get('/v1/payments/paid')).body.data.attributes.status, 'PAID');

  await e.api.post('/v1/payments/paid/refunds', { amount: 10 });
  assertError(t, await e.api.post('/v1/payments/paid/refunds', { amount: 0.01 }), 422, /nothing is left to refund/);
  assertError(t, await e.api.post('/v1/payments/nope/refunds', { amount: 1 }), 404);
  assertError(t, await e.api.get('/v1/payments/nope/refunds'), 404);
  assertError(t, await e.globex.post('/v1/payments/paid/refunds', { amount: 1 }), 404);
});

t.test('money is exact: 100 refunds of 0.01, and 0.1 + 0.2', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 1, reference: 'pennies' });
  for (let i = 0; i < 100; i++) {
    const res = await e.api.post('/v1/payments/pennies/refunds', { amount: 0.01 });
    t.equal(res.status, 201);
  }
  const meta = (await e.api.get('/v1/payments/pennies/refunds')).body.meta.payment;
  t.same(meta, { reference: 'pennies', status: 'REFUNDED', amount: '1.00', total_refunded: '1.00', refundable_amount: '0.00' });

  await pay(e, { amount: 0.3, reference: 'float' });
  await e.api.post('/v1/payments/float/refunds', { amount: 0.1 });
  const last = await e.api.post('/v1/payments/float/refunds', { amount: 0.2 });
  t.same(last.body.meta.payment, { reference: 'float', status: 'REFUNDED', amount: '0.30', total_refunded: '0.30', refundable_amount: '0.00' });
});

t.test('20 concurrent refunds against one payment leave the books exact', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 100, reference: 'race' });
  const answers = await Promise.all(Array.from({ length: 20 }, () => e.api.post('/v1/payments/race/refunds', { amount: 7 })));
  const ok = answers.filter((a) => a.status === 201).length;
  t.equal(ok, 14, '14 x 7.00 fit in 100.00');
  t.equal(answers.filter((a) => a.status === 422).length, 6);
  const meta = (await e.api.get('/v1/payments/race/refunds')).body;
  t.equal(meta.data.length, 14);
  t.same(meta.meta.payment, { reference: 'race', status: 'PARTIALLY_REFUNDED', amount: '100.00', total_refunded: '98.00', refundable_amount: '2.00' });
});

t.test('include=refunds puts the refunds in included', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 50, reference: 'inc' });
  const a = await e.api.post('/v1/payments/inc/refunds', { amount: 5 });
  const b = await e.api.post('/v1/payments/inc/refunds', { amount: 6 });
  const res = await e.api.get('/v1/payments/inc?include=refunds');
  t.equal(res.status, 200);
  t.same(res.body.data.relationships, {
    refunds: {
      data: [
        { type: 'refunds', id: a.body.data.id },
        { type: 'refunds', id: b.body.data.id },
      ],
    },
  });
  t.same(
    res.body.included.map((r: { id: string }) => r.id),
    [a.body.data.id, b.body.data.id],
  );
  t.equal(res.body.included[0].attributes.amount, '5.00');
  t.notOk('included' in (await e.api.get('/v1/payments/inc')).body);
  assertError(t, await e.api.get('/v1/payments/inc?include=sessions'), 400, /include path "sessions"/);
});

/** The dashboard overview's count of refunds for the key's Source and mode. */
async function refundsShown(e: TestEmulator, mode: 'test' | 'live'): Promise<number> {
  const page = await (await fetch(`${e.url}/_payemu/dashboard?source=acme&mode=${mode}`)).text();
  return Number(/>Refunds<\/a><\/dt><dd>(\d+)</.exec(page)?.[1]);
}

/** The columns index-keys.json holds for a collection's index keys (undefined: none). */
function keptKeyColumns(dir: string, name: string): unknown[] | undefined {
  const [head, ...lines] = fs.readFileSync(path.join(dir, 'index-keys.json'), 'utf8').split('\n');
  const entry = (JSON.parse(head!) as { collections: Record<string, { at: number }> }).collections[name];
  if (entry === undefined) return undefined;
  let at = 0;
  for (const line of lines) {
    if (at === entry.at) return JSON.parse(line) as unknown[];
    at += Buffer.byteLength(line) + 1;
  }
  return undefined;
}

t.test('refunds are counted by their scope index, on a data directory written before it existed too', async (t) => {
  const dir = t.testdir();
  const options = { inMemory: false, dataDir: dir, freezeClock: true, clockStart: '2027-01-01T10:00:00Z' };
  const first = await emulator(t, options);
  await pay(first, { amount: 100, reference: 'old-1' });
  await pay(first, { amount: 100, reference: 'old-2' });
  await pay(first, { amount: 100, reference: 'old-live' }, '4111111111111111', first.live); // a test card is declined in live mode
  for (const [reference, amount] of [
    ['old-1', 10],
    ['old-1', 20],
    ['old-2', 30],
  ] as const) {
    t.equal((await first.api.post(`/v1/payments/${reference}/refunds`, { amount })).status, 201);
  }
  t.equal((await first.live.post('/v1/payments/old-live/refunds', { amount: 40 })).status, 201);
  t.equal(await refundsShown(first, 'test'), 3);
  t.equal(await refundsShown(first, 'live'), 1);
  await first.close();

  // The previous version: refunds indexed by payment only. Its clean stop keeps a snapshot and,
  // beside it, the refunds' keys of that one index.
  const Before = collection<RefundRecord>('refunds', { payment: (r) => r.payment_id }, undefined, refundRecordSchema);
  const before = new Store(
    COLLECTIONS.map((c) => (c.name === 'refunds' ? Before : c)) as never,
    filePersistence(dir, { snapshotAtCloseBytes: 1, keysMadeBy: `payemu ${packageVersion()}` }),
  );
  await before.open();
  t.equal(before.find(Before, 'payment', before.all(Before).next().value!.payment_id).length, 2, 'the previous version reads its refunds');
  await before.close();
  t.equal(keptKeyColumns(dir, 'refunds')?.length, 1, "the data directory keeps the previous version's one refunds index");

  const second = await emulator(t, options);
  t.equal(await refundsShown(second, 'test'), 3, 'each scope counts its own refunds after the restart');
  t.equal(await refundsShown(second, 'live'), 1);
  t.same(
    (await second.api.get('/v1/payments/old-1/refunds')).body.data.map((r: { attributes: { amount: string } }) => r.attributes.amount),
    ['10.00', '20.00'],
    'the index by payment still finds them',
  );
  t.equal((await second.live.post('/v1/payments/old-live/refunds', { amount: 1 })).status, 201);
  t.equal(await refundsShown(second, 'live'), 2, 'a new refund is counted in its scope');
  t.equal(await refundsShown(second, 'test'), 3);
  await second.close();
  t.equal(keptKeyColumns(dir, 'refunds')?.length, 2, 'the clean stop keeps the keys of both indexes');

  const third = await emulator(t, options);
  t.equal(await refundsShown(third, 'test'), 3, 'counted from the keys kept beside the snapshot');
  t.equal(await refundsShown(third, 'live'), 2);
});
