import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ROUTES } from '../src/catalogue.js';
import type { ApiRoute } from '../src/http/route.js';
import { listSegments, segmentPath } from '../src/store/files.js';
import { emulator, pay, type TestEmulator } from './helpers/emulator.js';

/**
 * Every string payemu reads must be well-formed Unicode: a lone UTF-16 surrogate stored in a
 * record could never be encoded again (in a URL, as UTF-8), and every read that met it would
 * fail. It is refused where requests are parsed: 422 naming the field in a JSON body, 400 in a
 * path or query; nothing is stored. And a record that holds one anyway (written by an older
 * payemu) must not break any read.
 */

/** Not well-formed: lone high, lone low, a pair in the wrong order, a high one at the end. */
const BROKEN = ['\ud800', '\udfff', 'a\udc00\ud800b', 'order-\ud83d'];
/** UTF-8 of U+D800 (CESU-style): what a lone surrogate looks like percent-encoded. */
const ENCODED_SURROGATE = '%ED%A0%80';

/** Sends a JSON text byte for byte (JSON.stringify writes a lone surrogate as its `\u` escape). */
function postRaw(e: TestEmulator, route: string, text: string | Buffer) {
  return e.api.request('POST', route, text instanceof Buffer ? text.toString('latin1') : text);
}

async function rawRequest(url: string, target: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${target}`, { headers: { Authorization: 'Bearer sk_test_payemu_acme' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

t.test('a lone surrogate in a session field is a 422 naming it, and nothing is stored', async (t) => {
  const e = await emulator(t);
  const cases: [string, Record<string, unknown>][] = [
    ['reference', { reference: '\ud800' }],
    ['description', { description: 'caf\udfff' }],
    ['customer_name', { customer_name: 'Ada \ud800' }],
    ['metadata.note', { metadata: { note: '\ud800' } }],
    ['metadata.list.1', { metadata: { list: ['ok', '\udc00'] } }],
    ['tax.lines.0.name', { tax: { amount: 1, lines: [{ name: '\ud800', amount: 1 }] } }],
  ];
  for (const [field, extra] of cases) {
    const res = await postRaw(e, '/v1/sessions', JSON.stringify({ amount: 10, ...extra }));
    t.equal(res.status, 422, field);
    t.same(Object.keys(res.body.errors[0].meta.errors), [field], `${field} is named`);
    t.match(res.body.errors[0].detail, /well-formed Unicode/);
  }
  const key = await postRaw(e, '/v1/sessions', JSON.stringify({ amount: 10, metadata: { 'k\ud800': 1 } }));
  t.equal(key.status, 422, 'a metadata key is text too');
  t.match(Object.keys(key.body.errors[0].meta.errors)[0], /^metadata\.k/);

  const schedule = await postRaw(e, '/v1/recurring-payments', JSON.stringify({ payment_method: 'pm_x', amount: 5, frequency: 'monthly', reference: '\ud800' }));
  t.equal(schedule.status, 422);
  t.same(Object.keys(schedule.body.errors[0].meta.errors), ['reference']);

  t.equal((await e.api.get('/v1/payments')).body.meta.total, 0);
  t.equal((await e.api.get('/v1/recurring-payments')).body.meta.total, 0);
  t.same((await e.api.get('/_payemu/events')).body.events, [], 'no event');
});

t.test('a well-formed astral character (a surrogate pair) is text like any other', async (t) => {
  const e = await emulator(t);
  const { completed } = await pay(e, {
    amount: 10,
    reference: 'order-🙂',
    description: '𝄞 music',
    customer_email: 'ada@example.com',
    metadata: { note: '👨‍👩‍👧' },
  });
  t.equal(completed.status, 200);
  const read = await e.api.get(`/v1/payments/${encodeURIComponent('order-🙂')}`);
  t.equal(read.status, 200);
  t.equal(read.body.data.attributes.description, '𝄞 music');
  t.equal(
    (await e.api.get(`/v1/payments?filter[customer_email]=${encodeURIComponent('ada@example.com')}&note=${encodeURIComponent('🙂')}`)).body.meta.total,
    1,
  );
});

t.test('bytes that are not UTF-8 in a body are a 400', async (t) => {
  const e = await emulator(t);
  const body = Buffer.concat([Buffer.from('{"amount": 10, "reference": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
  const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(
      `${e.url}/v1/sessions`,
      { method: 'POST', headers: { Authorization: 'Bearer sk_test_payemu_acme', 'Content-Type': 'application/json' } },
      (r) => {
        let text = '';
        r.setEncoding('utf8').on('data', (c: string) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  t.equal(res.status, 400);
  t.match(res.body.errors[0].detail, /not valid UTF-8/);
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 0);
});

t.test('an encoded surrogate in a query or a path is a 400, not replaced or a 404', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'order-1', customer_email: 'a-1@example.com' });
  for (const target of [
    `/v1/payments?filter[customer_email]=${ENCODED_SURROGATE}`,
    `/v1/payments?filter%5Bcustomer_email%5D=a${ENCODED_SURROGATE}`,
    `/v1/payments?${ENCODED_SURROGATE}=1`,
    `/v1/payments/${ENCODED_SURROGATE}`,
    `/v1/payments/order${ENCODED_SURROGATE}/refunds`,
    `/v1/payments?filter[customer_email]=%E2%82`,
  ]) {
    const res = await rawRequest(e.url, target);
    t.equal(res.status, 400, target);
    t.match(res.body.errors[0], { status: '400', title: 'Bad Request' }, `${target}: the envelope`);
  }
  // A lone `%` is a literal percent sign, as before.
  t.equal((await rawRequest(e.url, '/v1/payments?filter[customer_email]=100%')).status, 200);
  t.equal((await rawRequest(e.url, '/v1/payments?filter[customer_email]=a%2D1%40example.com')).body.meta.total, 1);
});

// ---- generated from the request schemas ------------------------------------------------------

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Every place a string can go in a body the schema describes, as [dot path, body]. */
function stringPlaces(schema: Schema, bad: string): [string, unknown][] {
  const types = new Set([schema.type].flat());
  const places: [string, unknown][] = [];
  if (types.has('string')) places.push(['', bad]);
  if (schema.properties) {
    for (const [name, child] of Object.entries(schema.properties)) {
      for (const [sub, value] of stringPlaces(child, bad)) places.push([sub ? `${name}.${sub}` : name, { [name]: value }]);
    }
  } else if (types.has('object')) {
    // A free-form object (metadata): a value and a key.
    places.push(['note', { note: bad }]);
    places.push([`k${bad}`, { [`k${bad}`]: 1 }]);
  }
  if (schema.items) for (const [sub, value] of stringPlaces(schema.items, bad)) places.push([sub ? `0.${sub}` : '0', [value]]);
  return places;
}

const fill = (p: string) => p.replace(/:[a-z_]+/g, 'x1');

t.test('every string field of every endpoint refuses a lone surrogate (422 naming it)', async (t) => {
  const e = await emulator(t);
  let checked = 0;
  for (const route of ROUTES.filter((r): r is ApiRoute => r.auth === 'key' && r.body !== undefined)) {
    for (const [i, bad] of BROKEN.entries()) {
      for (const [field, body] of stringPlaces(route.body as Schema, bad)) {
        const res = await e.api.request(route.method, fill(route.path), JSON.stringify(body));
        const named = Object.keys(res.body?.errors?.[0]?.meta?.errors ?? {});
        const expected = field.toWellFormed();
        if (res.status !== 422 || named[0] !== expected) {
          t.fail(`${route.method} ${route.path} ${field} (#${i}): ${res.status} ${res.text.slice(0, 200)}`);
        }
        checked++;
      }
    }
  }
  t.ok(checked > 100, `${checked} fields checked`);
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 0, 'nothing was stored');
  t.same((await e.api.get('/_payemu/events')).body.events, []);
});

t.test('every path parameter and query parameter refuses an encoded surrogate (400)', async (t) => {
  const e = await emulator(t);
  let checked = 0;
  for (const route of ROUTES) {
    const params = route.path.match(/:[a-z_]+/g) ?? [];
    for (const param of params) {
      const target = route.path.replace(/:[a-z_]+/g, (p) => (p === param ? `a${ENCODED_SURROGATE}` : 'x1'));
      const res = await new Promise<number>((resolve, reject) => {
        http
          .request(`${e.url}${target}`, { method: route.method, headers: { Authorization: 'Bearer sk_test_payemu_acme' } }, (r) =>
            resolve(r.resume().statusCode!),
          )
          .on('error', reject)
          .end();
      });
      if (res !== 400) t.fail(`${route.method} ${target}: ${res}`);
      checked++;
    }
    const names = Object.keys((route.query as Schema | undefined)?.properties ?? {}).concat('filter[customer_email]');
    for (const name of names) {
      const target = `${fill(route.path)}?${encodeURIComponent(name)}=${ENCODED_SURROGATE}`;
      const res = await new Promise<number>((resolve, reject) => {
        http
          .request(`${e.url}${target}`, { method: route.method, headers: { Authorization: 'Bearer sk_test_payemu_acme' } }, (r) =>
            resolve(r.resume().statusCode!),
          )
          .on('error', reject)
          .end();
      });
      if (res !== 400) t.fail(`${route.method} ${target}: ${res}`);
      checked++;
    }
  }
  t.ok(checked > 40, `${checked} parameters checked`);
});

t.test('a stored record holding a lone surrogate breaks no read, before or after a restart', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-text-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const first = await emulator(t, { inMemory: false, dataDir: dir, clockStart: '2027-01-01T09:00:00Z', freezeClock: true });
  await pay(first, { amount: 10, reference: 'plant-me', description: 'plant-me too', save_payment_method: true });
  const { card } = { card: (await first.api.get('/v1/payments/plant-me')).body.data.attributes.payment_method as string };
  const schedule = await first.api.post('/v1/recurring-payments', { payment_method: card, amount: 5, frequency: 'monthly', reference: 'plant-sub' });
  t.equal(schedule.status, 201);
  await first.close();

  // What an older payemu could have stored: the same records with lone surrogates in them.
  for (const n of listSegments(dir)) {
    const file = segmentPath(dir, n);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('plant-', 'plant\\ud800-'));
  }

  const second = await emulator(t, { inMemory: false, dataDir: dir, freezeClock: true });
  const list = await second.api.get('/v1/payments');
  t.equal(list.status, 200, 'payments list');
  t.equal(list.body.data.length, 2, 'the payment and the schedule charge');
  t.match(list.body.data[0].links.self, /\/v1\/payments\/plant%EF%BF%BD-/, 'the link carries U+FFFD in place of the surrogate');
  const schedules = await second.api.get('/v1/recurring-payments');
  t.equal(schedules.status, 200, 'schedules list');
  t.equal(schedules.body.data.length, 1);
  t.equal((await second.api.get('/_payemu/events')).status, 200, 'events');
  const advanced = await second.api.post('/_payemu/clock/advance', { by: '31d' });
  t.equal(advanced.status, 200, 'the schedule bills on');
  t.equal((await second.api.get('/v1/payments')).body.data.length, 3);
});
