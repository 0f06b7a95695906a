import t, { type Test } from 'tap';
import { assertError, emulator, type Answer } from '../helpers/emulator.js';

// The API's rate limit (Limits; 429 in Errors) and payemu's rule for it: `rate_limit_per_minute`
// reported by /v1/me and in X-RateLimit-*, enforced only when asked, a fixed 60-second window
// per Source and mode, /_payemu/ not counted, Retry-After in whole seconds. Each test is titled
// with the sentence it checks.

function assertLimited(t: Test, res: Answer, limit: number): void {
  assertError(t, res, 429);
  t.equal(res.body.errors[0].title, 'Too Many Requests');
  t.match(res.headers.get('retry-after'), /^\d+$/, 'Retry-After in whole seconds');
  const after = Number(res.headers.get('retry-after'));
  t.ok(after >= 1 && after <= 60, `within the 60-second window (${after})`);
  t.equal(res.headers.get('x-ratelimit-limit'), String(limit));
  t.equal(res.headers.get('x-ratelimit-remaining'), '0');
}

t.test('Responses carry X-RateLimit-Limit and X-RateLimit-Remaining; the limit is reported per Source as rate_limit_per_minute (default 6000)', async (t) => {
  const e = await emulator(t);
  const me = await e.api.get('/v1/me');
  t.equal(me.body.data.attributes.rate_limit_per_minute, 6000);
  t.equal(me.headers.get('x-ratelimit-limit'), '6000');
  const first = Number(me.headers.get('x-ratelimit-remaining'));
  const next = await e.api.post('/v1/sessions', { amount: 1 });
  t.equal(Number(next.headers.get('x-ratelimit-remaining')), first - 1, 'each request counts');
  const refused = await e.api.get('/v1/payments/none');
  t.equal(refused.status, 404);
  t.equal(Number(refused.headers.get('x-ratelimit-remaining')), first - 2, 'errors count and carry the headers too');
});

t.test('/_payemu/ is not counted', async (t) => {
  const e = await emulator(t);
  const before = Number((await e.api.get('/v1/me')).headers.get('x-ratelimit-remaining'));
  for (let i = 0; i < 3; i++) t.equal((await e.api.get('/_payemu/clock')).headers.get('x-ratelimit-remaining'), null);
  t.equal(Number((await e.api.get('/v1/me')).headers.get('x-ratelimit-remaining')), before - 1);
});

t.test('Enforced with 429 only when the Source sets enforce_rate_limit: true; 429 responses carry Retry-After', async (t) => {
  const e = await emulator(t, {
    config: {
      sources: [
        { slug: 'acme', enforce_rate_limit: true, rate_limit_per_minute: 2 },
        { slug: 'globex', rate_limit_per_minute: 2 },
      ],
    },
  });
  t.equal((await e.api.get('/v1/me')).status, 200);
  t.equal((await e.api.get('/v1/me')).status, 200);
  assertLimited(t, await e.api.get('/v1/me'), 2);
  assertLimited(t, await e.api.post('/v1/sessions', { amount: 1 }), 2);
  t.equal((await e.api.get('/_payemu/clock')).status, 200, 'the control plane is not limited');
  t.equal((await e.live.get('/v1/me')).status, 200, 'per Source and mode: the live window is separate');
  for (let i = 0; i < 4; i++) t.equal((await e.globex.get('/v1/me')).status, 200, 'globex reports 2 but does not enforce it');
});

t.test('or when payemu start --rate-limit is given (the library option rateLimit)', async (t) => {
  const e = await emulator(t, { rateLimit: true, config: { sources: [{ slug: 'globex', rate_limit_per_minute: 1 }] } });
  t.equal((await e.globex.get('/v1/me')).status, 200);
  assertLimited(t, await e.globex.get('/v1/me'), 1);
  t.equal((await e.api.get('/v1/me')).status, 200, 'acme has its own window of 6000');
});
