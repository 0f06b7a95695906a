import { formatTimestamp } from '../clock/format.js';
import type { Attempt, EventRecord } from './records.js';

/** The control plane's view of an event (DESIGN.md section 7). */
export function presentEvent(event: EventRecord) {
  return {
    id: event.id,
    event: event.event,
    source: event.source,
    mode: event.mode,
    reference: event.reference,
    created_at: formatTimestamp(event.created_at),
    payload: event.payload,
    delivery_status: event.delivery_status,
    next_attempt_at: event.next_attempt_at === null ? null : formatTimestamp(event.next_attempt_at),
    attempts: event.attempts.map(presentAttempt),
  };
}

export function presentAttempt(attempt: Attempt) {
  return {
    status: attempt.status,
    response_body: attempt.response_body,
    duration_ms: attempt.duration_ms,
    error: attempt.error,
    at: formatTimestamp(attempt.at),
    url: attempt.url,
  };
}
