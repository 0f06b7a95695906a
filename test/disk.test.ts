import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { assertError, emulator, type TestEmulator, savedCard } from './helpers/emulator.js';
import { fill, fillInodes, idleSocket, journalWhole, tmpfs } from './helpers/disk.js';

/**
 * docs/reliability.md, "The disk": a write the file system refuses is a 503 naming the cause,
 * applies nothing and leaves no byte of it on disk; reads go on; once the cause is gone the next
 * write succeeds, and a restart finds every acknowledged write (no doctor). Real file systems:
 * a small tmpfs (skipped where mounting is not allowed), real HTTP.
 */

const PAD = 'x'.repeat(20_000); // a journal line longer than the few KiB a full tmpfs leaves in its last page

const session = (e: TestEmulator, reference: string, padded = false) =>
  e.api.post('/v1/sessions', { amount: 10, reference, ...(padded ? { metadata: { pad: PAD } } : {}) });

const references = async (e: TestEmulator): Promise<string[]> => {
  // The scope's snapshot: every session the store holds.
  const snapshot = await e.api.get('/_payemu/snapshot');
  if (snapshot.status !== 200) throw new Error(`snapshot: ${snapshot.text}`);
  return (snapshot.body.data.sessions as { reference: string }[]).map((s) => s.reference).sort();
};

async function reopened(t: Test, dataDir: string, options = {}): Promise<TestEmulator> {
  return emulator(t, { inMemory: false, dataDir, ...options });
}

t.test('a full disk: 503 naming it, nothing applied, no fragment left; the next write once space is back is kept', async (t) => {
  const root = tmpfs(t, 'size=1m');
  if (!root) return;
  const dataDir = path.join(root, 'data');
  const e = await reopened(t, dataDir);
  const idle = await idleSocket(t, e.url);
  t.equal((await session(e, 'a')).status, 201);
  const open = await session(e, 'p', true);
  const domain: string[] = [];
  e.bus.on('domain', (event) => domain.push(event.name));
  const filler = fill(root);

  // A payment: its records and its event are one transaction, refused whole.
  const paid = await e.api.post(`/_payemu/sessions/${open.body.data.id}/complete`, { card_number: '4242424242424242' });
  assertError(t, paid, 503, /no space left on device/);
  t.same(domain, [], 'no event published for it (nor a webhook sent)');
  t.equal((await e.api.get(`/v1/sessions/${open.body.data.id}`)).body.data.attributes.status, 'open', 'the session is as before');

  const refused = await session(e, 'b', true);
  assertError(t, refused, 503, /^payemu cannot write its data directory: no space left on device$/);
  t.ok(journalWhole(dataDir), 'no part of the refused line is left in the journal');
  t.same(await references(e), ['a', 'p'], 'reads answer; the refused write is not in memory');
  assertError(t, await session(e, 'c', true), 503, /no space left on device/);

  fs.rmSync(filler);
  t.equal((await session(e, 'd', true)).status, 201, 'space back: the next write succeeds');
  t.equal(idle.received(), 0, 'nothing reached an idle client');
  idle.close();
  await e.close();

  const again = await reopened(t, dataDir);
  t.same(await references(again), ['a', 'd', 'p'], 'a restart finds every acknowledged write, and only those');
});

t.test('a rotation that cannot create the next segment: the write is kept, the next refused, no descriptor reused', async (t) => {
  const root = tmpfs(t, 'size=8m,nr_inodes=64');
  if (!root) return;
  const dataDir = path.join(root, 'data');
  const options = { compactAfterBytes: 10_000 };
  const e = await reopened(t, dataDir, options);
  t.equal((await session(e, 'a')).status, 201);
  const inodes = fillInodes(root);

  // This line takes the journal over the threshold: the rotation's new segment cannot be made.
  const crossing = await session(e, 'b', true);
  const idle = await idleSocket(t, e.url); // would be given the closed segment's descriptor number
  if (crossing.status === 201) {
    assertError(t, await session(e, 'c'), 503, /^payemu cannot write its data directory: no space left on device$/);
  } else assertError(t, crossing, 503, /no space left on device/);
  t.same(await references(e), crossing.status === 201 ? ['a', 'b'] : ['a'], 'reads answer');
  t.equal(idle.received(), 0, 'no journal bytes reached a client');

  for (const file of inodes) fs.rmSync(file);
  t.equal((await session(e, 'd')).status, 201, 'inodes back: the next write succeeds');
  t.equal(idle.received(), 0, 'no journal bytes reached a client');
  const acknowledged = await references(e);
  idle.close();
  await e.close();

  const again = await reopened(t, dataDir, options);
  t.same(await references(again), acknowledged, 'a restart finds exactly what was acknowledged');
});

t.test('a data directory removed while running: the next write is a 503, nothing is written into deleted files', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-removed-'));
  t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const e = await reopened(t, dataDir);
  t.equal((await session(e, 'a')).status, 201);
  fs.rmSync(dataDir, { recursive: true });

  assertError(t, await session(e, 'b'), 503, /^payemu cannot write its data directory: the data directory was removed$/);
  t.same(await references(e), ['a'], 'reads answer from memory');
  t.notOk(fs.existsSync(dataDir), 'not created again');

  // Another payemu may take the path now: the first never writes into it, nor into the deleted files.
  const second = await reopened(t, dataDir);
  t.equal((await session(second, 'c')).status, 201);
  assertError(t, await session(e, 'd'), 503, /removed/);
  await second.close();
  const third = await reopened(t, dataDir);
  t.same(await references(third), ['c']);
});

const daily = (e: TestEmulator, pm: string) =>
  e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'daily', reference: 'sub-1', metadata: { pad: PAD } });
const charges = async (e: TestEmulator) =>
  ((await e.api.get('/v1/payments?limit=100')).body.data as { attributes: { reference: string } }[])
    .map((p) => p.attributes.reference)
    .filter((r) => r.startsWith('sub-1-'))
    .sort();

t.test('an advance whose batch the disk refuses: a 503, the clock stays where it was stored, the charges run once space is back', async (t) => {
  const root = tmpfs(t, 'size=1m');
  if (!root) return;
  const dataDir = path.join(root, 'data');
  const options = { clockStart: '2027-01-31T09:00:00Z', freezeClock: true };
  const e = await reopened(t, dataDir, options);
  const pm = await savedCard(e);
  t.equal((await daily(e, pm)).status, 201);
  t.equal((await e.api.post('/_payemu/clock/advance', { by: '0s' })).status, 200);
  t.same(await charges(e), ['sub-1-0001'], 'the first charge ran when the schedule was made');
  const filler = fill(root);

  assertError(t, await e.api.post('/_payemu/clock/advance', { by: '3d' }), 503, /no space left on device/);
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-31T09:00:00.000000Z', 'the clock did not move');
  t.same(await charges(e), ['sub-1-0001'], 'no charge was made');

  fs.rmSync(filler);
  const advanced = await e.api.post('/_payemu/clock/advance', { by: '3d' });
  t.equal(advanced.status, 200, 'space back: the advance runs');
  t.equal(advanced.body.ran['recurring.charge'], 3, 'each day charged once');
  await e.close();
  const again = await reopened(t, dataDir, options);
  t.same(await charges(again), ['sub-1-0001', 'sub-1-0002', 'sub-1-0003', 'sub-1-0004'], 'a restart finds them');
});

t.test('due work the disk refuses outside an advance (the real-time tick) is logged, not fatal, and runs once space is back', async (t) => {
  const root = tmpfs(t, 'size=1m');
  if (!root) return;
  const dataDir = path.join(root, 'data');
  // A running clock: the next charge falls due by real time, on the scheduler's own tick.
  const e = await reopened(t, dataDir, { clockStart: '2027-01-31T09:00:00Z' });
  const pm = await savedCard(e);
  t.equal((await daily(e, pm)).status, 201);
  t.equal((await e.api.post('/_payemu/clock/advance', { to: '2027-01-31T23:59:59.500Z' })).status, 200);
  const refused = new Promise<string>((resolve) => e.bus.on('server.error', (x) => resolve(x.error)));
  const filler = fill(root);
  t.match(await refused, /no space left on device/, 'the refused batch is reported on the bus (the log)');
  t.equal((await e.api.get('/_payemu/health')).status, 200, 'payemu still answers');
  t.same(await charges(e), ['sub-1-0001'], 'the refused charge was not made');

  const charged = new Promise<void>((resolve) => e.bus.on('domain', (x) => x.name === 'recurring.charged' && resolve()));
  fs.rmSync(filler);
  await charged;
  t.same(await charges(e), ['sub-1-0001', 'sub-1-0002'], 'space back: the next tick makes the charge, once');
});
