import { document, listDocument, messageMeta, named, pick, resource, sparse } from '../../schemas/wire.js';
import { recurringAttributes } from '../../schemas/recurring.js';

/** JSON Schemas of the recurring-payment answers of `/v1` (a schedule's attributes are shared with the control plane: src/schemas/recurring.ts). */
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
