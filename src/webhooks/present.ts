import { formatOptionalTimestamp, formatTimestamp } from '../clock/format.js';
import { attemptState, attemptsOf, eventBody, eventReference, type Attempt, type EventRecord } from './records.js';

/** The control plane's view of an event (`GET /_payemu/events/{id}`, docs/webhooks.md). */
export function presentEvent(event: EventRecord) {
  return {
    id: event.id,
    event: event.event,
    source: event.source,
    mode: event.mode,
    reference: eventReference(event),
    created_at: formatTimestamp(event.created_at),
    payload: eventBody(event),
    delivery_status: event.delivery_status,
    next_attempt_at: formatOptionalTimestamp(event.next_attempt_at),
    attempts: attemptsOf(event).map(presentAttempt),
  };
}

/**
 * One attempt: `state` is `in_progress`, `interrupted` (payemu stopped or crashed while it was
 * out: the receiver may have got it), `succeeded` or `failed`. `duration_ms` is null unless the
 * attempt ended (succeeded or failed). `chaos` is the webhook chaos it carried, or null.
 */
export function presentAttempt(attempt: Attempt) {
  const state = attemptState(attempt);
  return {
    status: attempt.status,
    response_body: attempt.response_body,
    duration_ms: state === 'in_progress' || state === 'interrupted' ? null : attempt.duration_ms,
    error: attempt.error,
    at: formatTimestamp(attempt.at),
    url: attempt.url,
    state,
    chaos: attempt.chaos ?? null,
  };
}
