import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { startEmulator } from '../src/index.js';
import { runPayemu } from './helpers/cli.js';
import { assertError, emulator, type Answer } from './helpers/emulator.js';

/**
 * URLs that users give payemu (success_url, cancel_url, webhook_url) are absolute http: or
 * https: URLs; anything else is refused, on every field that takes one.
 */
const REFUSED = [
  'ftp://x',
  'mailto:a@b',
  'ws://x',
  'wss://x/socket',
  'myapp://done',
  '//x',
  'http:/x',
  'http:x',
  'http:///x',
  'https://',
  '/checkout/done',
  'done',
  'javascript:alert(1)',
  'data:text/html,hi',
  'file:///etc/passwd',
];
const ACCEPTED = ['https://shop.example/success?order=1#top', 'http://127.0.0.1:3000/done', 'HTTPS://Shop.Example/Done', 'http://[::1]:8080/x'];

function assertUrlRefused(t: Test, answer: Answer, field: string, url: string): void {
  assertError(t, answer, 422);
  t.ok(answer.body?.errors?.[0]?.meta?.errors?.[field], `${url}: meta.errors.${field}`);
  t.match(answer.body?.errors?.[0]?.meta?.errors?.[field]?.join(' '), /http:\/\/ or https:\/\//, `${url}: the message says what is wanted`);
}

t.test('sessions: success_url and cancel_url other than absolute http(s) are 422s, nothing stored', async (t) => {
  const e = await emulator(t);
  for (const url of REFUSED) {
    for (const field of ['success_url', 'cancel_url']) {
      const reference = `url-${REFUSED.indexOf(url)}-${field}`;
      const res = await e.api.post('/v1/sessions', { amount: 10, reference, [field]: url });
      assertUrlRefused(t, res, field, url);
      t.equal((await e.api.post('/v1/sessions', { amount: 10, reference })).status, 201, `${url}: the reference is still free (nothing stored)`);
    }
  }
  for (const url of ACCEPTED) {
    const res = await e.api.post('/v1/sessions', { amount: 10, success_url: url, cancel_url: url });
    t.equal(res.status, 201, `${url} is accepted: ${res.text.slice(0, 200)}`);
    const session = await e.api.get(`/v1/sessions/${res.body.data.id}`);
    t.equal(session.body.data.attributes.success_url, url, 'kept as given');
  }
});

t.test('payment links: create and update refuse them, and change nothing', async (t) => {
  const e = await emulator(t);
  const created = await e.api.post('/v1/payment-links', { title: 'Mug', amount: 12, success_url: 'https://shop.example/thanks' });
  t.equal(created.status, 201);
  const id = created.body.data.id;
  for (const url of REFUSED) {
    for (const field of ['success_url', 'cancel_url']) {
      assertUrlRefused(t, await e.api.post('/v1/payment-links', { title: 'Bad', amount: 1, [field]: url }), field, url);
      assertUrlRefused(t, await e.api.request('PATCH', `/v1/payment-links/${id}`, { [field]: url }), field, url);
    }
  }
  const list = await e.api.get('/v1/payment-links');
  t.equal(list.body.data.length, 1, 'no link was created');
  t.match(
    (await e.api.get(`/v1/payment-links/${id}`)).body.data.attributes,
    { success_url: 'https://shop.example/thanks', cancel_url: null },
    'the link is unchanged',
  );
  for (const url of ACCEPTED) {
    const res = await e.api.request('PATCH', `/v1/payment-links/${id}`, { success_url: url, cancel_url: url });
    t.equal(res.status, 200, `${url} is accepted`);
  }
  t.equal((await e.api.request('PATCH', `/v1/payment-links/${id}`, { success_url: null })).status, 200, 'null still clears it');
});

t.test('payment-method sessions of a schedule refuse them too', async (t) => {
  const e = await emulator(t);
  const saved = await e.api.post('/v1/sessions', { amount: 1, save_payment_method: true });
  const paid = await e.api.post(`/_payemu/sessions/${saved.body.data.id}/complete`, { card_number: '4242424242424242' });
  const schedule = await e.api.post('/v1/recurring-payments', {
    payment_method: paid.body.payment.payment_method,
    amount: 5,
    frequency: 'monthly',
    reference: 'sub-1',
  });
  t.equal(schedule.status, 201, schedule.text.slice(0, 200));
  for (const url of REFUSED) {
    for (const field of ['success_url', 'cancel_url']) {
      assertUrlRefused(t, await e.api.post('/v1/recurring-payments/sub-1/payment-method-session', { [field]: url }), field, url);
    }
  }
  t.equal((await e.api.post('/v1/recurring-payments/sub-1/payment-method-session', { success_url: 'https://shop.example/card' })).status, 201);
});

t.test('--webhook-url must be an absolute http(s) URL: exit 2', async (t) => {
  for (const url of ['ftp://x', 'ws://x', 'http:/x', '//x', 'hooks']) {
    const res = await runPayemu(t, ['start', '--port', '0', '--in-memory', '--webhook-url', url], { cwd: t.testdir() });
    t.equal(res.code, 2, `--webhook-url ${url}: exit 2`);
    t.equal(res.stdout, '', 'no readiness line');
    t.match(res.stderr, /--webhook-url/);
    t.match(res.stderr, url);
  }
});

t.test('a config webhook_url that is not an absolute http(s) URL: exit 2 at start, naming the field', async (t) => {
  for (const url of ['ftp://x', 'http:/x', 'mailto:a@b']) {
    const cwd = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', webhook_url: url }] }) });
    const res = await runPayemu(t, ['start', '--port', '0', '--in-memory'], { cwd });
    t.equal(res.code, 2, `webhook_url ${url}: exit 2`);
    t.equal(res.stdout, '');
    t.match(res.stderr, /sources\.0\.webhook_url/);
    t.match(res.stderr, /http:\/\/ or https:\/\//);
  }
});

t.test('a config reload with such a webhook_url is refused and the last valid config stays', async (t) => {
  const dir = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', webhook_url: 'http://127.0.0.1:9/hooks' }] }) });
  const file = path.join(dir, 'payemu.config.json');
  const e = await startEmulator({ port: 0, inMemory: true, config: file });
  t.teardown(() => e.close());
  const rejected = new Promise<{ error: string }>((resolve) => {
    const off = e.bus.on('config.rejected', (event) => {
      off();
      resolve(event);
    });
  });
  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', webhook_url: 'ftp://x' }] }));
  t.match((await rejected).error, /sources\.0\.webhook_url/);
  t.equal(e.webhookUrl('acme'), 'http://127.0.0.1:9/hooks', 'the last valid webhook_url stays');
});

t.test('startEmulator({webhookUrl}) refuses the same URLs', async (t) => {
  for (const url of ['ftp://x', 'http:/x']) {
    await t.rejects(startEmulator({ port: 0, inMemory: true, webhookUrl: url }), { name: 'ConfigError', message: /--webhook-url/ });
  }
});
