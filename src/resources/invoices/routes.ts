import { fieldsOf } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { actionRoute, readRoute } from '../../http/resource-routes.js';
import { errors } from '../../schemas/wire.js';
import { invoiceList } from './list.js';
import { presentInvoice } from './present.js';
import { Invoices } from './records.js';
import { createInvoiceBody, updateInvoiceBody, type CreateInvoiceBody, type UpdateInvoiceBody } from './schemas.js';
import { createInvoice, getInvoice, sendInvoice, updateInvoice } from './service.js';
import { invoiceDocument, invoiceListDocument, invoiceMessageDocument, invoiceReadDocument } from './wire.js';

export const invoiceRoutes = [
  listRoute('/v1/invoices', 'List invoices', {
    responses: { 200: invoiceListDocument, 400: errors, 422: errors },
    collection: Invoices,
    spec: invoiceList,
    present: presentInvoice,
  }),
  actionRoute<CreateInvoiceBody>('POST', '/v1/invoices', 'Create a draft invoice', {
    body: createInvoiceBody,
    responses: { 201: invoiceDocument, 422: errors },
    run: (tx, { app, scope, body, now }) => ({ data: presentInvoice(createInvoice(tx, scope, body, now), app.baseUrl()) }),
  }),
  readRoute('/v1/invoices/:id', 'Retrieve an invoice', {
    shape: invoiceList,
    document: invoiceReadDocument,
    read: ({ app, scope, params }, q) => ({ data: presentInvoice(getInvoice(app.store, scope, params.id!), app.baseUrl(), fieldsOf(q, 'invoices')) }),
  }),
  actionRoute<UpdateInvoiceBody>('PATCH', '/v1/invoices/:id', 'Update a draft invoice', {
    body: updateInvoiceBody,
    responses: { 200: invoiceMessageDocument, 404: errors, 422: errors },
    run: (tx, { app, scope, params, body, now }) => ({
      data: presentInvoice(updateInvoice(tx, scope, params.id!, body, now), app.baseUrl()),
      meta: { message: 'Invoice updated.' },
    }),
  }),
  actionRoute('POST', '/v1/invoices/:id/send', 'Send a draft invoice (an invoice of 0.00 is paid at once)', {
    body: { type: 'object' },
    responses: { 200: invoiceMessageDocument, 404: errors, 422: errors },
    run: (tx, { app, scope, params, now }) => {
      const invoice = sendInvoice(tx, scope, params.id!, now);
      const message = invoice.status === 'paid' ? 'Invoice sent; its total is 0.00, so it is paid.' : 'Invoice sent.';
      return { data: presentInvoice(invoice, app.baseUrl()), meta: { message } };
    },
  }),
];
