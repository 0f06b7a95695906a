/**
 * TypeScript types of what the API answers and what webhooks carry, for users' own code and
 * tests, and for payemu's presenters, event raisers and client. Amounts in API answers are
 * two-decimal strings (sessions: numbers); in webhook payloads, numbers. Timestamps are ISO 8601
 * UTC with microseconds; dates YYYY-MM-DD.
 *
 * None is written by hand: each is derived (`FromSchema`, json-schema-to-ts) from the JSON Schema
 * that the OpenAPI document publishes and the test suite checks every answer against (the
 * files of src/schemas/: one a resource, wire.ts, control.ts). A presenter that
 * forgets or misnames an attribute fails the type check; a schema that changes changes its type.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { EventName } from './bus/events.js';
import type {
  advanceReport,
  attempt,
  clockView,
  event,
  eventData,
  faultView,
  invoicePaid,
  linkPaid,
  requestEntry,
  requestList,
  resetReport,
  sessionCompleted,
  triggerResult,
  webhookChaos,
  webhookPayloads,
} from './schemas/control.js';
import type { ClosedObject, errors, ListDocumentSchema } from './schemas/wire.js';
import type { accountDocument } from './schemas/account.js';
import type { chargeAttributes, chargeDocument } from './schemas/charges.js';
import type { invoiceAttributes, invoiceStatus } from './schemas/invoices.js';
import type { linkAttributes } from './schemas/payment-links.js';
import type { methodSessionDocument } from './schemas/payment-method-sessions.js';
import type { captureDocument, cardBrand, failureCode, paymentAttributes, paymentStatus, paymentSummary, voidDocument } from './schemas/payments.js';
import type { frequency, recurringAttributes, recurringStatus } from './schemas/recurring.js';
import type { refundAttributes, refundDocument, refundMeta } from './schemas/refunds.js';
import type { createdSessionDocument, sessionAttributes, sessionDocument } from './schemas/sessions.js';
import type { taxCalculationDocument, taxSettingsAttributes } from './schemas/tax.js';
import type { cardAttemptBody } from './schemas/card.js';
import type { faultSchema } from './lib/faults.js';

// ---- The /v1 answers ----

/**
 * A JSON:API resource object of any type and attributes (generic, so written here; each
 * resource's own is derived below from its schema).
 */
export interface Resource<Type extends string, Attributes> {
  id: string | number;
  type: Type;
  attributes: Attributes;
  /** With `include` (or a relationship named in `fields[<type>]`): `{refunds: {data: [{type, id}]}}`. */
  relationships?: Record<string, { data: { type: string; id: string | number }[] }>;
  links?: Record<string, string>;
}

/** A single-resource answer: `{data, meta?, included?}`. */
export interface Document<R> {
  data: R;
  meta?: Record<string, unknown>;
  included?: Resource<string, unknown>[];
}

/** A page of a list (`listDocument()` of src/schemas/wire.ts): `links` and `meta` as the schema says. */
export type ListDocument<R> = Omit<FromSchema<ListDocumentSchema<{ type: 'object' }, undefined>>, 'data'> & {
  data: R[];
  included?: Resource<string, unknown>[];
};

/** The one error envelope. */
export type ErrorDocument = FromSchema<typeof errors>;

export type PaymentStatus = FromSchema<typeof paymentStatus>;
export type CardBrand = FromSchema<typeof cardBrand>;
export type FailureCode = FromSchema<typeof failureCode>;
export type RecurringStatus = FromSchema<typeof recurringStatus>;
export type Frequency = FromSchema<typeof frequency>;
export type InvoiceStatus = FromSchema<typeof invoiceStatus>;

/** `GET /v1/sessions/{id}`: every attribute (a read with `fields[sessions]` may leave some out). */
export type SessionAttributes = FromSchema<typeof sessionAttributes>;
/** `POST /v1/sessions`: exactly five attributes. */
export type CreatedSessionDocument = FromSchema<typeof createdSessionDocument>;
export type CreatedSessionAttributes = CreatedSessionDocument['data']['attributes'];
/** `GET /v1/sessions/{id}`. */
export type SessionDocument = FromSchema<typeof sessionDocument>;

/** Every attribute of a payment; `payment_method` only when a card was saved. */
export type PaymentAttributes = FromSchema<typeof paymentAttributes>;
/** `POST /v1/payments/{reference}/capture`. */
export type CaptureDocument = FromSchema<typeof captureDocument>;
/** `POST /v1/payments/{reference}/void`. */
export type VoidDocument = FromSchema<typeof voidDocument>;

export type RefundAttributes = FromSchema<typeof refundAttributes>;
/** `meta` of the refund answers. */
export type RefundMeta = FromSchema<typeof refundMeta>;
export type RefundDocument = FromSchema<typeof refundDocument>;

export type RecurringAttributes = FromSchema<typeof recurringAttributes>;

export type ChargeAttributes = FromSchema<typeof chargeAttributes>;
export type ChargeDocument = FromSchema<typeof chargeDocument>;

export type InvoiceAttributes = FromSchema<typeof invoiceAttributes>;

export type PaymentLinkAttributes = FromSchema<typeof linkAttributes>;

/** `GET /v1/me` (every attribute; `fields[accounts]` may leave some out). */
export type AccountAttributes = Required<FromSchema<typeof accountDocument>['data']['attributes']>;

export type TaxSettingsAttributes = FromSchema<typeof taxSettingsAttributes>;
export type TaxCalculationDocument = FromSchema<typeof taxCalculationDocument>;

export type PaymentMethodSessionDocument = FromSchema<typeof methodSessionDocument>;

// ---- Webhooks ----

// Each payload type is derived once, under its own name: `FromSchema` is costly, and a named
// type is computed once where a mapped or generic one is computed again at each use.
export type PaymentCompletedData = FromSchema<(typeof eventData)['payment.completed']>;
export type PaymentAuthorizedData = FromSchema<(typeof eventData)['payment.authorized']>;
export type PaymentCapturedData = FromSchema<(typeof eventData)['payment.captured']>;
export type PaymentFailedData = FromSchema<(typeof eventData)['payment.failed']>;
export type PaymentRefundedData = FromSchema<(typeof eventData)['payment.refunded']>;
export type PaymentVoidedData = FromSchema<(typeof eventData)['payment.voided']>;
export type RecurringChargedData = FromSchema<(typeof eventData)['recurring.charged']>;
export type RecurringFailedData = FromSchema<(typeof eventData)['recurring.failed']>;
export type RecurringSuspendedData = FromSchema<(typeof eventData)['recurring.suspended']>;
export type RecurringCancelledData = FromSchema<(typeof eventData)['recurring.cancelled']>;
export type RecurringPausedData = FromSchema<(typeof eventData)['recurring.paused']>;
export type RecurringResumedData = FromSchema<(typeof eventData)['recurring.resumed']>;
export type RecurringUpdatedData = FromSchema<(typeof eventData)['recurring.updated']>;
export type RecurringPaymentMethodUpdatedData = FromSchema<(typeof eventData)['recurring.payment_method_updated']>;
export type InvoiceCreatedData = FromSchema<(typeof eventData)['invoice.created']>;
export type InvoiceSentData = FromSchema<(typeof eventData)['invoice.sent']>;
export type InvoicePaidData = FromSchema<(typeof eventData)['invoice.paid']>;
export type InvoiceOverdueData = FromSchema<(typeof eventData)['invoice.overdue']>;

/** The `data` of each event's webhook, by event name: what `raiseEvent` takes. */
export interface EventDataMap {
  'payment.completed': PaymentCompletedData;
  'payment.authorized': PaymentAuthorizedData;
  'payment.captured': PaymentCapturedData;
  'payment.failed': PaymentFailedData;
  'payment.refunded': PaymentRefundedData;
  'payment.voided': PaymentVoidedData;
  'recurring.charged': RecurringChargedData;
  'recurring.failed': RecurringFailedData;
  'recurring.suspended': RecurringSuspendedData;
  'recurring.cancelled': RecurringCancelledData;
  'recurring.paused': RecurringPausedData;
  'recurring.resumed': RecurringResumedData;
  'recurring.updated': RecurringUpdatedData;
  'recurring.payment_method_updated': RecurringPaymentMethodUpdatedData;
  'invoice.created': InvoiceCreatedData;
  'invoice.sent': InvoiceSentData;
  'invoice.paid': InvoicePaidData;
  'invoice.overdue': InvoiceOverdueData;
}

/** The `data` of each event's webhook, by event name. */
export type EventData<N extends EventName = EventName> = EveryEvent<EventDataMap>[N];

// The map names every event and nothing else: an event added to EVENT_NAMES fails here until it has its type.
type EveryEvent<M extends Record<EventName, unknown> & Record<Exclude<keyof M, EventName>, never>> = M;

/** `data` of the `payment.*` webhooks (each event's own: `EventData<'payment.refunded'>`). */
export type PaymentEventData = EventData<Extract<EventName, `payment.${string}`>>;
/** `data` of the `recurring.*` webhooks. */
export type RecurringEventData = EventData<Extract<EventName, `recurring.${string}`>>;
/** `data` of the `invoice.*` webhooks. */
export type InvoiceEventData = EventData<Extract<EventName, `invoice.${string}`>>;

/** A webhook body, `{event, data}`: narrow on `event` to get that event's `data`. */
export type WebhookEvent<N extends EventName = EventName> = { [K in EventName]: FromSchema<(typeof webhookPayloads)[K]> }[N];

// ---- The control plane's answers (/_payemu/) ----

/** `GET /_payemu/clock`. */
export type ClockView = FromSchema<typeof clockView>;
/** `POST /_payemu/clock/advance`: where the clock went and how many jobs of each kind ran. */
export type AdvanceResult = FromSchema<typeof advanceReport>;
/** `POST /_payemu/reset`. */
export type ResetResult = FromSchema<typeof resetReport>;
/** `GET`/`PUT /_payemu/webhook-chaos`: the settings in force (`{}` when off). */
export type WebhookChaosView = FromSchema<typeof webhookChaos>;
/** One delivery attempt of an event. */
export type AttemptView = FromSchema<typeof attempt>;
/** An event of the control plane's log (`GET /_payemu/events`, `/_payemu/events/{id}`). */
export type EventView = FromSchema<ClosedObject<Omit<EventProperties, 'payload'>, Exclude<keyof EventProperties & string, 'payload'>>> & {
  payload: WebhookEvent;
};
// `payload` is a oneOf of 18 payloads, an array FromSchema does not read as a union: derived piecewise.
type EventProperties = (typeof event)['properties'];
/** `POST /_payemu/trigger`: the API calls the fixture made and the event that resulted. */
export type TriggerReport = FromSchema<typeof triggerResult>;
/** The control plane's view of a payment. */
export type PaymentSummary = FromSchema<typeof paymentSummary>;
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
