import { API_ROUTES, fill, JSON_TYPE, pick, PROTO_WORDS, VALID, type Add } from './cases.js';

/** A missing, wrong or malformed key on every key route. */
export function authCases(add: Add): void {
  // 1. A missing, wrong or malformed key on every key route (401; authentication comes first,
  //    so the body, however bad, is never read).
  const badAuth: [string, string][][] = [
    [],
    [['Authorization', 'Bearer sk_test_wrong']],
    [['Authorization', 'Bearer']],
    [['Authorization', 'Basic c2tfdGVzdF9wYXllbXVfYWNtZTo=']],
    [['Authorization', `Bearer ${VALID} extra`]],
    [['Authorization', `Bearer ${VALID.toUpperCase()}`]],
    [['Authorization', 'Bearer sk_test_payemu_acmé']],
    [['Authorization', 'Bearer whsec_payemu_acme']],
    [['Authorization', `Token ${VALID}`]],
    [['Authorization', VALID]],
    [['Authorization', `Bearer ${VALID.repeat(300)}`]],
    [['X-API-Key', '']],
    [['X-API-Key', `${VALID}_`]],
    [['X-API-Key', 'sk_test_payemu_acme\u202e']],
    ...PROTO_WORDS.map((word): [string, string][] => [['Authorization', `Bearer ${word}`]]),
  ];
  for (const route of API_ROUTES) {
    for (const headers of badAuth) {
      const withBody = route.method === 'POST' || route.method === 'PATCH';
      add({
        name: `auth: ${route.method} ${route.path} with ${JSON.stringify(headers)}`,
        method: route.method,
        target: fill(route) + (route.keyInQuery ? pick(['?key=wrong', '?key=', `?key=${VALID}x`, '']) : ''),
        headers: withBody ? [...headers, pick([JSON_TYPE, ['Content-Type', 'text/plain'] as [string, string]])] : headers,
        body: withBody ? pick(['{"amount": 10}', '{', 'x'.repeat(2000), '{"__proto__": {"polluted": true}}']) : undefined,
        expect: 401,
      });
    }
  }
}
