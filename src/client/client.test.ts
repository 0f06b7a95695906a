import t, { type Test } from 'tap';
import { startEmulator } from '../emulator.js';
import { createClient } from './client.js';
import { ApiError, Unreachable } from './errors.js';

const KEY = 'sk_test_payemu_acme';

async function emulator(t: Test) {
  const e = await startEmulator({ port: 0, inMemory: true, clockStart: '2026-11-21T10:00:00Z', freezeClock: true });
  t.teardown(() => e.close());
  return e;
}

t.test('the control plane: health, clock, advance, reset', async (t) => {
  const e = await emulator(t);
  const payemu = createClient({ url: `${e.url}/`, key: KEY });
  t.equal(payemu.url, e.url, 'a trailing slash is dropped');
  t.same(await createClient({ url: e.url }).health(), { status: 'ok' }, 'health needs no key');
  t.match(await payemu.clock(), { now: '2026-11-21T10:00:00.000000Z', offset_seconds: Number, frozen: true });
  const advanced = await payemu.advanceClock({ by: '1d' });
  t.equal(advanced.now, '2026-11-22T10:00:00.000000Z');
  t.type(advanced.ran, 'object');
  t.equal((await payemu.advanceClock({ to: '2026-12-01T00:00:00Z' })).now, '2026-12-01T00:00:00.000000Z');
  t.match(await payemu.reset(), { scope: { source: 'acme', mode: 'test' }, removed: 0 });
  t.match(await payemu.reset({ all: true }), { scope: 'all' });
});

t.test('a refusal rejects with an ApiError carrying the envelope: status, detail, fields', async (t) => {
  const e = await emulator(t);
  const payemu = createClient({ url: e.url, key: KEY });

  const invalid = await payemu.advanceClock({ by: 'soon' }).catch((error: unknown) => error);
  t.type(invalid, ApiError);
  t.match(invalid, { status: 422, message: /The by field must be a duration/, detail: /The by field must be a duration/ });
  t.same(Object.keys((invalid as ApiError).fields), ['by'], 'meta.errors names the refused field');
  t.match((invalid as ApiError).fields.by, [/must be a duration/]);

  await t.rejects(payemu.resendEvent('nope'), { name: 'ApiError', status: 404, message: /No event with id "nope"/, fields: {} });
  await t.rejects(createClient({ url: e.url, key: 'sk_test_wrong' }).clock(), { name: 'ApiError', status: 401, detail: /Invalid or missing API key/ });
  await t.rejects(createClient({ url: e.url }).clock(), { name: 'ApiError', status: 401 }, 'no key, no Authorization header');

  // `request` answers whatever the status: the caller judges it.
  const missing = await payemu.request('GET', '/v1/nothing-here');
  t.equal(missing.status, 404);
  t.match(missing.body, { errors: [{ status: '404' }] });
  t.equal(missing.headers.get('content-type')?.startsWith('application/json'), true);
});

t.test('an answer that is not the envelope: the status is the message', async (t) => {
  const fake: typeof fetch = async () => new Response('<h1>Bad gateway</h1>', { status: 502 });
  const error = await createClient({ url: 'http://payemu.test', key: KEY, fetch: fake })
    .clock()
    .catch((e: unknown) => e);
  t.type(error, ApiError);
  t.match(error, { status: 502, message: 'HTTP 502', detail: undefined, text: '<h1>Bad gateway</h1>', body: '<h1>Bad gateway</h1>' });
});

t.test('nothing listening: Unreachable, with the system error code', async (t) => {
  const e = await startEmulator({ port: 0, inMemory: true });
  const url = e.url;
  await e.close();
  const error = await createClient({ url, key: KEY })
    .clock()
    .catch((err: unknown) => err);
  t.type(error, Unreachable);
  t.match(error, { url, code: 'ECONNREFUSED', message: `no payemu at ${url}: nothing is listening there` });
});

t.test('trigger, the event log, resend and the live stream', async (t) => {
  const e = await emulator(t);
  const payemu = createClient({ url: e.url, key: KEY });
  await t.rejects(createClient({ url: e.url, key: 'sk_test_wrong' }).streamEvents(), { name: 'ApiError', status: 401 }, 'a refused stream rejects on opening');
  // The stream is the last request: a request soon after a stream is dropped holds up close()
  // for the keep-alive timeout (an emulator matter, with Node's fetch as with this client).
  const abort = new AbortController();
  const stream = await payemu.streamEvents({ signal: abort.signal });

  const triggered = await payemu.trigger('payment.completed', { reference: 'client-1' });
  t.match(triggered, { event: 'payment.completed', source: 'acme', mode: 'test', event_id: /^[0-9a-f-]{36}$/ });
  t.ok(triggered.steps.length > 0, 'the steps the fixture ran');

  const events = await payemu.events({ event: 'payment.completed', reference: 'client-1' });
  t.equal(events.length, 1);
  t.equal(events[0]?.id, triggered.event_id);
  t.same(await payemu.events({ reference: 'none-such' }), []);
  t.equal((await payemu.event(triggered.event_id!)).event, 'payment.completed');
  t.equal((await payemu.resendEvent(triggered.event_id!)).id, triggered.event_id, 'the same id');

  for await (const message of stream) {
    if (message.type === 'event' && message.data.event === 'payment.completed') {
      t.equal(message.data.id, triggered.event_id, 'the stream saw the event happen');
      break;
    }
  }
  abort.abort();
});

t.test('paying without a browser: a session, and a declined card', async (t) => {
  const e = await emulator(t);
  const payemu = createClient({ url: e.url, key: KEY });
  const session = async (reference: string) => (await payemu.call<{ data: { id: string } }>('POST', '/v1/sessions', { amount: 12.5, reference })).data.id;

  const paid = await payemu.completeSession(await session('client-paid'), { card_number: '4242424242424242' });
  // A checkout's answer (not a card update's) holds its payment.
  t.match('payment' in paid && paid.payment, { status: 'PAID', reference: 'client-paid', amount: '12.50' });
  const declined = await payemu.completeSession(await session('client-declined'), { card_number: '4000000000000002' });
  t.match('payment' in declined && declined.payment, { status: 'FAILED', failure_message: String });
  await t.rejects(payemu.completeSession('cs_nope', { card_number: '4242424242424242' }), { name: 'ApiError', status: 404 });
});

t.test('exportSnapshotText: the snapshot as bytes as they arrive, the same document; a refusal rejects with an ApiError', async (t) => {
  const e = await emulator(t);
  const payemu = createClient({ url: e.url, key: KEY });
  await payemu.call('POST', '/v1/sessions', { amount: 5, reference: 'text-1' });
  const chunks: Uint8Array[] = [];
  for await (const chunk of await payemu.exportSnapshotText({ all: true })) chunks.push(chunk);
  const text = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const parsed = await payemu.exportSnapshot({ all: true });
  // The test emulator's clock is frozen: its offset from real time grows by a second each real
  // second, and the two exports may straddle one.
  t.ok(Math.abs(text.clock.offset_seconds - parsed.clock.offset_seconds) <= 1, 'the clock offsets a second apart at most');
  text.clock.offset_seconds = parsed.clock.offset_seconds;
  t.same(text, parsed);
  const refused = await createClient({ url: e.url, key: 'sk_test_nope' })
    .exportSnapshotText()
    .catch((error: unknown) => error);
  t.type(refused, ApiError);
  t.equal((refused as ApiError).status, 401);
});
