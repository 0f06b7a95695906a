import { wallClock } from '../clock/clock.js';
import { eventBody, type Attempt, type EventRecord } from './records.js';
import { signatureHeader } from './signature.js';
import { strictRefusal } from './strict-url.js';

type Got = typeof import('got').got;
let gotPromise: Promise<Got> | undefined;
// got is needed only once a webhook goes out; importing it lazily keeps start-up fast.
const loadGot = () => (gotPromise ??= import('got').then((m) => m.got));

/** How much of an answer is kept on the attempt. */
const RESPONSE_LIMIT = 4096;

/** How a request went: the fields of an attempt that only its end knows. */
export type Outcome = Pick<Attempt, 'status' | 'response_body' | 'error'>;

export interface SendOptions {
  timeoutMs: number;
  /** Refuse private and reserved addresses (--strict-webhook-urls). */
  strictUrls: boolean;
  /** The namespace the event belongs to, sent as `Payemu-Namespace`; unset in the default namespace, which sends no such header. */
  namespace?: string;
}

/** How an attempt is signed: normally with the Source's secret at the time it is sent. */
export interface Signing {
  secret: string;
  /** Seconds taken off `t=` (webhook chaos's stale timestamp). */
  ageSeconds?: number;
}

/**
 * One delivery attempt's request: the event's payload POSTed to `url`, signed with the secret
 * at wall-clock time when it is sent (receivers check `t=` against their own clock), with got's
 * own retries off (the dispatcher's are the retries) and redirects not followed. Never throws:
 * a refused connection or a timeout is an outcome like an HTTP status.
 */
export async function sendWebhook(event: EventRecord, url: string, signing: Signing, signal: AbortSignal, options: SendOptions): Promise<Outcome> {
  if (options.strictUrls) {
    const refusal = await strictRefusal(url);
    if (refusal) return { status: null, response_body: null, error: refusal };
  }
  const body = JSON.stringify(eventBody(event));
  const t = Math.floor(wallClock.now() / 1000) - (signing.ageSeconds ?? 0);
  const headers: Record<string, string> = {
    'X-Webhook-Signature': signatureHeader(signing.secret, body, t),
    'X-Webhook-Event': event.event,
    'X-Webhook-Event-Id': event.id,
  };
  // Workers sharing one receiver can tell whose event it is; the default namespace's deliveries stay as they were.
  if (options.namespace !== undefined) headers['Payemu-Namespace'] = options.namespace;
  return postWebhook(url, body, headers, { timeoutMs: options.timeoutMs, signal });
}

/**
 * POSTs a webhook body with the given headers (besides Content-Type and User-Agent): the one
 * request of a delivery attempt, and of each check `payemu verify-handler` makes. Never throws.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<Outcome> {
  const got = await loadGot();
  // got's stream, not a promise: a promise buffers the whole answer (a receiver answering 1 GiB
  // took payemu to 2 GB). The stream is read until RESPONSE_LIMIT bytes or the end of the
  // answer, whichever comes first, then destroyed: the rest of the answer is never read, and an
  // answer that never ends does not hold the attempt. The attempt is judged by its status; an
  // answer that stalls before its end or its first 4 KiB times out (timeout.request runs until
  // the end of the answer).
  return new Promise<Outcome>((resolve) => {
    let status: number | null = null;
    const kept: Buffer[] = [];
    let size = 0;
    let settled = false;
    const answered = (): Outcome => {
      const text = Buffer.concat(kept, size).toString('utf8');
      const ok = status !== null && status >= 200 && status < 300;
      return { status, response_body: text, error: ok ? null : `HTTP ${status}` };
    };
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      resolve(outcome);
    };
    const stream = got.stream.post(url, {
      body,
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'payemu-webhooks', ...headers },
      timeout: { request: options.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      signal: options.signal,
    });
    stream.on('response', (response: { statusCode: number }) => (status = response.statusCode));
    stream.on('data', (chunk: Buffer) => {
      const piece = chunk.subarray(0, RESPONSE_LIMIT - size);
      kept.push(piece);
      size += piece.length;
      if (size >= RESPONSE_LIMIT) settle(answered());
    });
    stream.on('end', () => settle(answered()));
    stream.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ETIMEDOUT' ? `timed out after ${options.timeoutMs} ms` : `${error.code ? `${error.code}: ` : ''}${error.message}`;
      settle({ status: null, response_body: null, error: reason });
    });
  });
}
