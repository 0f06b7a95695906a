import type { FromSchema } from 'json-schema-to-ts';
import { CHAOS_KINDS } from './attempt-chaos.js';
import { boolean, integer, named, nullable, number, object, oneOfValues, string, timestamp, type ClosedObject } from './wire.js';
import { invoiceAttributes } from './invoices.js';
import { linkAttributes } from './payment-links.js';
import { cardBrand, failureCode, paymentSummary } from './payments.js';
import { recurringAttributes } from './recurring.js';

/** JSON Schemas of the control plane's answers (plain JSON, not JSON:API) and of the webhook payloads (see wire.ts). */

const mode = oneOfValues(['test', 'live']);

export const health = object({ status: { const: 'ok' } });

export const clockView = named('Clock', object({ now: timestamp, offset_seconds: integer, frozen: boolean }));
/** `GET /_payemu/clock`. */
export type ClockView = FromSchema<typeof clockView>;

export const advanceReport = named(
  'ClockAdvance',
  object({
    now: timestamp,
    offset_seconds: integer,
    frozen: boolean,
    ran: { type: 'object', description: 'How many of each kind of due work ran.', additionalProperties: integer },
    items: { type: 'array', description: 'The first 100 things that ran.', items: object({ kind: string, id: string, at: timestamp }) },
  }),
);
/** `POST /_payemu/clock/advance`: where the clock went and how many jobs of each kind ran. */
export type AdvanceResult = FromSchema<typeof advanceReport>;

export const resetReport = named('Reset', object({ removed: integer, scope: { anyOf: [{ const: 'all' }, object({ source: string, mode })] }, now: timestamp }));
/** `POST /_payemu/reset`. */
export type ResetResult = FromSchema<typeof resetReport>;

/** A body the request journal kept: the JSON as sent or answered, a non-JSON or cut body as text, null when none. */
const journaledBody = {
  description:
    'The JSON as sent or answered; a body that is not JSON, or was cut at 16 KiB (`…[cut: N bytes]` at its end), as text; a value nested deeper than 64 levels replaced by the string `…[cut: nested deeper than 64 levels]`; null when there was none.',
};

const journaledBodyCut = { type: 'boolean', description: 'The body was cut: at 16 KiB (it is then text) or at 64 levels of nesting.' } as const;

export const requestEntry = named(
  'JournaledRequest',
  object({
    id: string,
    at: timestamp,
    method: string,
    path: string,
    query: {
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      description: 'The query string, parsed (a repeated parameter is an array).',
    },
    status: { ...nullable(integer), description: 'null when the connection closed before an answer was sent.' },
    duration_ms: integer,
    idempotency_key: nullable(string),
    replayed: boolean,
    fault: nullable(string),
    request_body: journaledBody,
    response_body: journaledBody,
    request_body_cut: journaledBodyCut,
    response_body_cut: journaledBodyCut,
  }),
);
/** One `/v1` request of the request journal (`GET /_payemu/requests`). */
export type RequestView = FromSchema<typeof requestEntry>;

export const requestList = named('RequestJournal', object({ requests: { type: 'array', items: requestEntry }, total: integer }));
/** `GET /_payemu/requests`: newest first; `total` counts every match. */
export type RequestList = FromSchema<typeof requestList>;

export const requestsCleared = named('RequestJournalCleared', object({ removed: integer }));
export const faultView = named(
  'Fault',
  object({
    id: { type: 'string', pattern: '^flt_[0-9A-Za-z]{24}$' },
    method: { anyOf: [oneOfValues(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']), { type: 'null' }], description: 'Only requests of this method; null: any.' },
    path: { type: 'string', description: 'A glob of /v1 paths: `*` one segment, `**` the rest.' },
    status: { ...nullable({ type: 'integer', minimum: 400, maximum: 599 }), description: "The answer's status; null: the real answer's." },
    body: { description: 'The answer instead of the error envelope; null: the envelope.' },
    latency_ms: integer,
    drop: boolean,
    apply: boolean,
    probability: number,
    times: { ...nullable(integer), description: 'Acts this many times, then leaves the list; null: never retires.' },
    seed: integer,
    hits: { type: 'integer', description: 'How many requests the fault acted on.' },
  }),
);
/** A fault as payemu shows it (`/_payemu/faults`): every field with its default, its id and how many requests it acted on. */
export type FaultView = FromSchema<typeof faultView>;

export const faultList = named('FaultList', object({ faults: { type: 'array', items: faultView } }));

export const faultRemoved = named('FaultsRemoved', object({ removed: integer }));

export const triggerResult = named(
  'TriggerResult',
  object({
    event: string,
    event_id: nullable(string),
    source: string,
    mode,
    steps: {
      type: 'array',
      items: object({ id: string, method: string, path: string, status: integer, created: nullable(string) }),
    },
  }),
);
/** `POST /_payemu/trigger`: the API calls the fixture made and the event that resulted. */
export type TriggerReport = FromSchema<typeof triggerResult>;

export const attempt = named(
  'DeliveryAttempt',
  object({
    status: nullable(integer),
    response_body: nullable(string),
    duration_ms: nullable(integer),
    error: nullable(string),
    at: timestamp,
    url: string,
    state: oneOfValues(['in_progress', 'interrupted', 'succeeded', 'failed']),
    chaos: { ...nullable(oneOfValues(CHAOS_KINDS)), description: 'The webhook chaos the attempt carried, or null.' },
  }),
);
/** One delivery attempt of an event. */
export type AttemptView = FromSchema<typeof attempt>;

/** `GET`/`PUT /_payemu/webhook-chaos`: the settings in force (`{}` when off). */
export const webhookChaos = named(
  'WebhookChaos',
  object(
    {
      duplicate: { type: 'number', minimum: 0, maximum: 1 },
      delay: { type: 'string', description: 'A duration: each first attempt waits a random time up to it.' },
      stale_timestamp: { type: 'number', minimum: 0, maximum: 1 },
      bad_signature: { type: 'number', minimum: 0, maximum: 1 },
      seed: integer,
    },
    ['duplicate', 'delay', 'stale_timestamp', 'bad_signature', 'seed'],
  ),
);
export type WebhookChaosView = FromSchema<typeof webhookChaos>;

/** `GET`/`PUT`/`DELETE /_payemu/webhook`: where the key's Source's webhooks go now, and whether that was set at run time. */
export const webhookDestination = named(
  'WebhookDestination',
  object({
    source: { ...string, description: "The key's Source (the destination is the same in both modes)." },
    url: {
      ...nullable(string),
      description: "Where its webhooks go now: the URL set with PUT, else the config's `webhook_url`, else `--webhook-url`; null: nowhere.",
    },
    overridden: { ...boolean, description: 'true when the URL was set with PUT /_payemu/webhook and wins over the config.' },
  }),
);
export type WebhookDestinationView = FromSchema<typeof webhookDestination>;

const deliveryStatus = oneOfValues(['pending', 'retrying', 'delivered', 'failed', 'no_endpoint']);

/**
 * Events as the resource modules declare them (src/resources/module.ts): each name with the JSON
 * Schema of its webhook's `data`, in the catalogue's order. The catalogue joins every module's
 * into one table and makes its wire with eventWire.
 */
export type EventTable = Readonly<Record<string, object>>;

/**
 * The wire of the events of `eventData`: each webhook's body, `{event, data}` by name (what the
 * receiver gets, and `payload` of the event log), and the event log's answers. Made by the
 * catalogue from the resource modules' events: the schemas know no event of their own.
 */
export function eventWire<const T extends EventTable>(eventData: T) {
  const names: readonly (keyof T & string)[] = Object.freeze(Object.keys(eventData) as (keyof T & string)[]);
  const webhookPayloads = Object.fromEntries(
    names.map((name) => [name, named(`${pascal(name)}Payload`, object({ event: { const: name }, data: eventData[name]! }))]),
  ) as { readonly [N in keyof T & string]: WebhookPayloadSchema<N, T[N]> };
  const webhookPayload = named('WebhookPayload', { oneOf: names.map((name) => webhookPayloads[name]) });
  const event = named(
    'Event',
    object({
      id: { type: 'string', format: 'uuid' },
      event: oneOfValues(names),
      source: string,
      mode,
      reference: nullable(string),
      created_at: timestamp,
      payload: webhookPayload,
      delivery_status: deliveryStatus,
      next_attempt_at: nullable(timestamp),
      attempts: { type: 'array', items: attempt },
    }),
  );
  const eventList = named('EventList', object({ events: { type: 'array', items: event } }));
  return { names, eventData, webhookPayloads, webhookPayload, event, eventList };
}

/** The type of a webhook body's schema: what `object({event: {const: name}, data})` makes above. */
type WebhookPayloadSchema<N extends string, D extends object> = ClosedObject<{ event: { const: N }; data: D }, 'event' | 'data'>;

const pascal = (name: string) =>
  name
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** `GET /_payemu/events/stream`: server-sent events. */
export const eventStream = {
  mediaType: 'text/event-stream',
  description:
    "Server-sent events of the key's Source and mode: `event: event` with an Event when one is raised; `event: attempt` with `{event_id, event, delivery_status, attempt}` when a delivery attempt ends. Comment lines keep the connection open.",
  schema: { type: 'string' },
};

/** `POST /_payemu/sessions/{id}/complete` of a checkout session. */
const checkoutCompleted = object({
  session: object({
    id: string,
    status: oneOfValues(['open', 'complete', 'expired']),
    payment_status: oneOfValues(['unpaid', 'paid', 'authorized', 'failed']),
  }),
  payment: paymentSummary,
});

const methodSession = object({ id: string, type: { const: 'payment-method-session' }, status: oneOfValues(['open', 'complete', 'expired']) });

/** ... and of a payment-method session: the card replaced, or the decline. */
const methodUpdated = object({
  session: methodSession,
  updated: { const: true },
  payment_method: object({ id: string, card_brand: cardBrand, card_last: string }),
  recurring: recurringAttributes,
});
const methodDeclined = object({ session: methodSession, updated: { const: false }, failure_code: failureCode, failure_message: string });

export const sessionCompleted = named('SessionCompleted', { oneOf: [checkoutCompleted, methodUpdated, methodDeclined] });
/** `POST /_payemu/sessions/{id}/complete`: a checkout's payment, or a card update's outcome. */
export type CompleteResult = FromSchema<typeof sessionCompleted>;

export const invoicePaid = named('InvoicePayResult', object({ invoice: invoiceAttributes, payment: paymentSummary }));
/** `POST /_payemu/invoices/{id}/pay`. */
export type InvoicePayResult = FromSchema<typeof invoicePaid>;

export const linkPaid = named('PaymentLinkPayResult', object({ session_id: string, payment: paymentSummary, payment_link: linkAttributes }));
/** `POST /_payemu/payment-links/{id}/pay`. */
export type LinkPayResult = FromSchema<typeof linkPaid>;

/** `GET /_payemu/openapi.json`: this document. */
export const openApiDocument = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { const: '3.1.0' },
    info: { type: 'object', additionalProperties: true },
    paths: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
};
