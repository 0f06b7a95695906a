import { API_ROUTES, auth, JSON_TYPE, NASTY, oddSegment, pct, pick, VALID, type Add, type Fixture } from './cases.js';

/** Requests well formed but refused by the rules of a route. */
export function ruleCases(add: Add, fx: Fixture): void {
  // 7. Route rules: sessions (422 by field, 409 by reference), completion, clock, refunds.
  const session = (fields: Record<string, unknown>) => ({ amount: 10, ...fields });
  const badSessions: Record<string, unknown>[] = [
    {},
    { currency: 'USD' },
    { amount: null },
    { amount: '10' },
    { amount: 'NaN' },
    { amount: 'Infinity' },
    { amount: true },
    { amount: [] },
    { amount: {} },
    { amount: -1 },
    { amount: 0 },
    { amount: 0.001 },
    { amount: 10.005 },
    { amount: 1_000_000 },
    { amount: 1e300 },
    { amount: -0.01 },
    session({ currency: 'US' }),
    session({ currency: 'ZZZ' }),
    session({ currency: '€€€' }),
    session({ currency: 123 }),
    session({ currency: null }),
    session({ currency: 'usd1' }),
    session({ reference: '' }),
    session({ reference: 'r'.repeat(256) }),
    session({ reference: 7 }),
    session({ reference: ['a'] }),
    session({ reference: { __x: 1 } }),
    session({ description: 'd'.repeat(501) }),
    session({ description: 5 }),
    session({ success_url: 'javascript:alert(1)' }),
    session({ success_url: 'not a url' }),
    session({ success_url: 'data:text/html,hi' }),
    session({ success_url: 'http://' }),
    session({ cancel_url: 'file:///etc/passwd' }),
    session({ cancel_url: 'https://exa mple.com' }),
    session({ cancel_url: 'vbscript:x' }),
    session({ success_url: `https://e.com/${'a'.repeat(2100)}` }),
    session({ customer_email: 'not-an-email' }),
    session({ customer_email: 'a@' }),
    session({ customer_email: '@b.c' }),
    session({ customer_email: 'a b@c.d' }),
    session({ customer_email: 5 }),
    session({ customer_name: 'n'.repeat(256) }),
    session({ metadata: [] }),
    session({ metadata: 'x' }),
    session({ metadata: null }),
    session({ metadata: 5 }),
    session({ capture_method: 'auto' }),
    session({ capture_method: 'MANUAL' }),
    session({ capture_method: '' }),
    session({ save_payment_method: 'true' }),
    session({ apply_tax: 1 }),
    session({ tax: {} }),
    session({ tax: { amount: -1 } }),
    session({ tax: { amount: 1, lines: 'x' } }),
    session({ tax: { amount: 1, lines: [{}] } }),
    session({ tax: { amount: 1, lines: [{ name: 'VAT', amount: 1, rate: 101 }] } }),
    session({ tax: { amount: 1, lines: [{ name: '', amount: 1 }] } }),
    session({ tax: 5 }),
    session({ subtotal: -1 }),
    session({ discount: '5' }),
    session({ shipping: 1.001 }),
    session({ subtotal: 1e12 }),
    session({ amount: 10, metadata: { constructor: { prototype: { polluted: true } } }, currency: 'XX' }),
    { amount: '10', constructor: { prototype: { polluted: true } }, prototype: { polluted: true } },
  ];
  for (const body of badSessions) {
    for (const key of [VALID, 'sk_live_payemu_acme', 'sk_test_payemu_globex']) {
      add({
        name: `semantic: POST /v1/sessions ${JSON.stringify(body).slice(0, 80)}`,
        method: 'POST',
        target: '/v1/sessions',
        headers: [auth(key), JSON_TYPE],
        body: JSON.stringify(body),
        expect: 422,
      });
    }
  }
  // Unicode in every string field, each request still broken by a bad amount.
  for (let i = 0; i < 120; i++) {
    const body = {
      amount: pick(['1.001', -5, 0, null, '𝄞', 1e9]),
      reference: pick(NASTY) || 'r',
      description: pick(NASTY),
      customer_name: pick(NASTY),
      metadata: { [pick(NASTY)]: pick(NASTY) },
    };
    add({
      name: `semantic: unicode session ${i}`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(), JSON_TYPE],
      body: JSON.stringify(body),
      expect: 422,
    });
  }
  // Huge and odd numbers written as JSON text.
  for (const amount of ['1e400', '-1e400', '123456789012345678901234567890', '-0', '1e-400', '0.0000000000000000001', '99999999999999999999.99', '1E2000']) {
    add({
      name: `semantic: amount ${amount}`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(), JSON_TYPE],
      body: `{"amount": ${amount}, "reference": "huge-${amount}"}`,
      expect: 422,
    });
  }
  // A paid reference is taken (409), for this Source and for another one of the merchant.
  for (const key of [VALID, 'sk_test_payemu_globex']) {
    add({
      name: `semantic: session for a paid reference (${key})`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(key), JSON_TYPE],
      body: JSON.stringify({ amount: 5, reference: fx.paidReference }),
      expect: 409,
    });
  }
  // An Idempotency-Key that is no key (400) on an otherwise valid request.
  for (const value of ['', 'k'.repeat(256)]) {
    add({
      name: `semantic: Idempotency-Key of ${value.length} characters`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(), JSON_TYPE, ['Idempotency-Key', value]],
      body: '{"amount": 10}',
      expect: 400,
    });
  }

  const completeBodies: unknown[] = [
    {},
    { card_number: '' },
    { card_number: '4242' },
    { card_number: '4242 4242 4242 424x' },
    { card_number: '4'.repeat(41) },
    { card_number: 4242424242424242 },
    { card_number: null },
    { card_number: ['4242424242424242'] },
    { card_number: '４２４２４２４２４２４２４２４２' },
    { card_number: '4242424242424242\u0000' },
    { card_number: '4242424242424242', three_ds: 'maybe' },
    { card_number: '4242424242424242', three_ds: true },
    { card_number: '<script>' },
    { cardNumber: '4242424242424242' },
  ];
  for (const body of completeBodies) {
    for (const id of [fx.openSession, `cs_${'Z'.repeat(24)}`, oddSegment()]) {
      add({
        name: `semantic: complete ${JSON.stringify(body)}`,
        method: 'POST',
        target: `/_payemu/sessions/${id}/complete`,
        headers: [auth(), JSON_TYPE],
        body: JSON.stringify(body),
        expect: 422,
      });
    }
  }
  for (const card of ['4242424242424242', '4000000000000002', '4000002760003184']) {
    add({
      name: `semantic: complete an unknown session with ${card}`,
      method: 'POST',
      target: `/_payemu/sessions/cs_${'Q'.repeat(24)}/complete`,
      headers: [auth(), JSON_TYPE],
      body: JSON.stringify({ card_number: card }),
      expect: 404,
    });
  }
  add({
    name: 'semantic: complete a complete session',
    method: 'POST',
    target: `/_payemu/sessions/${fx.paidSession}/complete`,
    headers: [auth(), JSON_TYPE],
    body: '{"card_number": "4242424242424242"}',
    expect: 409,
  });
  add({
    name: 'semantic: 3-D Secure card without three_ds',
    method: 'POST',
    target: `/_payemu/sessions/${fx.openSession}/complete`,
    headers: [auth(), JSON_TYPE],
    body: '{"card_number": "4000 0027 6000 3184"}',
    expect: 422,
  });

  const clockBodies = [
    '{}',
    '{"by": "-1d"}',
    '{"by": -5}',
    '{"by": "1y"}',
    '{"by": "101y"}',
    '{"by": 1e20}',
    '{"by": 1e400}',
    '{"by": "NaN"}',
    '{"by": "0x10"}',
    '{"by": true}',
    '{"by": null}',
    '{"by": []}',
    '{"by": {}}',
    '{"by": "１d"}',
    '{"by": "1d\\u0000"}',
    '{"by": "d"}',
    '{"by": ""}',
    '{"by": "1dd"}',
    '{"by": "Infinity"}',
    '{"by": "36501d"}',
    '{"to": "2000-01-01T00:00:00Z"}',
    '{"to": "garbage"}',
    '{"to": 123}',
    '{"to": "2026-02-30"}',
    '{"to": ""}',
    '{"by": "1d", "to": "2099-01-01"}',
    '{"by": "1d", "__proto__": {}}',
    '{"to": "9999-99-99T99:99:99Z"}',
    '{"to": "+275760-09-14T00:00:00Z"}',
    '[{"by": "1d"}]',
    '"1d"',
    '86400',
    'null',
  ];
  for (const body of clockBodies) {
    add({ name: `semantic: clock advance ${body}`, method: 'POST', target: '/_payemu/clock/advance', headers: [auth(), JSON_TYPE], body, expect: 422 });
  }

  // Money movement on the paid payment: not allowed by the rules (422), or nothing there (404).
  const refund = API_ROUTES.some((r) => r.method === 'POST' && r.path === '/v1/payments/:reference/refunds');
  if (refund) {
    for (const body of [
      '{"amount": 1000000}',
      '{"amount": 0}',
      '{"amount": -1}',
      '{"amount": "1"}',
      '{"amount": 0.001}',
      '{}',
      '{"amount": 1e400}',
      '{"amount": 50.01}',
    ]) {
      add({
        name: `semantic: refund ${body}`,
        method: 'POST',
        target: `/v1/payments/${pct(fx.paidReference)}/refunds`,
        headers: [auth(), JSON_TYPE],
        body,
        expect: 422,
      });
    }
  }
  for (const action of ['capture', 'void']) {
    if (!API_ROUTES.some((r) => r.path === `/v1/payments/:reference/${action}`)) continue;
    add({
      name: `semantic: ${action} a PAID payment`,
      method: 'POST',
      target: `/v1/payments/${pct(fx.paidReference)}/${action}`,
      headers: [auth(), JSON_TYPE],
      body: '{}',
      expect: 422,
    });
    add({
      name: `semantic: ${action} nothing`,
      method: 'POST',
      target: `/v1/payments/nothing-here/${action}`,
      headers: [auth(), JSON_TYPE],
      body: '{}',
      expect: 404,
    });
  }
}
