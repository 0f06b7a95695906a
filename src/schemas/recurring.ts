import type { FromSchema } from 'json-schema-to-ts';
import {
  boolean,
  currency,
  date,
  document,
  integer,
  listDocument,
  messageMeta,
  metadata,
  money,
  named,
  nullable,
  object,
  oneOfValues,
  pick,
  resource,
  sparse,
  string,
  timestamp,
  uri,
} from './wire.js';

/** JSON Schemas of the recurring-payment answers (see wire.ts); the `recurring.*` webhook payloads are in src/resources/recurring/webhooks.ts. */
export const recurringStatus = named('RecurringStatus', oneOfValues(['active', 'paused', 'suspended', 'cancelled', 'completed']));
export const frequency = named('Frequency', oneOfValues(['daily', 'weekly', 'monthly', 'yearly']));

export const recurringAttributes = named(
  'RecurringPaymentAttributes',
  object({
    reference: string,
    amount: money,
    currency,
    frequency,
    interval_count: integer,
    status: recurringStatus,
    next_billing_date: nullable(date),
    retry_count: integer,
    manage_url: uri,
    payment_method: string,
    start_date: date,
    end_date: nullable(date),
    customer_email: nullable(string),
    customer_name: nullable(string),
    metadata,
    apply_tax: boolean,
    cancelled_at: nullable(timestamp),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

const schedule = <const A extends object>(attributes: A) => resource({ type: 'recurring-payments', attributes });

/** `POST /v1/recurring-payments`: the whole schedule. */
export const recurringDocument = named('RecurringPaymentDocument', document(schedule(recurringAttributes)));

/** A schedule in a read: `fields[recurring-payments]` may leave attributes out. */
export const recurringResource = named('RecurringPayment', schedule(sparse(recurringAttributes)));
export const recurringReadDocument = named('RecurringPaymentReadDocument', document(recurringResource));
export const recurringListDocument = named('RecurringPaymentListDocument', listDocument(recurringResource));

/** The mutation answers: a few attributes and `meta.message`. */
const mutation = <const K extends keyof typeof recurringAttributes.properties>(name: string, keys: readonly K[]) =>
  named(name, document(schedule(pick(recurringAttributes, keys)), { meta: messageMeta }));
export const recurringUpdatedDocument = mutation('RecurringPaymentUpdated', ['reference', 'amount', 'frequency', 'status', 'next_billing_date']);
export const recurringCancelledDocument = mutation('RecurringPaymentCancelled', ['reference', 'status', 'cancelled_at']);
export const recurringPausedDocument = mutation('RecurringPaymentPaused', ['reference', 'status']);
export const recurringResumedDocument = mutation('RecurringPaymentResumed', ['reference', 'status', 'next_billing_date']);

export type RecurringAttributes = FromSchema<typeof recurringAttributes>;
