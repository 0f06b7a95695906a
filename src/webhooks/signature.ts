import { createHmac, timingSafeEqual } from 'node:crypto';
import { wallClock } from '../clock/clock.js';

/**
 * `X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (as the hosted API signs),
 * keyed with the Source's `whsec_` secret. `t` is wall-clock time: receivers check it against
 * their own clock, whatever the virtual clock says.
 */
export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmac(secret, `${unixSeconds}.${rawBody}`)}`;
}

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

export type WebhookVerificationReason = 'missing_signature' | 'malformed_signature' | 'timestamp_outside_tolerance' | 'signature_mismatch' | 'invalid_body';

/** Thrown by `verifyWebhook`; `reason` says which check failed. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyOptions {
  /** How far `t=` may be from now, in seconds (default 300). 0 or Infinity turns the check off. */
  toleranceSeconds?: number;
  /** Unix seconds to check against (default: now). */
  now?: number;
}

/**
 * Verifies a payemu (or real-service) webhook and returns the parsed event.
 *
 * @example
 * app.post('/webhooks', express.raw({ type: 'application/json' }), (req, res) => {
 *   const event = verifyWebhook(req.body, req.get('X-Webhook-Signature'), process.env.PAYEMU_WEBHOOK_SECRET);
 *   res.sendStatus(204);
 * });
 */
export function verifyWebhook<T = { event: string; data: Record<string, unknown> }>(
  rawBody: string | Buffer | Uint8Array,
  signatureHeaderValue: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): T {
  if (!signatureHeaderValue) throw new WebhookVerificationError('missing_signature', 'No X-Webhook-Signature header was given.');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of signatureHeaderValue.split(',')) {
    const [key, value] = part.trim().split('=', 2) as [string, string | undefined];
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value) signatures.push(value);
  }
  if (timestamp === undefined) throw new WebhookVerificationError('malformed_signature', 'The X-Webhook-Signature header has no valid t= timestamp.');
  if (signatures.length === 0) throw new WebhookVerificationError('malformed_signature', 'The X-Webhook-Signature header has no v1= signature.');

  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? Math.floor(wallClock.now() / 1000);
  if (tolerance > 0 && Number.isFinite(tolerance) && Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `The signature timestamp ${timestamp} is ${Math.abs(now - timestamp)} s away from now, more than the tolerance of ${tolerance} s.`,
    );
  }

  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const expected = Buffer.from(hmac(secret, `${timestamp}.${body}`), 'hex');
  const matches = signatures.some((candidate) => {
    const given = /^[0-9a-f]+$/i.test(candidate) ? Buffer.from(candidate, 'hex') : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'No v1= signature matches the body: check the secret and that the body is the raw bytes received.',
    );
  }
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signature matches but the body is not valid JSON.');
  }
}
