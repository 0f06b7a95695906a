import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { startEmulator, verifyWebhook } from '../src/index.js';
import { PayemuProcess } from './helpers/cli.js';
import { assertError, emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver, type Received } from './helpers/receiver.js';

// Many payemu processes, each starting an emulator: the longer timeout of the CLI suites on a loaded machine.
t.setTimeout(240_000);

const fast = { webhookBackoff: '0,0,0' };

/** A receiver that checks signatures as a careful handler does: 400 when verification fails. */
function verifying(secret = 'whsec_payemu_acme') {
  return (req: Received, res: import('node:http').ServerResponse) => {
    try {
      verifyWebhook(req.body, req.headers['x-webhook-signature'] as string | undefined, secret);
      res.end('ok');
    } catch (error) {
      res.statusCode = 400;
      res.end((error as Error).message);
    }
  };
}

/** Pays `n` checkouts one after another; answers the events in the order they were raised. */
async function payments(e: TestEmulator, n: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    await pay(e, { amount: 10, reference: `${prefix}-${i}` });
    const [event] = e.events.list({ reference: `${prefix}-${i}` });
    ids.push(event!.id);
  }
  return ids;
}

/** Each event's attempts as their chaos labels, in event order. */
function pattern(e: TestEmulator, ids: string[]): (string | null)[][] {
  return ids.map((id) => e.events.get(id)!.attempts.map((a) => a.chaos));
}

t.test('duplicate: the delivery arrives twice with identical bodies, and the log marks the second copy', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  t.equal((await e.api.request('PUT', '/_payemu/webhook-chaos', { duplicate: 1 })).status, 200);
  await pay(e, { amount: 12, reference: 'dup-1' });
  await e.idle();
  t.equal(r.received.length, 2, 'sent twice');
  const [first, second] = r.received as [Received, Received];
  t.equal(second.body, first.body, 'the same body, byte for byte');
  t.equal(second.headers['x-webhook-event-id'], first.headers['x-webhook-event-id'], 'the same event id');
  t.doesNotThrow(() => verifyWebhook(second.body, second.headers['x-webhook-signature'] as string, 'whsec_payemu_acme'), 'the copy is signed correctly');
  const id = String(first.headers['x-webhook-event-id']);
  const event = (await e.api.get(`/_payemu/events/${id}`)).body;
  t.equal(event.delivery_status, 'delivered');
  t.same(
    event.attempts.map((a: { status: number; chaos: string | null }) => [a.status, a.chaos]),
    [
      [200, null],
      [200, 'duplicate'],
    ],
  );
});

t.test('duplicate: a copy the receiver refuses is logged but not retried, and the delivery stays delivered', async (t) => {
  let calls = 0;
  const r = await receiver(t, (_req, res) => {
    res.statusCode = ++calls === 1 ? 200 : 500;
    res.end();
  });
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  e.webhookChaos.set({ duplicate: 1 });
  await pay(e, { amount: 12, reference: 'dup-2' });
  await e.idle();
  const [event] = e.events.list({ reference: 'dup-2' });
  t.equal(event!.delivery_status, 'delivered');
  t.same(
    event!.attempts.map((a) => [a.status, a.chaos]),
    [
      [200, null],
      [500, 'duplicate'],
    ],
  );
  t.equal(r.received.length, 2);
});

for (const kind of ['stale_timestamp', 'bad_signature'] as const) {
  t.test(`${kind}: a verifying receiver refuses the first attempt, and the retry, which carries no chaos, passes`, async (t) => {
    const r = await receiver(t, verifying());
    const e = await emulator(t, { ...fast, webhookUrl: r.url });
    e.webhookChaos.set({ [kind]: 1 });
    await pay(e, { amount: 12, reference: `sig-${kind}` });
    await e.idle();
    const [event] = e.events.list({ reference: `sig-${kind}` });
    t.equal(event!.delivery_status, 'delivered');
    t.same(
      event!.attempts.map((a) => [a.status, a.chaos]),
      [
        [400, kind],
        [200, null],
      ],
    );
    t.match(event!.attempts[0]!.response_body, kind === 'stale_timestamp' ? /timestamp/ : /No v1= signature matches/);
    const [refused, retried] = r.received as [Received, Received];
    t.equal(retried.body, refused.body, 'the retry sends the same body');
    if (kind === 'stale_timestamp') {
      const t0 = Number(/t=(\d+)/.exec(String(refused.headers['x-webhook-signature']))![1]);
      t.ok(Math.abs(Date.now() / 1000 - 600 - t0) < 60, 't= is ten minutes old');
      t.doesNotThrow(() => verifyWebhook(refused.body, String(refused.headers['x-webhook-signature']), 'whsec_payemu_acme', { toleranceSeconds: 0 }));
    }
  });
}

t.test('the same seed gives the same pattern; another seed another one', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  const settings = { duplicate: 0.4, stale_timestamp: 0.3, bad_signature: 0.2, seed: 7 };
  /** Pays 12 checkouts under `chaos` in an emptied scope; answers each event's attempts' chaos, in event order. */
  const run = async (chaos: Record<string, number>, prefix: string) => {
    await e.api.post('/_payemu/reset', {});
    await e.api.request('PUT', '/_payemu/webhook-chaos', chaos);
    const ids = await payments(e, 12, prefix);
    await e.idle();
    return pattern(e, ids);
  };
  const first = await run(settings, 'a');
  t.ok(
    first.some((labels) => labels.includes('duplicate')) && first.some((labels) => labels[0] === null),
    `some events carry chaos and some none: ${JSON.stringify(first)}`,
  );
  // A PUT starts the generator over from the seed.
  t.same(await run(settings, 'b'), first, 'same seed, same chaos on the same events');
  t.notSame(await run({ ...settings, seed: 8 }, 'c'), first, 'another seed, another pattern');
});

t.test('delay: first attempts wait a random time, so a later event can arrive first; every one is delivered', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  // Seed 121 draws a delay near the whole 400ms for the first event and near none for the second.
  e.webhookChaos.set({ delay: '400ms', seed: 121 });
  const secondArrives = r.next();
  const ids = await payments(e, 2, 'late');
  const firstReceived = await secondArrives;
  t.equal(firstReceived.headers['x-webhook-event-id'], ids[1], 'the second event arrived before the first');
  await e.idle();
  t.same(
    r.received.map((req) => req.headers['x-webhook-event-id']),
    [ids[1], ids[0]],
  );
  for (const id of ids) {
    const event = e.events.get(id)!;
    t.equal(event.delivery_status, 'delivered');
    t.same(
      event.attempts.map((a) => a.chaos),
      ['delayed'],
    );
  }
});

t.test('PUT replaces, GET reads, DELETE turns it off; per Source and mode', async (t) => {
  const e = await emulator(t);
  t.same((await e.api.get('/_payemu/webhook-chaos')).body, {}, 'off by default');
  const put = await e.api.request('PUT', '/_payemu/webhook-chaos', { duplicate: 0.2, delay: '5s', stale_timestamp: 0.1, bad_signature: 0.1, seed: 7 });
  t.equal(put.status, 200);
  t.same(put.body, { duplicate: 0.2, delay: '5s', stale_timestamp: 0.1, bad_signature: 0.1, seed: 7 });
  t.same((await e.api.get('/_payemu/webhook-chaos')).body, put.body);
  t.same((await e.live.get('/_payemu/webhook-chaos')).body, {}, 'live mode has its own');
  t.same((await e.globex.get('/_payemu/webhook-chaos')).body, {}, 'another Source has its own');
  await e.api.request('PUT', '/_payemu/webhook-chaos', { duplicate: 0.5 });
  t.same((await e.api.get('/_payemu/webhook-chaos')).body, { duplicate: 0.5 }, 'PUT replaces the whole settings');
  t.same(e.webhookChaos.get(), { duplicate: 0.5 }, 'the library reads the same');
  await e.api.post('/_payemu/reset', {});
  t.same((await e.api.get('/_payemu/webhook-chaos')).body, { duplicate: 0.5 }, 'a reset leaves it');
  const del = await e.api.request('DELETE', '/_payemu/webhook-chaos');
  t.equal(del.status, 200);
  t.same(del.body, {});
  t.same((await e.api.get('/_payemu/webhook-chaos')).body, {}, 'after DELETE, GET answers {}');
  t.equal((await e.api.request('DELETE', '/_payemu/webhook-chaos')).status, 200, 'DELETE again is harmless');
});

t.test('a wrong setting is a 422 naming the field, and changes nothing', async (t) => {
  const e = await emulator(t);
  await e.api.request('PUT', '/_payemu/webhook-chaos', { duplicate: 0.1 });
  const cases: [Record<string, unknown>, string][] = [
    [{ duplicate: 2 }, 'duplicate'],
    [{ stale_timestamp: -0.1 }, 'stale_timestamp'],
    [{ bad_signature: 'often' }, 'bad_signature'],
    [{ delay: 'soon' }, 'delay'],
    [{ delay: 5 }, 'delay'],
    [{ delay: '2h' }, 'delay'],
    [{ seed: 1.5 }, 'seed'],
    [{ reorder: 0.5 }, 'reorder'],
  ];
  for (const [body, field] of cases) {
    const answer = await e.api.request('PUT', '/_payemu/webhook-chaos', body);
    assertError(t, answer, 422);
    t.ok(
      Object.keys(answer.body.errors[0].meta.errors).some((k) => k.includes(field)),
      `${JSON.stringify(body)} names ${field}: ${answer.text}`,
    );
  }
  t.same((await e.api.get('/_payemu/webhook-chaos')).body, { duplicate: 0.1 }, 'unchanged');
  t.throws(() => e.webhookChaos.set({ duplicate: 3 }), /duplicate/);
});

t.test('it survives a restart, and the webhookChaos option sets it for every Source in both modes', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-chaos-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const first = await startEmulator({ inMemory: false, dataDir: dir, webhookChaos: 'duplicate=0.2,delay=5s,seed=7' });
  t.same(first.webhookChaos.get(), { duplicate: 0.2, delay: '5s', seed: 7 });
  t.same(first.webhookChaos.get({ source: 'globex', mode: 'live' }), { duplicate: 0.2, delay: '5s', seed: 7 });
  first.webhookChaos.set({ bad_signature: 0.5 }, { source: 'globex' });
  await first.close();
  const second = await startEmulator({ inMemory: false, dataDir: dir });
  t.teardown(() => second.close());
  t.same(second.webhookChaos.get(), { duplicate: 0.2, delay: '5s', seed: 7 }, 'kept across the restart');
  t.same(second.webhookChaos.get({ source: 'globex' }), { bad_signature: 0.5 });
  second.webhookChaos.clear();
  t.same(second.webhookChaos.get(), {});
  await t.rejects(startEmulator({ webhookChaos: 'duplicate=often' }), /--webhook-chaos: duplicate/);
  await t.rejects(startEmulator({ webhookChaos: { delay: 'later' } }), /--webhook-chaos: delay/);
});

t.test('payemu webhook-chaos set: a wrong item is exit 2 in one line naming it, before any request', async (t) => {
  for (const list of ['delay=5x', 'duplicate=2', 'reorder=1']) {
    const wrong = new PayemuProcess(t, ['webhook-chaos', 'set', list, '--url', 'http://127.0.0.1:9']);
    t.equal((await wrong.exited).code, 2, `${list}: not 3, nothing was asked of the URL`);
    t.equal(wrong.stderr.split('\n').filter(Boolean).length, 1, `${list}: one line`);
    t.match(wrong.stderr, new RegExp(`^payemu: webhook-chaos set: ${list.split('=')[0]}.*[^.]\\. See \`payemu webhook-chaos set --help\`\\.\n$`));
  }
});

t.test('payemu start --webhook-chaos: a wrong value is exit 2 naming it; a right one is in force', async (t) => {
  const bad = new PayemuProcess(t, ['start', '--in-memory', '--port', '0', '--no-ui', '--webhook-chaos', 'duplicate=0.2,delay=soon']);
  t.equal((await bad.exited).code, 2);
  t.match(bad.stderr, /--webhook-chaos/);
  t.match(bad.stderr, /delay/);
  const unknown = new PayemuProcess(t, ['exec', '--webhook-chaos', 'reorder=1', '--', process.execPath, '-e', '']);
  t.equal((await unknown.exited).code, 2);
  t.match(unknown.stderr, /reorder/);

  const good = new PayemuProcess(t, ['start', '--in-memory', '--port', '0', '--no-ui', '--webhook-chaos', 'duplicate=0.2,seed=3']);
  const line = await good.waitForLine(/listening on/);
  const url = /(http:\/\/\S+)/.exec(line)![1]!;
  t.match(await good.waitForLine(/webhook chaos/), /^\s+webhook chaos \(test\) duplicate=0\.2,seed=3$/, 'the banner says chaos is on');
  const show = new PayemuProcess(t, ['webhook-chaos', '--url', url, '--json']);
  t.equal((await show.exited).code, 0);
  t.same(JSON.parse(show.stdout), { duplicate: 0.2, seed: 3 });
  const set = new PayemuProcess(t, ['webhook-chaos', 'set', 'bad_signature=1', '--url', url]);
  t.equal((await set.exited).code, 0);
  t.match(set.stdout, /bad_signature=1/);
  const wrong = new PayemuProcess(t, ['webhook-chaos', 'set', 'bad_signature=yes', '--url', url]);
  t.equal((await wrong.exited).code, 2);
  t.match(wrong.stderr, /bad_signature/);
  const clear = new PayemuProcess(t, ['webhook-chaos', 'clear', '--url', url]);
  t.equal((await clear.exited).code, 0);
  const after = new PayemuProcess(t, ['webhook-chaos', 'show', '--url', url, '--json']);
  await after.exited;
  t.same(JSON.parse(after.stdout), {});
  good.child.kill('SIGTERM');
  await good.exited;
});
