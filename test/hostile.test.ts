import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { emulator, pay } from './helpers/emulator.js';
import { authCases } from './hostile/auth.js';
import { bodyCases } from './hostile/bodies.js';
import { type Case, type Fixture, wellFormedTarget } from './hostile/cases.js';
import { pathCases } from './hostile/paths.js';
import { queryCases } from './hostile/queries.js';
import { rawCases } from './hostile/raw.js';
import { ruleCases } from './hostile/rules.js';
import { type Answer, encode, exchange, judge, parse } from './hostile/wire.js';

/**
 * Thousands of generated bad requests against every key-authenticated route (the /v1 API and
 * the control plane): broken, deeply nested and oversized JSON, wrong types, `__proto__` and
 * `constructor` keys, odd paths and methods, bad keys, unicode, wrong content types, and raw
 * HTTP that no client library would send. Each is invalid for a known reason, so each must get
 * a 4xx in SPEC.md's envelope: never a 5xx, never a dropped connection, never a crash. The
 * emulator is file-backed; its files and what the API shows must be the same afterwards.
 *
 * Requests go over raw sockets (one connection each, `Connection: close`), so paths, headers
 * and bodies are sent byte for byte. Everything is generated from a fixed seed: a failure names
 * its case, and the same run reproduces it.
 */

// ---- generators: each case is invalid for the reason its name gives; one file each in
// test/hostile/, called in this order (they draw from one seeded generator, so order is pattern)

function generate(fx: Fixture): Case[] {
  const cases: Case[] = [];
  // A target whose percent-escapes are not UTF-8 text (an encoded surrogate, a cut-off
  // sequence) is refused before anything else looks at it: 400, whatever the case expected.
  const add = (c: Case) => cases.push(c.expect !== undefined && !wellFormedTarget(c.target) ? { ...c, expect: 400 } : c);

  authCases(add);
  pathCases(add, fx);
  queryCases(add, fx);
  bodyCases(add);
  ruleCases(add, fx);
  rawCases(add);
  return cases;
}

// ---- the run ---------------------------------------------------------------------------------

/** The data directory's files (the lock aside), as digests. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    if (name === 'payemu.lock') continue;
    out[name] = createHash('sha256')
      .update(fs.readFileSync(path.join(dir, name)))
      .digest('hex');
  }
  return out;
}

const prototypes = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  func: Object.getOwnPropertyNames(Function.prototype).sort(),
  string: Object.getOwnPropertyNames(String.prototype).sort(),
});

t.test('thousands of bad requests: each a 4xx in the envelope; nothing stored, nothing polluted, still serving', async (t) => {
  const dataDir = path.join(t.testdir(), 'data');
  // A frozen clock: nothing falls due during the run, so nothing may be written at all.
  const e = await emulator(t, { inMemory: false, dataDir, freezeClock: true, clockStart: '2026-11-21T10:00:00Z' });
  const serverErrors: string[] = [];
  e.bus.on('server.error', (error) => serverErrors.push(`${error.method} ${error.path}: ${error.error}`));

  // Some state to keep: an open session, a paid one, a declined one, in two Sources and modes.
  const open = await e.api.post('/v1/sessions', { amount: 12.34, reference: 'hostile-open', metadata: { keep: 'me' } });
  const paid = await pay(e, { amount: 50, reference: 'hostile-paid-ü✓' });
  await pay(e, { amount: 7, reference: 'hostile-failed' }, '4000000000000002');
  await pay(e, { amount: 9, reference: 'hostile-globex' }, '4242424242424242', e.globex);
  await e.live.post('/v1/sessions', { amount: 3, reference: 'hostile-live' });
  t.equal(open.status, 201);
  t.equal(paid.completed.status, 200);
  const fx: Fixture = { openSession: open.body.data.id, paidSession: paid.session.body.data.id, paidReference: 'hostile-paid-ü✓' };

  const visible = async () => ({
    payments: (await e.api.get('/v1/payments?page[size]=100')).text,
    live: (await e.live.get('/v1/payments?page[size]=100')).text,
    globex: (await e.globex.get('/v1/payments?page[size]=100')).text,
    open: (await e.api.get(`/v1/sessions/${fx.openSession}`)).text,
    paid: (await e.api.get(`/v1/payments/${encodeURIComponent(fx.paidReference)}`)).text,
    // (offset_seconds of a frozen clock follows real time; where it stands does not move.)
    clock: (({ now, frozen }) => ({ now, frozen }))((await e.api.get('/_payemu/clock')).body),
  });
  const filesBefore = filesOf(dataDir);
  const visibleBefore = await visible();
  const prototypesBefore = prototypes();
  t.ok(
    Object.keys(filesBefore).some((name) => name.startsWith('journal-')),
    `the store is on disk: ${Object.keys(filesBefore).join(' ')}`,
  );

  // PAYEMU_HOSTILE_REPEAT=4 sends four generations (another pattern each): the long run that
  // docs/reliability.md reports.
  const cases = Array.from({ length: Number(process.env.PAYEMU_HOSTILE_REPEAT ?? 1) }, () => generate(fx)).flat();
  const counts: Record<string, number> = {};
  for (const c of cases) counts[c.name.split(':')[0]!] = (counts[c.name.split(':')[0]!] ?? 0) + 1;
  t.ok(cases.length >= 3000, `${cases.length} cases: ${JSON.stringify(counts)}`);

  const port = Number(new URL(e.url).port);
  const host = new URL(e.url).host;
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      let answer: Answer | undefined;
      try {
        answer = parse(await exchange(port, encode(c, host), c.raw !== undefined));
      } catch (error) {
        failures.push(`${c.name} -> ${(error as Error).message}`);
        continue;
      }
      const problem = judge(c, answer);
      if (problem) failures.push(`${c.name} -> ${problem}: ${answer?.body.slice(0, 160) ?? ''}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));

  t.same(failures.slice(0, 40), [], `every answer is a 4xx in the envelope (${failures.length} failures)`);
  t.same(serverErrors.slice(0, 20), [], 'no request failed inside payemu');
  t.same(filesOf(dataDir), filesBefore, 'the data directory is byte for byte the same');
  t.same(await visible(), visibleBefore, 'the API shows the same payments, session and clock');
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was not polluted');
  t.same(prototypes(), prototypesBefore, 'no prototype gained a property');
  t.equal((await e.api.get('/v1/me')).status, 200, 'and it still serves');
});

t.test('constructor and prototype keys in an accepted body are stored as plain data', async (t) => {
  // Unknown fields are ignored and metadata is free-form (DESIGN.md 4b), so this is a valid
  // request: it must create the session and pollute nothing, now or after a restart.
  const dataDir = path.join(t.testdir(), 'data');
  const e = await emulator(t, { inMemory: false, dataDir });
  const metadata = { constructor: { prototype: { polluted: true } }, prototype: { polluted: true }, toString: 'x', 'ü✓\u202e': '\u0000' };
  const created = await e.api.post('/v1/sessions', { amount: 1, constructor: { prototype: { polluted: true } }, metadata });
  t.equal(created.status, 201);
  const read = await e.api.get(`/v1/sessions/${created.body.data.id}`);
  t.same(read.body.data.attributes.metadata, metadata);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  await e.close();
  const again = await emulator(t, { inMemory: false, dataDir });
  t.same((await again.api.get(`/v1/sessions/${created.body.data.id}`)).body.data.attributes.metadata, metadata, 'the same after a restart');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});
