import t from 'tap';
import { assertError, emulator } from '../helpers/emulator.js';

// payemu's IP whitelisting: when a Source's `ip_whitelist` is not empty, a request from another
// address gets 403 Forbidden, in the envelope; /v1/me reports `ip_whitelisting_enabled`. Each
// test is titled with the sentence it checks. One emulator serves the file (tests run from
// 127.0.0.1).

const e = await emulator(t, {
  config: {
    sources: [
      { slug: 'acme', ip_whitelist: ['10.1.2.3', '192.168.0.0/16'] },
      { slug: 'globex', ip_whitelist: ['127.0.0.1'] },
    ],
  },
});

t.test('When a Source ip_whitelist is not empty, a request from another address gets 403 Forbidden, envelope as always', async (t) => {
  for (const [method, path] of [
    ['GET', '/v1/me'],
    ['GET', '/v1/payments'],
    ['POST', '/v1/sessions'],
  ] as const) {
    const res = await e.api.request(method, path, method === 'POST' ? { amount: 1 } : undefined);
    assertError(t, res, 403);
    t.equal(res.body.errors[0].title, 'Forbidden', `${method} ${path}`);
  }
  assertError(t, await e.live.get('/v1/me'), 403);
  t.equal((await e.globex.get('/v1/me')).status, 200, 'an address on the list is served');
});

t.test('A refused request changes nothing', async (t) => {
  await e.api.post('/v1/sessions', { amount: 1, reference: 'ip-refused' });
  const created = await e.globex.post('/v1/sessions', { amount: 1, reference: 'ip-refused' });
  t.equal(created.status, 201, 'the reference is still free for the merchant');
});

t.test('GET /v1/me reports whether IP whitelisting is enabled (ip_whitelisting_enabled)', async (t) => {
  t.equal((await e.globex.get('/v1/me')).body.data.attributes.ip_whitelisting_enabled, true);
  const open = await emulator(t);
  t.equal((await open.api.get('/v1/me')).body.data.attributes.ip_whitelisting_enabled, false, 'empty = off');
});
