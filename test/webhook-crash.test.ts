import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import t, { type Test } from 'tap';
import { startPayemu, type Started } from './helpers/cli.js';
import { client, emulator, pay, type Client } from './helpers/emulator.js';
import { receiver, type Received } from './helpers/receiver.js';

/**
 * Webhook attempts are logged when they start: an attempt cut off by a crash shows as
 * `interrupted` after the restart and is retried, and the event log never shows fewer attempts
 * than the receivers got. The crash tests run the built CLI (`npm run build` first) and kill it
 * with SIGKILL while a receiver holds its request; the others run payemu in this process.
 */

// Every round starts a real process; on a busy machine a start alone takes seconds.
t.setTimeout(180_000);

const KEY = 'sk_test_payemu_acme';
const DELIVERED = /webhook payment\.completed -> \S+ 200 \d+ms delivered$/;

/**
 * A receiver that answers its nth request with `answers[n]` (a status; 200 past the end), or
 * holds it when that is `hold`. `request(n)` resolves with the nth request (1-based), however
 * long ago it came.
 */
async function scripted(t: Test, answers: (number | 'hold')[]) {
  const held: ServerResponse[] = [];
  const arrivals: { promise: Promise<Received>; resolve: (r: Received) => void }[] = [];
  const arrival = (n: number) => {
    while (arrivals.length <= n) {
      let resolve!: (r: Received) => void;
      const promise = new Promise<Received>((r) => (resolve = r));
      arrivals.push({ promise, resolve });
    }
    return arrivals[n]!;
  };
  let n = 0;
  const r = await receiver(t, (req, res) => {
    const answer = answers[n] ?? 200;
    arrival(++n).resolve(req);
    if (answer === 'hold') return void held.push(res);
    res.statusCode = answer;
    res.end(answer === 200 ? 'ok' : 'no thanks');
  });
  return { ...r, held, request: (n: number) => arrival(n).promise };
}

/** Pays a new session through the control plane; its payment.completed is the only event. */
async function payOnce(t: Test, api: Client, reference: string): Promise<void> {
  const session = await api.post('/v1/sessions', { amount: 10, reference });
  t.equal(session.status, 201, 'the session is created');
  const completed = await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
  t.equal(completed.status, 200, 'the session is paid');
}

const start = (t: Test, dir: string, url: string): Promise<Started> =>
  // cwd: an empty directory, so no config file is picked up from the repository.
  startPayemu(t, ['--data', path.join(dir, 'data'), '--webhook-url', url, '--webhook-backoff', '0,0,0', '--no-ui', '--port', '0'], { cwd: dir });

/**
 * The crash itself: the first receiver answers the event's first attempts with
 * `answersBefore` (statuses) and holds the next one; payemu is killed (SIGKILL) while it is
 * held, then started again on the same data directory with a receiver that answers 200.
 * Returns the event as the log shows it, and how many requests of it the two receivers got.
 */
async function crashDuringAttempt(t: Test, answersBefore: number[]) {
  const dir = t.testdir();
  const r1 = await scripted(t, [...answersBefore, 'hold']);
  const first = await start(t, dir, r1.url);
  const api1 = client(first.url, KEY);
  const held = r1.request(answersBefore.length + 1);
  await payOnce(t, api1, 'crash');
  const eventId = String((await held).headers['x-webhook-event-id']);

  // The receiver holds the request: the attempt is already in the log, in progress.
  const during = (await api1.get(`/_payemu/events/${eventId}`)).body;
  t.equal(during.attempts.length, answersBefore.length + 1, 'the attempt in flight is logged');
  t.match(during.attempts.at(-1), { state: 'in_progress', status: null, duration_ms: null, error: null });

  first.proc.child.kill('SIGKILL');
  t.equal((await first.proc.waitForExit()).signal, 'SIGKILL');

  // The retry is held until the new process has printed its readiness line (its log is then
  // listening), then answered 200.
  const r2 = await scripted(t, ['hold']);
  const second = await start(t, dir, r2.url);
  const retry = await r2.request(1);
  t.equal(retry.headers['x-webhook-event-id'], eventId, 'the interrupted delivery is retried, with the same event id');
  r2.held[0]!.end('ok');
  await second.proc.waitForLine(DELIVERED);

  const event = (await client(second.url, KEY).get(`/_payemu/events/${eventId}`)).body;
  const received = [...r1.received, ...r2.received].filter((r) => r.headers['x-webhook-event-id'] === eventId).length;
  await second.proc.stop();
  return { event, received };
}

t.test('kill -9 while the first attempt is in flight: logged as interrupted after the restart, then retried and delivered', async (t) => {
  const { event, received } = await crashDuringAttempt(t, []);
  t.equal(received, 2, 'the receivers got the cut-off attempt and the retry');
  t.ok(event.attempts.length >= received, `the log shows ${event.attempts.length} attempts, the receivers got ${received}`);
  t.equal(event.delivery_status, 'delivered');
  t.match(event.attempts, [
    { state: 'interrupted', status: null, error: 'interrupted', response_body: null, duration_ms: null, at: /^\d{4}-/ },
    { state: 'succeeded', status: 200, response_body: 'ok', error: null },
  ]);
  t.equal(event.attempts.length, 2);
  t.equal(event.next_attempt_at, null);
});

t.test('kill -9 during a retry: the failed attempt, the interrupted one and the delivery are all in the log', async (t) => {
  const { event, received } = await crashDuringAttempt(t, [500]);
  t.equal(received, 3);
  t.ok(event.attempts.length >= received, `the log shows ${event.attempts.length} attempts, the receivers got ${received}`);
  t.equal(event.delivery_status, 'delivered');
  t.match(event.attempts, [
    { state: 'failed', status: 500, error: 'HTTP 500' },
    { state: 'interrupted', status: null, error: 'interrupted' },
    { state: 'succeeded', status: 200 },
  ]);
  t.equal(event.attempts.length, 3);
});

t.test('an attempt in flight is in the store, and in the journal on disk, before its request is answered', async (t) => {
  const dir = t.testdir();
  const r = await scripted(t, ['hold']);
  const e = await emulator(t, { inMemory: false, dataDir: dir, webhookUrl: r.url, webhookBackoff: '0,0,0' });
  await pay(e, { amount: 10, reference: 'in-flight' });
  const id = String((await r.request(1)).headers['x-webhook-event-id']);

  const during = e.events.get(id)!;
  t.equal(during.delivery_status, 'pending');
  t.match(during.attempts, [{ state: 'in_progress', status: null, response_body: null, duration_ms: null, error: null, url: r.url }]);
  t.equal(during.attempts.length, 1);
  const journal = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('journal-'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('');
  const lines = journal.split('\n').filter((line) => line.includes(id));
  t.match(lines.at(-1), /"state":"in_progress"/, 'the journal line of the start was written before the request went out');

  // Once it ends, the same entry holds the outcome: one attempt, not two.
  const done = new Promise((resolve) => e.bus.on('webhook.attempt', resolve));
  r.held[0]!.end('ok');
  await done;
  const after = e.events.get(id)!;
  t.equal(after.delivery_status, 'delivered');
  t.match(after.attempts, [{ state: 'succeeded', status: 200, response_body: 'ok', error: null }]);
  t.equal(after.attempts.length, 1);
  t.type(after.attempts[0]!.duration_ms, 'number');
});

t.test('a stop during an attempt: the next start shows it interrupted and retries it', async (t) => {
  const dir = t.testdir();
  const r = await scripted(t, ['hold']);
  const options = { inMemory: false, dataDir: dir, webhookUrl: r.url, webhookBackoff: '0,0,0' };
  const e1 = await emulator(t, options);
  await pay(e1, { amount: 10, reference: 'stopped' });
  const id = String((await r.request(1)).headers['x-webhook-event-id']);
  await e1.close();

  const e2 = await emulator(t, options);
  const recovered = e2.events.get(id)!;
  t.equal(recovered.delivery_status, 'retrying', 'counted as a failed attempt of the cycle');
  t.match(recovered.attempts[0], { state: 'interrupted', error: 'interrupted', status: null, duration_ms: null });
  const delivered = new Promise((resolve) =>
    e2.bus.on('webhook.attempt', ({ event }) => event.id === id && event.delivery_status === 'delivered' && resolve(event)),
  );
  t.equal((await r.request(2)).headers['x-webhook-event-id'], id);
  await delivered;
  t.match(e2.events.get(id)!.attempts, [{ state: 'interrupted' }, { state: 'succeeded', status: 200 }]);
  t.equal(r.received.length, 2);
});

t.test('an interrupted attempt is tried again as soon as payemu is back, whatever the backoff; a failure after it waits the first backoff', async (t) => {
  const dir = t.testdir();
  const r = await scripted(t, ['hold', 500]);
  const options = { inMemory: false, dataDir: dir, webhookUrl: r.url, webhookBackoff: '1h,2h,3h', freezeClock: true };
  const e1 = await emulator(t, options);
  await pay(e1, { amount: 10, reference: 'back' });
  const id = String((await r.request(1)).headers['x-webhook-event-id']);
  await e1.close();

  const e2 = await emulator(t, options);
  const restartedAt = Date.parse(e2.clock.now());
  t.equal(Date.parse(e2.events.get(id)!.next_attempt_at!), restartedAt, 'due at the restart, on a frozen clock');
  t.equal((await r.request(2)).headers['x-webhook-event-id'], id, 'tried again with no advance');
  await e2.idle();
  const failed = e2.events.get(id)!;
  t.match(failed.attempts, [{ state: 'interrupted' }, { state: 'failed', status: 500 }]);
  t.equal(Date.parse(failed.next_attempt_at!) - restartedAt, 3_600_000, 'the interrupted attempt used up no retry: the failure waits the first backoff, 1h');
  await e2.clock.advance('59m');
  await e2.idle();
  t.equal(r.received.length, 2, 'not before its time');
  await e2.clock.advance('1m');
  t.equal((await r.request(3)).headers['x-webhook-event-id'], id, 'then tried again');
  await e2.idle();
  t.equal(e2.events.get(id)!.delivery_status, 'delivered');
});

t.test('an interrupted last attempt of a cycle uses up no retry: it is tried again after the restart', async (t) => {
  const dir = t.testdir();
  const r = await scripted(t, [500, 500, 500, 'hold']);
  const options = { inMemory: false, dataDir: dir, webhookUrl: r.url, webhookBackoff: '0,0,0' };
  const e1 = await emulator(t, options);
  await pay(e1, { amount: 10, reference: 'last-one' });
  const id = String((await r.request(4)).headers['x-webhook-event-id']);
  await e1.close();

  const e2 = await emulator(t, options);
  const answered = new Promise<void>((resolve) => e2.bus.on('webhook.attempt', () => e2.events.get(id)?.delivery_status === 'delivered' && resolve()));
  const fifth = await r.request(5);
  t.equal(fifth.headers['x-webhook-event-id'], id, 'the same event again');
  await answered;
  const event = e2.events.get(id)!;
  t.equal(event.delivery_status, 'delivered');
  t.same(
    event.attempts.map((a) => a.state),
    ['failed', 'failed', 'failed', 'interrupted', 'succeeded'],
  );
  t.equal(r.received.length, 5, 'as many attempts logged as the receiver got');
});
