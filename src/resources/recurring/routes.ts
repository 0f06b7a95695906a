import type { Scope } from '../../http/auth.js';
import type { ApiContext } from '../../http/route.js';
import type { Transaction } from '../../store/store.js';
import { fieldsOf } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { actionRoute, readRoute } from '../../http/resource-routes.js';
import { errors } from '../../schemas/wire.js';
import { recurringList } from './list.js';
import { presentMutation, presentRecurring } from './present.js';
import { Recurring, type RecurringRecord } from './records.js';
import { createRecurringBody, updateRecurringBody, type CreateRecurringBody, type UpdateRecurringBody } from './schemas.js';
import { cancelRecurring, createRecurring, getRecurring, pauseRecurring, resumeRecurring, updateRecurring } from './service.js';
import {
  recurringCancelledDocument,
  recurringDocument,
  recurringListDocument,
  recurringPausedDocument,
  recurringReadDocument,
  recurringResumedDocument,
  recurringUpdatedDocument,
} from './wire.js';

const noBody = { type: 'object' } as const;

/** The `run` of an action on one schedule (cancel, pause, resume): answered with some of its attributes and a message. */
const onSchedule =
  (change: (tx: Transaction, scope: Scope, reference: string, now: number) => RecurringRecord, fields: string[], message: string) =>
  (tx: Transaction, { app, scope, params, now }: ApiContext) =>
    presentMutation(change(tx, scope, params.reference!, now), app.baseUrl(), fields, message);

export const recurringRoutes = [
  actionRoute<CreateRecurringBody>('POST', '/v1/recurring-payments', 'Create a recurring payment schedule on a saved card', {
    body: createRecurringBody,
    responses: { 201: recurringDocument, 409: errors, 422: errors },
    run: (tx, { app, scope, body, now }) => ({ data: presentRecurring(createRecurring(tx, scope, body, now), app.baseUrl()) }),
  }),
  listRoute('/v1/recurring-payments', 'List recurring payment schedules', {
    responses: { 200: recurringListDocument, 400: errors, 422: errors },
    collection: Recurring,
    spec: recurringList,
    present: presentRecurring,
  }),
  readRoute('/v1/recurring-payments/:reference', 'Retrieve a recurring payment schedule', {
    shape: recurringList,
    document: recurringReadDocument,
    read: ({ app, scope, params }, q) => ({
      data: presentRecurring(getRecurring(app.store, scope, params.reference!), app.baseUrl(), fieldsOf(q, 'recurring-payments')),
    }),
  }),
  actionRoute<UpdateRecurringBody>('PATCH', '/v1/recurring-payments/:reference', 'Update a recurring payment schedule', {
    body: updateRecurringBody,
    responses: { 200: recurringUpdatedDocument, 404: errors, 422: errors },
    run: (tx, { app, scope, params, body, now }) =>
      presentMutation(
        updateRecurring(tx, scope, params.reference!, body, now),
        app.baseUrl(),
        ['reference', 'amount', 'frequency', 'status', 'next_billing_date'],
        'Recurring payment updated.',
      ),
  }),
  actionRoute('DELETE', '/v1/recurring-payments/:reference', 'Cancel a recurring payment schedule', {
    responses: { 200: recurringCancelledDocument, 404: errors, 422: errors },
    run: onSchedule(cancelRecurring, ['reference', 'status', 'cancelled_at'], 'Recurring payment cancelled.'),
  }),
  actionRoute('POST', '/v1/recurring-payments/:reference/pause', 'Pause a recurring payment schedule', {
    body: noBody,
    responses: { 200: recurringPausedDocument, 404: errors, 422: errors },
    run: onSchedule(pauseRecurring, ['reference', 'status'], 'Recurring payment paused.'),
  }),
  actionRoute('POST', '/v1/recurring-payments/:reference/resume', 'Resume a paused recurring payment schedule', {
    body: noBody,
    responses: { 200: recurringResumedDocument, 404: errors, 422: errors },
    run: onSchedule(resumeRecurring, ['reference', 'status', 'next_billing_date'], 'Recurring payment resumed.'),
  }),
];
