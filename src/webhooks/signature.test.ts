import { createHmac } from 'node:crypto';
import t from 'tap';
import { signatureHeader, verifyWebhook, WebhookVerificationError } from './signature.js';

const secret = 'whsec_test';
const body = JSON.stringify({ event: 'payment.completed', data: { payment_id: 1 } });
const now = 1_800_000_000;

t.test('a signature payemu made verifies and returns the event', async (t) => {
  const header = signatureHeader(secret, body, now);
  t.equal(header, `t=${now},v1=${createHmac('sha256', secret).update(`${now}.${body}`).digest('hex')}`);
  t.same(verifyWebhook(body, header, secret, { now }), JSON.parse(body));
  t.same(verifyWebhook(Buffer.from(body), header, secret, { now: now + 299 }), JSON.parse(body), 'a Buffer body');
});

t.test('several v1= values: any one matching is enough (secret rotation)', async (t) => {
  const good = signatureHeader(secret, body, now).split(',')[1];
  t.ok(verifyWebhook(body, `t=${now},v1=${'0'.repeat(64)},${good}`, secret, { now }));
});

const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.reason : `not a WebhookVerificationError: ${error}`;
  }
  return 'no error';
};

t.test('each failure has its reason', async (t) => {
  const header = signatureHeader(secret, body, now);
  t.equal(
    reason(() => verifyWebhook(body, undefined, secret, { now })),
    'missing_signature',
  );
  t.equal(
    reason(() => verifyWebhook(body, 'v1=abc', secret, { now })),
    'malformed_signature',
  );
  t.equal(
    reason(() => verifyWebhook(body, `t=${now}`, secret, { now })),
    'malformed_signature',
  );
  t.equal(
    reason(() => verifyWebhook(body, header, secret, { now: now + 301 })),
    'timestamp_outside_tolerance',
  );
  t.equal(
    reason(() => verifyWebhook(body, header, secret, { now: now - 301 })),
    'timestamp_outside_tolerance',
  );
  t.equal(
    reason(() => verifyWebhook(body, header, 'whsec_other', { now })),
    'signature_mismatch',
  );
  t.equal(
    reason(() => verifyWebhook(`${body} `, header, secret, { now })),
    'signature_mismatch',
    'the raw body matters',
  );
  t.equal(
    reason(() => verifyWebhook(body, `t=${now},v1=zz`, secret, { now })),
    'signature_mismatch',
  );
  const notJson = 'not json';
  t.equal(
    reason(() => verifyWebhook(notJson, signatureHeader(secret, notJson, now), secret, { now })),
    'invalid_body',
  );
  t.ok(verifyWebhook(body, header, secret, { now: now + 10_000, toleranceSeconds: 0 }), 'tolerance 0 turns the check off');
});
