// Snapshots streamed both ways: the export is written record by record (chunked) and the import
// parsed record by record as the body arrives (src/control/snapshot-body.ts). A large document
// spans many chunks; a body sent a few bytes at a time, or cut mid-record, or with a bad record
// near its end, is answered as one read whole would be, and a refusal changes nothing.
import fs from 'node:fs';
import http from 'node:http';
import t from 'tap';
import { assertError, emulator, pay, type TestEmulator } from './helpers/emulator.js';

const AUTH = { Authorization: 'Bearer sk_test_payemu_acme' };

/** POST `text` to `path`, written `piece` bytes at a time (each write its own chunk on the wire). */
function postInPieces(e: TestEmulator, path: string, text: string, piece: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(text);
    const req = http.request(`${e.url}${path}`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    let at = 0;
    const next = () => {
      while (at < bytes.length) {
        const more = req.write(bytes.subarray(at, (at += piece)));
        if (!more) return void req.once('drain', next);
      }
      req.end();
    };
    next();
  });
}

/** A state of `count` payments, and its snapshot's text as exported. */
async function large(t: Parameters<typeof emulator>[0], count: number) {
  const e = await emulator(t, { clockStart: '2027-01-01T12:00:00Z', freezeClock: true });
  await pay(e, { amount: 10, reference: 'first' });
  const doc = e.snapshot.export({ all: true });
  const template = doc.data.payments![0]!;
  const payments = Array.from({ length: count }, (_, i) => ({ ...template, id: String(i + 1), reference: `ref-${i}` }));
  const meta = doc.data.meta!.map((r) => (r.id === 'counter:payments' ? { ...r, value: count } : r));
  const document = { ...doc, data: { ...doc.data, payments, meta, sessions: [], events: [], charges: [] } };
  return { e, document, text: JSON.stringify(document) };
}

t.test('a large snapshot imports over HTTP, and exports again as the same bytes', async (t) => {
  const { e, text } = await large(t, 20_000);
  t.ok(text.length > 4_000_000, `a document of ${text.length} characters`);
  const imported = await e.api.post('/_payemu/snapshot?all=true', text);
  t.equal(imported.status, 200, imported.text.slice(0, 300));
  t.equal(imported.body.counts.payments, 20_000);
  t.equal((await e.api.get('/v1/payments?per_page=1')).body.meta.total, 20_000);
  const exported = await fetch(`${e.url}/_payemu/snapshot?all=true`, { headers: AUTH });
  t.equal(exported.headers.get('content-type'), 'application/json');
  t.equal(exported.headers.get('transfer-encoding'), 'chunked', 'written as it is made, without a Content-Length');
  // A frozen clock's offset from real time grows as real time passes: the rest must match to the byte.
  const offsetless = (text: string) => text.replace(/"offset_seconds":-?\d+/, '"offset_seconds":0');
  t.equal(offsetless(await exported.text()), offsetless(JSON.stringify(e.snapshot.export({ all: true }))), 'the same text as the document stringified whole');
  t.same(JSON.parse(JSON.stringify(e.snapshot.export({ all: true }).data.payments)), JSON.parse(text).data.payments, 'the records as imported');
});

t.test('an import leaves the records in the document’s order, whatever the store held: everything by each of its paths, and one Source and mode', async (t) => {
  const { e, document } = await large(t, 6);
  // The same ids, held in the opposite order: each path must replace them, not keep their places.
  const reversed = { ...document, data: { ...document.data, payments: [...document.data.payments].reverse() } };
  const order = (doc: { data: { payments?: { id: string }[] } }) => doc.data.payments!.map((p) => p.id);
  const paths: [string, () => Promise<unknown>][] = [
    ['streamed', () => e.api.post('/_payemu/snapshot?all=true', document)],
    ['in one transaction (an Idempotency-Key)', () => e.api.post('/_payemu/snapshot?all=true', document, { 'Idempotency-Key': 'import-order' })],
    ['through the library', async () => e.snapshot.import(document)],
  ];
  for (const [path, run] of paths) {
    t.equal((await e.api.post('/_payemu/snapshot?all=true', reversed)).status, 200);
    t.same(order(e.snapshot.export({ all: true })), order(reversed));
    const answer = await run();
    if (answer && typeof answer === 'object' && 'status' in answer) t.equal(answer.status, 200, path);
    // An export after it is the document again: a fixture exported back diffs only where the run changed it.
    t.same(order(e.snapshot.export({ all: true })), order(document), `${path}: the document's order`);
  }
  // An import of one Source and mode (always in one transaction) likewise.
  const scoped = e.snapshot.export();
  const scopedReversed = { ...scoped, data: { ...scoped.data, payments: [...scoped.data.payments!].reverse() } };
  t.equal((await e.api.post('/_payemu/snapshot', scopedReversed)).status, 200);
  t.same(order(e.snapshot.export()), order(scopedReversed), "one Source and mode, reversed: the document's order");
  t.equal((await e.api.post('/_payemu/snapshot', scoped)).status, 200);
  t.same(order(e.snapshot.export()), order(scoped), "one Source and mode: the document's order");
});

t.test('after an import, and after a restart, an export sends the records as read (white space inside one kept)', async (t) => {
  const dataDir = t.testdir();
  const { document } = await large(t, 200);
  const options = { inMemory: false, dataDir, clockStart: '2027-01-01T12:00:00Z', freezeClock: true };
  const first = await emulator(t, options);
  const compact = JSON.stringify(document.data.payments![6]);
  const spaced = compact.replace('{"id":"7",', '{ "id": "7" , ').replace('"amount":', '"amount" :\t');
  t.equal((await first.api.post('/_payemu/snapshot?all=true', JSON.stringify(document).replace(compact, spaced))).status, 200);
  const exported = async (e: TestEmulator) => (await fetch(`${e.url}/_payemu/snapshot?all=true`, { headers: AUTH })).text();
  const afterImport = await exported(first);
  t.ok(afterImport.includes(spaced), 'the record as it was sent');
  t.same(JSON.parse(afterImport).data.payments, document.data.payments, 'every record the same');
  t.same(first.snapshot.export({ all: true }).data.payments, document.data.payments, "the library's export parses them");
  await first.close();
  const second = await emulator(t, options);
  const afterRestart = await exported(second);
  // A line that does not start with its id is parsed at the restart, then written as payemu writes records.
  t.same(JSON.parse(afterRestart).data, JSON.parse(afterImport).data, 'the same records after a restart');
  t.ok(afterRestart.includes(`${JSON.stringify(document.data.payments![5])},${compact},`), 'the others as read, the spaced one as payemu writes it');
});

t.test('a body sent a few bytes at a time, or laid out with white space, imports as the same document', async (t) => {
  const { e, document, text } = await large(t, 300);
  for (const [name, body, piece] of [
    ['7 bytes a chunk', text, 7],
    ['1 byte a chunk', text, 1],
    ['indented', JSON.stringify(document, null, 2), 4096],
    ['tabs and new lines', `\n${JSON.stringify(document, null, '\t')}\n`, 333],
    ['a record a line', text.replaceAll('},{"id"', '},\n{"id"'), 4096],
  ] as const) {
    await e.api.post('/_payemu/reset', { all: true });
    const answer = await postInPieces(e, '/_payemu/snapshot?all=true', body, piece);
    t.equal(answer.status, 200, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    t.equal(answer.body.counts.payments, 300, name);
    t.same(e.snapshot.export({ all: true }).data.payments, document.data.payments, `${name}: the records`);
  }
});

t.test('a body cut mid-record, a bad record near the end, or a __proto__ key in the last record: refused, and nothing changed', async (t) => {
  const { e, document, text } = await large(t, 5_000);
  t.equal((await e.api.post('/_payemu/snapshot?all=true', text)).status, 200);
  // The data and the clock's time (a frozen clock's offset from real time grows as real time passes).
  const state = () => {
    const now = e.snapshot.export({ all: true });
    return JSON.stringify([now.data, now.clock.now]);
  };
  const before = state();
  const payments = document.data.payments!;
  const last = payments.length - 1;

  const cut = text.slice(0, text.indexOf('"ref-2500"') + 5);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', cut), 400, /not valid JSON: Unexpected end of JSON input/);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', `${text.slice(0, -10)}}}`), 400, /not valid JSON/);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', text.replace('"ref-4000"', '"ref-4000",,')), 400, /not valid JSON/);

  const badAmount = { ...document, data: { ...document.data, payments: payments.map((p, i) => (i === last ? { ...p, amount: 'ten' } : p)) } };
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', JSON.stringify(badAmount)), 422, new RegExp(`data\\.payments\\.${last}\\.amount`));
  const proto = text.replace('"reference":"ref-4999"', '"reference":"ref-4999","metadata":{"__proto__":{"x":1}}');
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', proto), 422, new RegExp(`data\\.payments\\.${last}\\.metadata\\.__proto__`));
  const deep = text.replace('"reference":"ref-4998"', `"reference":"ref-4998","metadata":{"x":${'['.repeat(70)}${']'.repeat(70)}}`);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', deep), 400, /nested too deeply/);
  const broken = Buffer.concat([Buffer.from(text.slice(0, text.length - 200)), Buffer.from([0xff]), Buffer.from(text.slice(text.length - 200))]);
  const notUtf8 = await fetch(`${e.url}/_payemu/snapshot?all=true`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: broken });
  t.equal(notUtf8.status, 400);
  t.match(await notUtf8.text(), /not valid UTF-8/);
  t.equal(state(), before, 'nothing changed');
});

t.test('the answers of a body that is not a snapshot object are readJson’s', async (t) => {
  const e = await emulator(t);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', '[1, 2]'), 422);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', '   '), 422, /no "payemu_snapshot"/);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', '{"__proto__": {}}'), 422, /__proto__/);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', '{"a": 1} x'), 400, /not valid JSON/);
  assertError(t, await e.api.post('/_payemu/snapshot?all=true', 'x', { 'Content-Type': 'text/plain' }), 415);
});

t.test('file-backed: what an import wrote, a restart reads back the same', async (t) => {
  const dataDir = t.testdir();
  const { document } = await large(t, 50);
  // Escapes and characters beyond ASCII, in a record on one line and in one laid over lines.
  document.data.payments![0] = { ...document.data.payments![0]!, description: 'café ☕' } as (typeof document.data.payments)[number];
  const first = await emulator(t, { inMemory: false, dataDir, clockStart: '2027-01-01T12:00:00Z', freezeClock: true });
  for (const [name, body] of [
    ['one line a record', JSON.stringify(document).replace('café', 'caf\\u00e9')],
    ['indented', JSON.stringify(document, null, 2).replace('café', 'thé')],
  ] as const) {
    const answer = await postInPieces(first, '/_payemu/snapshot?all=true', body, 1000);
    t.equal(answer.status, 200, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  const before = first.snapshot.export({ all: true }).data;
  await first.close();
  const second = await emulator(t, { inMemory: false, dataDir, clockStart: '2027-01-01T12:00:00Z', freezeClock: true });
  t.same(second.snapshot.export({ all: true }).data, before, 'every record read back as it was');
  t.same(before.payments!.slice(1), document.data.payments!.slice(1), 'as the last document had them');
  t.match(before.payments![0], { description: 'thé ☕' });
});

t.test('file-backed: a record that names "id" twice is read back after a restart under the id JSON gives it (the last)', async (t) => {
  const dataDir = t.testdir();
  const options = { inMemory: false, dataDir, clockStart: '2027-01-01T12:00:00Z', freezeClock: true };
  const first = await emulator(t, options);
  const charge = (id: string, payment: string) => `"source":"acme","mode":"test","payment_id":"${payment}","created_at":1798804800000}`.replace(/^/, id);
  const body = `{"payemu_snapshot":1,"scope":"all","clock":{"now":"2027-01-03T12:00:00Z"},"data":{"charges":[${[
    charge('{"id":"ch_a",', '5'),
    charge('{"id":"ch_a","id":"ch_b",', '6'),
    charge('{"id":"ch_x","id":"ch_c",', '7'),
    charge('{"id":"ch_d","id":"ch_d",', '8'),
  ].join(',')}]}}`;
  t.equal((await first.api.post('/_payemu/snapshot?all=true', body)).status, 200);
  const ids = (e: TestEmulator) => e.snapshot.export({ all: true }).data.charges!.map((c) => [c.id, (c as { payment_id?: string }).payment_id]);
  const expected = [
    ['ch_a', '5'],
    ['ch_b', '6'],
    ['ch_c', '7'],
    ['ch_d', '8'],
  ];
  t.same(ids(first), expected);
  await first.close();
  const second = await emulator(t, options);
  t.same(ids(second), expected, 'each record under its own id, none lost');
  t.equal((await second.api.get('/_payemu/snapshot')).status, 200, 'a scoped export parses every one of them');
});

t.test('file-backed: a bad record near the end is a 422 and changes nothing, on disk too; writes after an import outlive a restart', async (t) => {
  const dataDir = t.testdir();
  const { document } = await large(t, 2_000);
  const options = { inMemory: false, dataDir, clockStart: '2027-01-01T12:00:00Z', freezeClock: true };
  const first = await emulator(t, options);
  const imported = await postInPieces(first, '/_payemu/snapshot?all=true', JSON.stringify(document), 65_536);
  t.equal(imported.status, 200, JSON.stringify(imported.body).slice(0, 300));
  // Written after the import: on top of the snapshot the import wrote.
  await pay(first, { amount: 12, reference: 'after-the-import' });
  const state = (e: TestEmulator) => {
    const now = e.snapshot.export({ all: true });
    return JSON.stringify([now.data, now.clock.now]);
  };
  const before = state(first);
  const files = () => fs.readdirSync(dataDir).sort();
  const filesBefore = files();
  const payments = document.data.payments!;
  const last = payments.length - 1;
  const bad = { ...document, data: { ...document.data, payments: payments.map((p, i) => (i === last - 1 ? { ...p, status: 'LOST' } : p)) } };
  const refused = await postInPieces(first, '/_payemu/snapshot?all=true', JSON.stringify(bad), 65_536);
  t.equal(refused.status, 422);
  t.match(JSON.stringify(refused.body), new RegExp(`data\\.payments\\.${last - 1}\\.status`));
  t.equal(state(first), before, 'nothing changed');
  t.same(files(), filesBefore, 'no file written');
  // A second import, over the first one's snapshot and the journal after it.
  const again = await postInPieces(first, '/_payemu/snapshot?all=true', JSON.stringify(document), 65_536);
  t.equal(again.status, 200);
  await pay(first, { amount: 13, reference: 'after-the-second' });
  const after = state(first);
  t.notOk(after.includes('after-the-import'), 'the second import replaced what was written after the first');
  await first.close();
  const restarted = await emulator(t, options);
  t.equal(state(restarted), after, 'a restart reads the same');
  t.equal((await restarted.api.get('/v1/payments/after-the-second')).status, 200, 'a payment made after the second import is there');
  t.equal((await restarted.api.get('/v1/payments/after-the-import')).status, 404, 'one made after the first is not');
});

t.test('file-backed, a compaction running: the import of everything stops it and writes its snapshot at once; a restart reads the same', async (t) => {
  const dataDir = t.testdir();
  const { document } = await large(t, 300);
  // Every write starts a compaction (when none runs): one is running when the import comes.
  const options = { inMemory: false, dataDir, clockStart: '2027-01-01T12:00:00Z', freezeClock: true, compactAfterBytes: 1 };
  const first = await emulator(t, options);
  await pay(first, { amount: 12, reference: 'before-the-import' });
  const text = JSON.stringify(document);
  const imported = await postInPieces(first, '/_payemu/snapshot?all=true', text, 65_536);
  t.equal(imported.status, 200, JSON.stringify(imported.body).slice(0, 300));
  const snapshot = fs.readFileSync(`${dataDir}/snapshot.json`, 'utf8');
  t.ok(snapshot.includes(`\n${JSON.stringify(document.data.payments![299])}`), 'the records written as sent, as the snapshot, by the time of the answer');
  const state = first.snapshot.export({ all: true }).data;
  t.same(state.payments, document.data.payments);
  // Refused while a compaction runs: the same 422, and nothing changed.
  await pay(first, { amount: 13, reference: 'after-the-import' });
  const now = first.snapshot.export({ all: true }).data;
  const bad = { ...document, data: { ...document.data, payments: document.data.payments!.map((p, i) => (i === 7 ? { ...p, status: 'LOST' } : p)) } };
  const refused = await postInPieces(first, '/_payemu/snapshot?all=true', JSON.stringify(bad), 65_536);
  t.equal(refused.status, 422);
  t.match(JSON.stringify(refused.body), /data\.payments\.7\.status/);
  t.same(first.snapshot.export({ all: true }).data, now, 'nothing changed');
  await first.close();
  const restarted = await emulator(t, options);
  t.same(restarted.snapshot.export({ all: true }).data, now, 'a restart reads the same');
});

t.test(
  'file-backed: settled events, held as written, export as they were, are replaced by an import of everything, and a restart reads what followed',
  async (t) => {
    const dataDir = t.testdir();
    const options = { inMemory: false, dataDir, clockStart: '2027-01-01T12:00:00Z', freezeClock: true };
    const first = await emulator(t, options);
    for (const amount of [10, 11, 12]) await pay(first, { amount });
    // Exported before anything reads the events: they go out from the bytes they are held as.
    const document = JSON.parse(JSON.stringify(first.snapshot.export({ all: true })));
    t.same(
      document.data.events.map((e: { event: string; delivery_status: string }) => [e.event, e.delivery_status]),
      [
        ['payment.completed', 'no_endpoint'],
        ['payment.completed', 'no_endpoint'],
        ['payment.completed', 'no_endpoint'],
      ],
    );
    for (const amount of [20, 21]) await pay(first, { amount });
    const answer = await postInPieces(first, '/_payemu/snapshot?all=true', JSON.stringify(document), 64 * 1024);
    t.equal(answer.status, 200);
    t.same(
      first.events.list().map((e) => e.id),
      document.data.events.map((e: { id: string }) => e.id).reverse(),
      'the events held before are gone with the rest: the log is the document’s',
    );
    await pay(first, { amount: 30 });
    const before = first.events.list();
    t.equal(before.length, 4);
    await first.close();
    const second = await emulator(t, options);
    t.same(second.events.list(), before, 'a restart reads the same log');
  },
);
