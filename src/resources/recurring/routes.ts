import { fieldsOf, parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { v1 } from '../../http/route.js';
import { recurringList } from './list.js';
import { presentMutation, presentRecurring } from './present.js';
import { Recurring } from './records.js';
import { createRecurringBody, updateRecurringBody, type CreateRecurringBody, type UpdateRecurringBody } from './schemas.js';
import { cancelRecurring, createRecurring, getRecurring, pauseRecurring, resumeRecurring, updateRecurring } from './service.js';
import { documentParameters, errors } from '../../http/wire.js';
import {
  recurringCancelledDocument,
  recurringDocument,
  recurringListDocument,
  recurringPausedDocument,
  recurringReadDocument,
  recurringResumedDocument,
  recurringUpdatedDocument,
} from './responses.js';

const noBody = { type: 'object' } as const;

export const recurringRoutes = [
  v1<CreateRecurringBody>({
    method: 'POST',
    path: '/v1/recurring-payments',
    summary: 'Create a recurring payment schedule on a saved card',
    body: createRecurringBody,
    responses: { 201: recurringDocument, 409: errors, 422: errors },
    handle: ({ app, scope, body, now }) => {
      const schedule = app.store.transaction((tx) => createRecurring(tx, scope, body, now));
      return { status: 201, json: { data: presentRecurring(schedule, app.baseUrl()) } };
    },
  }),
  listRoute({
    path: '/v1/recurring-payments',
    summary: 'List recurring payment schedules',
    responses: { 200: recurringListDocument, 400: errors, 422: errors },
    collection: Recurring,
    spec: recurringList,
    present: presentRecurring,
  }),
  v1({
    method: 'GET',
    path: '/v1/recurring-payments/:reference',
    summary: 'Retrieve a recurring payment schedule',
    parameters: documentParameters(recurringList),
    responses: { 200: recurringReadDocument, 400: errors, 404: errors, 422: errors },
    handle: ({ app, scope, params, query }) => {
      const fields = fieldsOf(parseDocumentQuery(query, recurringList), 'recurring-payments');
      return { status: 200, json: { data: presentRecurring(getRecurring(app.store, scope, params.reference!), app.baseUrl(), fields) } };
    },
  }),
  v1<UpdateRecurringBody>({
    method: 'PATCH',
    path: '/v1/recurring-payments/:reference',
    summary: 'Update a recurring payment schedule',
    body: updateRecurringBody,
    responses: { 200: recurringUpdatedDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, body, now }) => {
      const schedule = app.store.transaction((tx) => updateRecurring(tx, scope, params.reference!, body, now));
      return {
        status: 200,
        json: presentMutation(schedule, app.baseUrl(), ['reference', 'amount', 'frequency', 'status', 'next_billing_date'], 'Recurring payment updated.'),
      };
    },
  }),
  v1({
    method: 'DELETE',
    path: '/v1/recurring-payments/:reference',
    summary: 'Cancel a recurring payment schedule',
    responses: { 200: recurringCancelledDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, now }) => {
      const schedule = app.store.transaction((tx) => cancelRecurring(tx, scope, params.reference!, now));
      return { status: 200, json: presentMutation(schedule, app.baseUrl(), ['reference', 'status', 'cancelled_at'], 'Recurring payment cancelled.') };
    },
  }),
  v1({
    method: 'POST',
    path: '/v1/recurring-payments/:reference/pause',
    summary: 'Pause a recurring payment schedule',
    responses: { 200: recurringPausedDocument, 404: errors, 422: errors },
    body: noBody,
    handle: ({ app, scope, params, now }) => {
      const schedule = app.store.transaction((tx) => pauseRecurring(tx, scope, params.reference!, now));
      return { status: 200, json: presentMutation(schedule, app.baseUrl(), ['reference', 'status'], 'Recurring payment paused.') };
    },
  }),
  v1({
    method: 'POST',
    path: '/v1/recurring-payments/:reference/resume',
    summary: 'Resume a paused recurring payment schedule',
    responses: { 200: recurringResumedDocument, 404: errors, 422: errors },
    body: noBody,
    handle: ({ app, scope, params, now }) => {
      const schedule = app.store.transaction((tx) => resumeRecurring(tx, scope, params.reference!, now));
      return { status: 200, json: presentMutation(schedule, app.baseUrl(), ['reference', 'status', 'next_billing_date'], 'Recurring payment resumed.') };
    },
  }),
];
