/**
 * The control plane's answers (`/_payemu/`), as the client, the CLI and the library's users read
 * them: each derived (`FromSchema`) from the schema its operation answers with (src/schemas/
 * control.ts, the event log's from the catalogue's events). Here, beside the operations, so that
 * the client takes its types from the control plane it speaks to; the library exports them too.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { faultSchema } from '../lib/faults.js';
import type { EVENT_WIRE } from '../modules.js';
import type { cardAttemptBody } from '../schemas/card.js';
import type {
  advanceReport,
  attempt,
  clockView,
  faultView,
  invoicePaid,
  linkPaid,
  requestEntry,
  requestList,
  resetReport,
  sessionCompleted,
  triggerResult,
  webhookChaos,
  webhookDestination,
} from '../schemas/control.js';
import type { ClosedObject } from '../schemas/wire.js';
import type { WebhookEvent } from '../types.js';

/** `GET /_payemu/clock`. */
export type ClockView = FromSchema<typeof clockView>;
/** `POST /_payemu/clock/advance`: where the clock went and how many jobs of each kind ran. */
export type AdvanceResult = FromSchema<typeof advanceReport>;
/** `POST /_payemu/reset`. */
export type ResetResult = FromSchema<typeof resetReport>;
/** `GET`/`PUT /_payemu/webhook-chaos`: the settings in force (`{}` when off). */
export type WebhookChaosView = FromSchema<typeof webhookChaos>;
/** `GET`/`PUT`/`DELETE /_payemu/webhook`: where the key's Source's webhooks go now, and whether that was set at run time. */
export type WebhookDestinationView = FromSchema<typeof webhookDestination>;
/** One delivery attempt of an event. */
export type AttemptView = FromSchema<typeof attempt>;
/** An event of the control plane's log (`GET /_payemu/events`, `/_payemu/events/{id}`). */
export type EventView = FromSchema<ClosedObject<Omit<EventProperties, 'payload'>, Exclude<keyof EventProperties & string, 'payload'>>> & {
  payload: WebhookEvent;
};
// `payload` is a oneOf of every event's payload, an array FromSchema does not read as a union: derived piecewise.
type EventProperties = (typeof EVENT_WIRE.event)['properties'];
/** `POST /_payemu/trigger`: the API calls the fixture made and the event that resulted. */
export type TriggerReport = FromSchema<typeof triggerResult>;
/** `POST /_payemu/sessions/{id}/complete`: a checkout's payment, or a card update's outcome. */
export type CompleteResult = FromSchema<typeof sessionCompleted>;
/** The card a hosted page would be given (`POST /_payemu/sessions/{id}/complete` and the other pay endpoints). */
export type CardAttempt = FromSchema<typeof cardAttemptBody>;
/** One `/v1` request of the request journal (`GET /_payemu/requests`). */
export type RequestView = FromSchema<typeof requestEntry>;
/** `GET /_payemu/requests`: newest first; `total` counts every match. */
export type RequestList = FromSchema<typeof requestList>;
/** A fault as payemu shows it (`/_payemu/faults`): every field with its default, its id and how many requests it acted on. */
export type FaultView = FromSchema<typeof faultView>;
/** A fault as sent to `POST /_payemu/faults`: only `path` is required. */
export type FaultInput = FromSchema<typeof faultSchema>;
/** `POST /_payemu/invoices/{id}/pay`. */
export type InvoicePayResult = FromSchema<typeof invoicePaid>;
/** `POST /_payemu/payment-links/{id}/pay`. */
export type LinkPayResult = FromSchema<typeof linkPaid>;
