import { allowedAt, API_ROUTES, auth, fill, hasParams, int, JSON_TYPE, oddSegment, pct, pick, STREAM, VALID, type Add, type Fixture } from './cases.js';

/** Methods, paths and path parameters that name nothing, and other scopes' records. */
export function pathCases(add: Add, fx: Fixture): void {
  // 2. Methods a path does not have (405), with and without a key.
  const paths = new Set(API_ROUTES.map((r) => r.path));
  for (const pattern of paths) {
    for (let i = 0; i < 3; i++) {
      const concrete = fill({ path: pattern });
      const allowed = allowedAt(concrete);
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'HEAD']) {
        if (allowed.has(method) || (method === 'HEAD' && allowed.has('GET'))) continue;
        add({
          name: `method: ${method} ${pattern}`,
          method,
          target: concrete,
          headers: i === 0 ? [] : [auth(), JSON_TYPE],
          body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
          expect: 405,
        });
      }
    }
  }

  // 3. Paths no route has (404), with every method and a valid key.
  const unknownPaths = [
    '/',
    '/v1',
    '/v1/',
    '/v2/sessions',
    '/v1/sessionz',
    '/V1/sessions',
    '/v1//sessions',
    '//v1/sessions',
    '/v1/sessions/a/b/c',
    '/v1/%73essions',
    '/v1/sessions%2F',
    '/v1/../v1/me',
    '/v1/./me',
    '/v1/me/',
    '/v1/me/x',
    '/_payemu',
    '/_payemu/',
    '/_payemu/nope',
    '/_payemu/sessions',
    '/_payemu/clock/advance/now',
    '/__proto__',
    '/constructor',
    '/prototype',
    '/v1/__proto__',
    '/v1/constructor/prototype',
    '/.env',
    '/.git/config',
    '/%',
    '/%zz',
    '/%00',
    '/%E2%80%AE',
    '/favicon.ico',
    '/v1/payments/x/y/z',
    '/v1/chargez',
    '/v1/tax',
    '/v1/invoice',
    '/v1/payment_links',
    '/v1/me.json',
    '/v1/sessions.php',
    `/${'a/'.repeat(500)}`,
    `/v1/${'%F0%9F%99%82'.repeat(200)}`,
  ];
  for (const target of unknownPaths) {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const allowed = allowedAt(target.replace(/\?.*/, ''));
      if (allowed.size > 0) continue; // a real route after all (its own cases cover it)
      add({
        name: `path: ${method} ${target.slice(0, 80)}`,
        method,
        target,
        headers: [auth(), JSON_TYPE],
        body: method === 'GET' ? undefined : '{"amount": 10}',
        expect: 404,
      });
    }
  }
  for (let i = 0; i < 150; i++) {
    const target = `/${Array.from({ length: 1 + int(4) }, oddSegment).join('/')}`;
    if (allowedAt(target).size > 0) continue;
    add({ name: `path: random ${target.slice(0, 80)}`, method: pick(['GET', 'POST', 'DELETE']), target, headers: [auth()], expect: 404 });
  }

  // 4. Path parameters that name nothing (404), on every GET and DELETE route that has one.
  for (const route of API_ROUTES.filter((r) => hasParams(r) && (r.method === 'GET' || r.method === 'DELETE'))) {
    for (let i = 0; i < 40; i++) {
      const target = fill(route);
      if (target === STREAM) continue;
      const key = pick([VALID, VALID, 'sk_live_payemu_acme', 'sk_test_payemu_globex']);
      add({ name: `param: ${route.method} ${target.slice(0, 100)}`, method: route.method, target, headers: [auth(key)], expect: 404 });
    }
  }
  // Someone else's records: another Source's key, or the other mode, sees nothing.
  for (const key of ['sk_live_payemu_acme', 'sk_test_payemu_globex', 'sk_live_payemu_globex']) {
    add({ name: `param: session of another scope (${key})`, method: 'GET', target: `/v1/sessions/${fx.openSession}`, headers: [auth(key)], expect: 404 });
    add({
      name: `param: payment of another scope (${key})`,
      method: 'GET',
      target: `/v1/payments/${pct(fx.paidReference)}`,
      headers: [auth(key)],
      expect: 404,
    });
    add({
      name: `semantic: complete a session of another scope (${key})`,
      method: 'POST',
      target: `/_payemu/sessions/${fx.openSession}/complete`,
      headers: [auth(key), JSON_TYPE],
      body: JSON.stringify({ card_number: '4242424242424242' }),
      expect: 404,
    });
  }
}
