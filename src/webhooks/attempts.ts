import type { ChaosKind } from './chaos.js';
import { attemptState, attemptsOf, cycleAttempts, type Attempt, type EventRecord } from './records.js';

/**
 * The attempt log of an event, as pure functions. An attempt is written twice: when it starts
 * (before its request goes out, so a receiver can never have got more attempts than the log
 * shows) and when it ends, in the same place. An attempt that never ended, because payemu
 * stopped or crashed, is marked interrupted at the next start and counts as a failure.
 */

/** An attempt as logged when it starts, with the webhook chaos it carries. */
export function startedAttempt(url: string, at: number, chaos: ChaosKind | null = null): Attempt {
  return { status: null, response_body: null, duration_ms: 0, error: null, at, url, state: 'in_progress', chaos };
}

/**
 * The event once the second copy of a duplicated delivery (webhook chaos) has ended as `ended`:
 * logged in place of its in-progress entry, and nothing else. The copy's answer does not change
 * the delivery's status, and it is never retried: the delivery itself was its first attempt.
 */
export function settleCopy(event: EventRecord, ended: Attempt): EventRecord {
  return { ...event, attempts: withEnded(event, ended) };
}

/** The attempt log with `ended` in place of the attempt in progress, or appended if none is. */
function withEnded(event: EventRecord, ended: Attempt): Attempt[] {
  const attempts = attemptsOf(event).slice();
  if (inProgress(event)) attempts[attempts.length - 1] = ended;
  else attempts.push(ended);
  return attempts;
}

/** The event with `started` logged as its newest attempt; its delivery state is unchanged. */
export function withStarted(event: EventRecord, started: Attempt): EventRecord {
  return { ...event, attempts: [...attemptsOf(event), started] };
}

/** What became of an attempt cut off by a stop or a crash: it has no answer, and no known end. */
export function interrupted(started: Attempt): Attempt {
  return { ...started, state: 'interrupted', error: 'interrupted' };
}

/** The event's attempt in progress, if its newest attempt is one. */
export function inProgress(event: EventRecord): Attempt | undefined {
  const last = event.attempts?.at(-1);
  return last?.state === 'in_progress' ? last : undefined;
}

/**
 * The event once its attempt in progress has ended as `ended` (which replaces it; appended if
 * none is in progress), `now` being the virtual time it ended: delivered on a 2xx, else retried
 * the cycle's next wait after `now`, else failed. A refusal by --strict-webhook-urls will not
 * change on retry and is not retried. An interrupted attempt got no answer, so it uses up none
 * of the retries: it is tried again at once (the receiver may or may not have got it; the event
 * id lets it tell).
 *
 * The wait counts on the virtual clock from the end of the failed attempt: with a frozen clock
 * (or during an advance, where the clock stands at the attempt's due time) that is the moment
 * the attempt was made, so retries fall due exactly 1 s, then 5 s, then 25 s after each other.
 */
export function settle(event: EventRecord, ended: Attempt, backoffMs: readonly number[], now: number): EventRecord {
  const ok = attemptState(ended) === 'succeeded';
  const cut = ended.state === 'interrupted';
  const cycle = cycleAttempts(event) + (cut ? 0 : 1);
  const wait = cut ? 0 : backoffMs[cycle - 1];
  const retry = !ok && wait !== undefined && !ended.error?.startsWith('blocked by');
  return {
    ...event,
    attempts: withEnded(event, ended),
    cycle_attempts: cycle,
    delivery_status: ok ? 'delivered' : retry ? 'retrying' : 'failed',
    next_attempt_at: retry ? now + wait : null,
  };
}
