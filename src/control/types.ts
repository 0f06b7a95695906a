/**
 * The control plane's answers (`/_payemu/`), as the client, the CLI and the library's users read
 * them: each derived (`FromSchema`) from the schema its operation answers with, beside that schema
 * (src/schemas/control.ts; the event log's from the catalogue's events). Here, beside the operations, so that
 * the client takes its types from the control plane it speaks to; the library exports them too.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { faultSchema } from '../lib/faults.js';
import type { EVENT_WIRE } from '../modules.js';
import type { ClosedObject } from '../schemas/wire.js';
import type { WebhookEvent } from '../types.js';

export type {
  AdvanceResult,
  AttemptView,
  ClockView,
  CompleteResult,
  FaultView,
  InvoicePayResult,
  LinkPayResult,
  RequestList,
  RequestView,
  ResetResult,
  TriggerReport,
  WebhookChaosView,
  WebhookDestinationView,
} from '../schemas/control.js';
/** The card a hosted page would be given (`POST /_payemu/sessions/{id}/complete` and the other pay endpoints). */
export type { CardAttemptBody as CardAttempt } from '../schemas/card.js';

/** An event of the control plane's log (`GET /_payemu/events`, `/_payemu/events/{id}`). */
export type EventView = FromSchema<ClosedObject<Omit<EventProperties, 'payload'>, Exclude<keyof EventProperties & string, 'payload'>>> & {
  payload: WebhookEvent;
};
// `payload` is a oneOf of every event's payload, an array FromSchema does not read as a union: derived piecewise.
type EventProperties = (typeof EVENT_WIRE.event)['properties'];
/** A fault as sent to `POST /_payemu/faults`: only `path` is required. */
export type FaultInput = FromSchema<typeof faultSchema>;
