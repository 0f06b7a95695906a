import net from 'node:net';
import t from 'tap';
import { createClient } from '../src/client/client.js';
import { emulator, type TestEmulator } from './helpers/emulator.js';
import { type Entry, journal } from './helpers/journal.js';

t.test('a request a fault answered keeps the body it sent: status, apply, drop, latency', async (t) => {
  const e = await emulator(t);
  const plain = createClient({ url: e.url, key: e.keys.test });
  const faults = [
    { name: 'status', spec: { status: 503 } },
    { name: 'status with apply', spec: { status: 502, apply: true } },
    { name: 'drop', spec: { drop: true } },
    { name: 'drop with apply', spec: { drop: true, apply: true } },
    { name: 'latency only', spec: { latency_ms: 5 } },
  ];
  for (const [i, { name, spec }] of faults.entries()) {
    const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', times: 1, ...spec });
    const body = { amount: 10 + i, reference: `faulted-${i}` };
    const sent = plain.request('POST', '/v1/sessions', body);
    if ('drop' in spec) await t.rejects(sent, `${name}: no answer`);
    else await sent;
    await e.idle();
    const [entry] = (await journal(e)).requests as [Entry];
    t.match(entry, { fault: fault.id, request_body: body, request_body_cut: false }, `${name}: the body as sent, and the fault`);
  }
  const text = await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 503, times: 1 });
  await plain.request('POST', '/v1/sessions', 'amount=1', { 'Content-Type': 'text/plain' });
  t.match((await journal(e)).requests[0], { fault: text.id, request_body: 'amount=1', status: 503 }, 'a body that is not JSON: its text');
});

// A request a fault acted on keeps its body as sent, whatever the fault did, and the answer the
// client got (the fault's body, its envelope, the real answer when it only delayed it; null when
// the connection was closed unanswered). One test per way a fault acts or misses.
const newest = async (e: TestEmulator): Promise<Entry> => {
  await e.idle();
  return (await journal(e)).requests[0] as Entry;
};
const faultEnvelope = (id: string, status: number, done = 'nothing was changed') => ({
  errors: [{ status: String(status), detail: `The fault ${id} answered this request with ${status}; ${done}.` }],
});

t.test('faulted, status: the body as sent, the envelope the fault answered', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 503 });
  const body = { amount: 10, reference: 'status-1' };
  t.equal((await createClient({ url: e.url, key: e.keys.test }).request('POST', '/v1/sessions', body)).status, 503);
  const entry = await newest(e);
  t.match(entry, { status: 503, fault: fault.id, request_body: body, request_body_cut: false, response_body: faultEnvelope(fault.id, 503) });
});

t.test("faulted, status with a body: the fault's body is the answer kept", async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 502, body: { upstream: 'gateway down' } });
  const body = { amount: 11, reference: 'status-body' };
  t.equal((await createClient({ url: e.url, key: e.keys.test }).request('POST', '/v1/sessions', body)).status, 502);
  const entry = await newest(e);
  t.match(entry, { status: 502, fault: fault.id, request_body: body });
  t.same(entry.response_body, { upstream: 'gateway down' });
});

t.test('faulted, drop: the body as sent, no status, no answer', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', drop: true });
  const body = { amount: 12, reference: 'drop-1' };
  await t.rejects(createClient({ url: e.url, key: e.keys.test }).request('POST', '/v1/sessions', body));
  const entry = await newest(e);
  t.match(entry, { status: null, fault: fault.id, request_body: body, response_body: null, response_body_cut: false });
});

t.test('faulted, apply: the body the real request read, the answer the fault sent instead of the real one', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 500, apply: true });
  const body = { amount: 13, reference: 'apply-1' };
  const key = { 'Idempotency-Key': 'apply-1' };
  t.equal((await createClient({ url: e.url, key: e.keys.test }).request('POST', '/v1/sessions', body, key)).status, 500);
  const entry = await newest(e);
  t.match(entry, { status: 500, fault: fault.id, request_body: body, response_body: faultEnvelope(fault.id, 500, 'the request was carried out') });
  await e.faults.clear();
  const retry = await e.api.post('/v1/sessions', body, key);
  t.equal(retry.headers.get('idempotent-replayed'), 'true', 'the request ran: its result is replayed');
  t.match(await newest(e), { status: 201, fault: null, request_body: body, replayed: true });
});

t.test('faulted, apply on a request the route refuses after reading its body: that body, the fault answer', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 503, apply: true, times: 2 });
  const plain = createClient({ url: e.url, key: e.keys.test });
  const invalid = { amount: -5, reference: 'refused' };
  t.equal((await plain.request('POST', '/v1/sessions', invalid)).status, 503);
  t.match(await newest(e), { status: 503, fault: fault.id, request_body: invalid, response_body: faultEnvelope(fault.id, 503, 'the request was carried out') });
  const malformed = '{"amount": 1,';
  t.equal((await plain.request('POST', '/v1/sessions', malformed, { 'Content-Type': 'application/json' })).status, 503);
  t.match(await newest(e), { status: 503, fault: fault.id, request_body: malformed });
});

t.test('faulted, latency only: the body as sent, the real answer', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', latency_ms: 5 });
  const body = { amount: 14, reference: 'late-1' };
  const answer = await e.api.post('/v1/sessions', body);
  t.equal(answer.status, 201);
  const entry = await newest(e);
  t.match(entry, { status: 201, fault: fault.id, request_body: body });
  t.same(entry.response_body, answer.body);
});

t.test('a fault whose probability draw misses: no fault named, the body and the real answer', async (t) => {
  const e = await emulator(t);
  await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 503, probability: 0 });
  const body = { amount: 15, reference: 'missed-1' };
  const answer = await e.api.post('/v1/sessions', body);
  t.equal(answer.status, 201);
  const entry = await newest(e);
  t.match(entry, { status: 201, fault: null, request_body: body });
  t.same(entry.response_body, answer.body);
});

t.test('faulted GET with a query: its query, no body, the envelope', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'GET', path: '/v1/payments', status: 429 });
  const answer = await createClient({ url: e.url, key: e.keys.test }).request('GET', '/v1/payments?filter[status]=PAID&page[size]=5');
  t.equal(answer.status, 429);
  const entry = await newest(e);
  t.match(entry, { status: 429, fault: fault.id, request_body: null, response_body: faultEnvelope(fault.id, 429) });
  t.same(entry.query, { 'filter[status]': 'PAID', 'page[size]': '5' }, 'the query as sent, as for any request');
});

t.test('faulted, a body that is not JSON: its text', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 503 });
  await createClient({ url: e.url, key: e.keys.test }).request('POST', '/v1/sessions', 'amount=1', { 'Content-Type': 'text/plain' });
  t.match(await newest(e), { fault: fault.id, request_body: 'amount=1', request_body_cut: false, status: 503, response_body: faultEnvelope(fault.id, 503) });
});

t.test('faulted, a body over 16 KiB: cut at 16 KiB with the marker, as any body', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', status: 503 });
  const sent = JSON.stringify({ amount: 10, reference: 'big-faulted', metadata: { note: 'x'.repeat(20_000) } });
  await createClient({ url: e.url, key: e.keys.test }).request('POST', '/v1/sessions', sent, { 'Content-Type': 'application/json' });
  const entry = await newest(e);
  t.match(entry, { fault: fault.id, status: 503, request_body_cut: true, response_body_cut: false });
  t.equal(entry.request_body, `${sent.slice(0, 16 * 1024)}…[cut: ${sent.length} bytes]`);
});

t.test('faulted by a config fault: the body as sent, the envelope', async (t) => {
  const e = await emulator(t, { config: { sources: [{ slug: 'acme', faults: [{ method: 'POST', path: '/v1/sessions', status: 503 }] }, { slug: 'globex' }] } });
  const body = { amount: 16, reference: 'config-1' };
  t.equal((await createClient({ url: e.url, key: e.keys.test }).request('POST', '/v1/sessions', body)).status, 503);
  const entry = await newest(e);
  t.match(entry, { status: 503, fault: /^flt_/, request_body: body, response_body: { errors: [{ status: '503', detail: /^The fault flt_/ }] } });
});

t.test('faulted by a fault added over HTTP, on a trigger step sent in process: the step body as sent', async (t) => {
  const e = await emulator(t);
  const fault = await e.api.post('/_payemu/faults', { method: 'POST', path: '/v1/sessions', status: 500, times: 1 });
  t.equal(fault.status, 201);
  t.not((await e.api.post('/_payemu/trigger', { event: 'payment.completed' })).status, 200, 'the step met the fault');
  const entry = await newest(e);
  t.match(entry, { method: 'POST', path: '/v1/sessions', status: 500, fault: fault.body.id, response_body: faultEnvelope(fault.body.id, 500) });
  t.match(entry.request_body, { amount: Number });
});

t.test("faulted, the client gives up during the fault's wait: the body as sent, closed unanswered; the request runs as the fault says", async (t) => {
  const e = await emulator(t);
  const cases = [
    { name: 'status', spec: { status: 503 }, runs: false },
    { name: 'status with apply', spec: { status: 503, apply: true }, runs: true },
    { name: 'latency only', spec: {}, runs: true },
    { name: 'drop', spec: { drop: true }, runs: false },
  ];
  for (const [i, { name, spec, runs }] of cases.entries()) {
    const fault = await e.faults.add({ method: 'POST', path: '/v1/sessions', latency_ms: 300, times: 1, ...spec });
    const body = JSON.stringify({ amount: 20 + i, reference: `gone-${i}` });
    // A raw socket: the whole request sent, then the connection closed while the fault waits.
    const socket = net.connect(Number(new URL(e.url).port), '127.0.0.1');
    socket.write(
      `POST /v1/sessions HTTP/1.1\r\nHost: ${new URL(e.url).host}\r\nAuthorization: Bearer ${e.keys.test}\r\n` +
        `Content-Type: application/json\r\nIdempotency-Key: gone-${i}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // Closed once the fault has taken the request (it retires after its one time), while it
    // waits: not after a fixed pause, which a loaded machine can outlast before the request is read.
    // Bounded, so that a request that never arrives fails here, at once, not by the file's timeout.
    const giveUpAt = performance.now() + 10_000;
    while ((await e.faults.list()).some((f) => f.id === fault.id)) {
      if (performance.now() > giveUpAt) throw new Error(`${name}: the fault did not take the request within 10 s`);
      await new Promise(setImmediate);
    }
    socket.destroy();
    await e.idle();
    const entry = await newest(e);
    t.match(entry, { fault: fault.id, request_body: JSON.parse(body), status: null, response_body: null }, `${name}: kept, unanswered`);
    const retry = await e.api.post('/v1/sessions', JSON.parse(body), { 'Idempotency-Key': `gone-${i}` });
    t.equal(retry.headers.get('idempotent-replayed') === 'true', runs, `${name}: the request ${runs ? 'ran' : 'did not run'}`);
  }
});
