import { randomUUID } from 'node:crypto';
import { stopwatch, wallClock } from '../clock/clock.js';
import { STALE_SECONDS } from './chaos.js';
import { postWebhook, type Outcome } from './send.js';
import { signatureHeader } from './signature.js';

/**
 * `payemu verify-handler` (docs/chaos.md): grades a webhook receiver by sending it signed
 * deliveries of a real event, one at a time, and judging each answer. Each check that fails
 * says what a correct handler does instead.
 */

/** A webhook body and its event name, as a delivery carries them. */
export interface Delivery {
  event: string;
  payload: unknown;
}

export interface GradeOptions {
  secret: string;
  /** The event graded, and another event of the contract the receiver may not handle. */
  delivery: Delivery;
  unhandled: Delivery;
  timeoutMs: number;
}

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

export interface Grade {
  passed: boolean;
  checks: Check[];
  /** Set when the receiver could not be reached at all (refused, no such host): no grade. */
  unreachable?: string;
}

type Expect = '2xx' | '4xx';

/** What a correct handler does, said by each check that fails. */
const ADVICE: Record<string, string> = {
  valid_delivery: 'A correct handler verifies the signature over the raw body with its webhook secret and answers 2xx (200 or 204).',
  wrong_signature:
    'A correct handler computes HMAC-SHA256 of "<t>.<raw body>" with its webhook secret, compares it with v1= in constant time, and answers 400 when it does not match.',
  stale_timestamp: 'A correct handler refuses a t= more than 5 minutes away from its own clock (a replayed delivery) with a 400.',
  body_changed: 'A correct handler verifies the signature over the raw bytes it received (not re-serialized JSON) and answers 400 when they were changed.',
  missing_signature: 'A correct handler answers 400 when X-Webhook-Signature is missing, and acts on nothing.',
  duplicate_delivery: 'A correct handler remembers each X-Webhook-Event-Id it has handled and answers 2xx to a repeat without acting on it twice.',
  unhandled_event: 'A correct handler answers 2xx to an event it does not use: any other answer makes the sender retry it for nothing.',
  timeout: 'A correct handler answers within the timeout and does slow work after answering (queue it).',
};

/** The checks, in the order they are sent. */
export async function gradeHandler(url: string, options: GradeOptions): Promise<Grade> {
  const checks: Check[] = [];
  let slowest = 0;
  let timedOut = 0;
  const send = async (delivery: Delivery, how: { body?: (body: string) => string; signature?: 'wrong' | 'stale' | 'none'; id?: string } = {}) => {
    const body = JSON.stringify(delivery.payload);
    const t = Math.floor(wallClock.now() / 1000) - (how.signature === 'stale' ? STALE_SECONDS : 0);
    const headers: Record<string, string> = { 'X-Webhook-Event': delivery.event, 'X-Webhook-Event-Id': how.id ?? randomUUID() };
    if (how.signature !== 'none') {
      headers['X-Webhook-Signature'] = signatureHeader(how.signature === 'wrong' ? `${options.secret}_wrong` : options.secret, body, t);
    }
    const elapsed = stopwatch();
    const outcome = await postWebhook(url, how.body ? how.body(body) : body, headers, { timeoutMs: options.timeoutMs });
    const ms = Math.round(elapsed());
    slowest = Math.max(slowest, ms);
    if (outcome.error?.startsWith('timed out')) timedOut++;
    return { ...outcome, ms };
  };
  const judge = (name: string, what: string, expect: Expect, answers: (Outcome & { ms: number })[]) => {
    const wrong = answers.find((a) => !fits(a, expect));
    const shown = answers.map((a) => (a.status === null ? (a.error ?? 'no answer') : `${a.status} in ${a.ms} ms`)).join(', then ');
    checks.push(
      wrong === undefined
        ? { name, passed: true, detail: `${what}: ${shown}` }
        : { name, passed: false, detail: `${what}: expected ${expect === '2xx' ? 'a 2xx' : 'a 4xx'}, got ${shown}. ${ADVICE[name]}` },
    );
  };

  const valid = await send(options.delivery);
  if (valid.status === null && !valid.error?.startsWith('timed out')) {
    return { passed: false, checks: [], unreachable: valid.error ?? 'no answer' };
  }
  judge('valid_delivery', `a correctly signed ${options.delivery.event}`, '2xx', [valid]);
  judge('wrong_signature', 'signed with another secret', '4xx', [await send(options.delivery, { signature: 'wrong' })]);
  judge('stale_timestamp', `signed with a t= ${STALE_SECONDS / 60} minutes old`, '4xx', [await send(options.delivery, { signature: 'stale' })]);
  judge('body_changed', 'the body changed after signing', '4xx', [await send(options.delivery, { body: tamper })]);
  judge('missing_signature', 'no X-Webhook-Signature header', '4xx', [await send(options.delivery, { signature: 'none' })]);
  const id = randomUUID();
  judge('duplicate_delivery', 'the same event (same X-Webhook-Event-Id) twice', '2xx', [
    await send(options.delivery, { id }),
    await send(options.delivery, { id }),
  ]);
  judge('unhandled_event', `a correctly signed ${options.unhandled.event}`, '2xx', [await send(options.unhandled)]);
  const seconds = `${options.timeoutMs / 1000} s`;
  checks.push(
    timedOut === 0
      ? { name: 'timeout', passed: true, detail: `every answer within ${seconds} (the slowest in ${slowest} ms)` }
      : {
          name: 'timeout',
          passed: false,
          detail: `${timedOut} ${timedOut === 1 ? 'delivery' : 'deliveries'} got no answer within ${seconds}. ${ADVICE.timeout}`,
        },
  );
  return { passed: checks.every((c) => c.passed), checks };
}

/** A 2xx, or a 4xx (not a 2xx, not a 5xx, not no answer). */
function fits(outcome: Outcome, expect: Expect): boolean {
  if (outcome.status === null) return false;
  return expect === '2xx' ? outcome.status >= 200 && outcome.status < 300 : outcome.status >= 400 && outcome.status < 500;
}

/** The body with one value changed, still valid JSON of the same shape: what a tampering proxy sends. */
function tamper(body: string): string {
  const changed = body.replace(/"amount":(-?\d+(?:\.\d+)?)/, (_m, amount: string) => `"amount":${Number(amount) + 1000}`);
  return changed !== body ? changed : body.replace(/\}$/, ',"tampered":true}');
}
