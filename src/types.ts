/**
 * TypeScript types of what the API answers and what webhooks carry, for users' own code and
 * tests, and for payemu's presenters, event raisers and client. Amounts in API answers are
 * two-decimal strings (sessions: numbers); in webhook payloads, numbers. Timestamps are ISO 8601
 * UTC with microseconds; dates YYYY-MM-DD.
 *
 * None is written by hand: each is derived (`FromSchema`, json-schema-to-ts) from the JSON Schema
 * that the OpenAPI document publishes and the test suite checks every answer against (the
 * files of src/schemas/: the shared pieces, the control plane, the resources' answers; the
 * webhook payloads each resource module declares), most of them beside their schema, where the
 * presenters and emitters take them. The events' types (EventName, EventDataMap, WebhookEvent)
 * are derived from the catalogue's modules: an event a module declares is in them. A presenter
 * that forgets or misnames an attribute fails the type check; a schema that changes changes its
 * type. Imported as types only: nothing of the server reaches the client.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { EVENTS } from './modules.js';
import type { EventDataOf } from './resources/common/event-adds.js';
import type { errors, ListDocumentSchema } from './schemas/wire.js';
import type { accountDocument } from './resources/account/wire.js';
import type { chargeAttributes, chargeDocument } from './resources/charges/wire.js';
import type { invoiceStatus } from './schemas/invoices.js';
import type { cardBrand, failureCode, paymentStatus } from './schemas/payments.js';
import type { captureDocument, voidDocument } from './resources/payments/wire.js';
import type { frequency, recurringStatus } from './schemas/recurring.js';
import type { refundDocument } from './resources/refunds/wire.js';
import type { createdSessionDocument, sessionAttributes } from './resources/sessions/wire.js';
import type { taxCalculationDocument, taxSettingsAttributes } from './resources/tax/wire.js';

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
export type { CreatedSessionDocument, SessionDocument } from './resources/sessions/wire.js';
/** `POST /v1/sessions`: exactly five attributes. */
export type CreatedSessionAttributes = FromSchema<typeof createdSessionDocument>['data']['attributes'];

export type { PaymentAttributes, PaymentSummary } from './schemas/payments.js';
/** `POST /v1/payments/{reference}/capture`. */
export type CaptureDocument = FromSchema<typeof captureDocument>;
/** `POST /v1/payments/{reference}/void`. */
export type VoidDocument = FromSchema<typeof voidDocument>;

export type { RefundAttributes, RefundMeta } from './resources/refunds/wire.js';
export type RefundDocument = FromSchema<typeof refundDocument>;

export type { RecurringAttributes } from './schemas/recurring.js';

export type ChargeAttributes = FromSchema<typeof chargeAttributes>;
export type ChargeDocument = FromSchema<typeof chargeDocument>;

export type { InvoiceAttributes } from './schemas/invoices.js';

export type { PaymentLinkAttributes } from './schemas/payment-links.js';

/** `GET /v1/me` (every attribute; `fields[accounts]` may leave some out). */
export type AccountAttributes = Required<FromSchema<typeof accountDocument>['data']['attributes']>;

export type TaxSettingsAttributes = FromSchema<typeof taxSettingsAttributes>;
export type TaxCalculationDocument = FromSchema<typeof taxCalculationDocument>;

export type { PaymentMethodSessionDocument } from './resources/payment-method-sessions/wire.js';

// ---- Webhooks ----

/** The events' `data` schemas by name, as the catalogue's modules declare them. */
type EventSchemas = typeof EVENTS;

/** The name of a webhook event: one of EVENT_NAMES, which the resource modules declare. */
export type EventName = Declared<keyof EventSchemas & string>;

// A module typed as a plain `ResourceModule` forgets its events' names, which would make every
// name an event: `never` then, so that every raise and every map of events fails the type check.
type Declared<N extends string> = string extends N ? never : N;

/** The `data` of each event's webhook, by event name (every event the modules declare). */
export type EventDataMap = EventDataOf<Pick<EventSchemas, EventName>>;

// The payload types of the hosted API's events, by name (the library exports them).
export type PaymentCompletedData = EventDataMap['payment.completed'];
export type PaymentAuthorizedData = EventDataMap['payment.authorized'];
export type PaymentCapturedData = EventDataMap['payment.captured'];
export type PaymentFailedData = EventDataMap['payment.failed'];
export type PaymentRefundedData = EventDataMap['payment.refunded'];
export type PaymentVoidedData = EventDataMap['payment.voided'];
export type RecurringChargedData = EventDataMap['recurring.charged'];
export type RecurringFailedData = EventDataMap['recurring.failed'];
export type RecurringSuspendedData = EventDataMap['recurring.suspended'];
export type RecurringCancelledData = EventDataMap['recurring.cancelled'];
export type RecurringPausedData = EventDataMap['recurring.paused'];
export type RecurringResumedData = EventDataMap['recurring.resumed'];
export type RecurringUpdatedData = EventDataMap['recurring.updated'];
export type RecurringPaymentMethodUpdatedData = EventDataMap['recurring.payment_method_updated'];
export type InvoiceCreatedData = EventDataMap['invoice.created'];
export type InvoiceSentData = EventDataMap['invoice.sent'];
export type InvoicePaidData = EventDataMap['invoice.paid'];
export type InvoiceOverdueData = EventDataMap['invoice.overdue'];

/** The `data` of each event's webhook, by event name. */
export type EventData<N extends EventName = EventName> = EventDataMap[N];

/** `data` of the `payment.*` webhooks (each event's own: `EventData<'payment.refunded'>`). */
export type PaymentEventData = EventData<Extract<EventName, `payment.${string}`>>;
/** `data` of the `recurring.*` webhooks. */
export type RecurringEventData = EventData<Extract<EventName, `recurring.${string}`>>;
/** `data` of the `invoice.*` webhooks. */
export type InvoiceEventData = EventData<Extract<EventName, `invoice.${string}`>>;

/** A webhook body, `{event, data}` (the schema of `webhookPayloads`): narrow on `event` to get that event's `data`. */
export type WebhookEvent<N extends EventName = EventName> = { [K in EventName]: { event: K; data: EventDataMap[K] } }[N];
