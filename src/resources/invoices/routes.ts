import { fieldsOf, parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { v1 } from '../../http/route.js';
import { invoiceList } from './list.js';
import { presentInvoice } from './present.js';
import { Invoices } from './records.js';
import { createInvoiceBody, updateInvoiceBody, type CreateInvoiceBody, type UpdateInvoiceBody } from './schemas.js';
import { createInvoice, getInvoice, sendInvoice, updateInvoice } from './service.js';
import { documentParameters, errors } from '../../http/wire.js';
import { invoiceDocument, invoiceListDocument, invoiceMessageDocument, invoiceReadDocument } from './responses.js';

export const invoiceRoutes = [
  listRoute({
    path: '/v1/invoices',
    summary: 'List invoices',
    responses: { 200: invoiceListDocument, 400: errors, 422: errors },
    collection: Invoices,
    spec: invoiceList,
    present: presentInvoice,
  }),
  v1<CreateInvoiceBody>({
    method: 'POST',
    path: '/v1/invoices',
    summary: 'Create a draft invoice',
    body: createInvoiceBody,
    responses: { 201: invoiceDocument, 422: errors },
    handle: ({ app, scope, body, now }) => {
      const invoice = app.store.transaction((tx) => createInvoice(tx, scope, body, now));
      return { status: 201, json: { data: presentInvoice(invoice, app.baseUrl()) } };
    },
  }),
  v1({
    method: 'GET',
    path: '/v1/invoices/:id',
    summary: 'Retrieve an invoice',
    parameters: documentParameters(invoiceList),
    responses: { 200: invoiceReadDocument, 400: errors, 404: errors, 422: errors },
    handle: ({ app, scope, params, query }) => {
      const fields = fieldsOf(parseDocumentQuery(query, invoiceList), 'invoices');
      return { status: 200, json: { data: presentInvoice(getInvoice(app.store, scope, params.id!), app.baseUrl(), fields) } };
    },
  }),
  v1<UpdateInvoiceBody>({
    method: 'PATCH',
    path: '/v1/invoices/:id',
    summary: 'Update a draft invoice',
    body: updateInvoiceBody,
    responses: { 200: invoiceMessageDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, body, now }) => {
      const invoice = app.store.transaction((tx) => updateInvoice(tx, scope, params.id!, body, now));
      return { status: 200, json: { data: presentInvoice(invoice, app.baseUrl()), meta: { message: 'Invoice updated.' } } };
    },
  }),
  v1({
    method: 'POST',
    path: '/v1/invoices/:id/send',
    summary: 'Send a draft invoice (an invoice of 0.00 is paid at once)',
    responses: { 200: invoiceMessageDocument, 404: errors, 422: errors },
    body: { type: 'object' },
    handle: ({ app, scope, params, now }) => {
      const invoice = app.store.transaction((tx) => sendInvoice(tx, scope, params.id!, now));
      const message = invoice.status === 'paid' ? 'Invoice sent; its total is 0.00, so it is paid.' : 'Invoice sent.';
      return { status: 200, json: { data: presentInvoice(invoice, app.baseUrl()), meta: { message } } };
    },
  }),
];
