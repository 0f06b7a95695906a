import t from 'tap';
import { createdKind } from './created.js';

// `payemu trigger` names what each step made: `payment 3` rather than a bare `3`.

t.test("a step's created id is named by its kind", async (t) => {
  t.equal(createdKind('3', '/_payemu/sessions/cs_x/complete'), 'payment', "a payment's id is a number");
  t.equal(createdKind('3', '/v1/payments/pay_x/capture'), 'payment');
  t.equal(createdKind('cs_94o0G2lAbdAPNe9p0uRCq2Vc', '/v1/sessions'), 'session');
  t.equal(createdKind('inv_TDAtofZeBtP5NLeUb1cHf1VJ', '/v1/invoices'), 'invoice');
  t.equal(createdKind('re_VRB6TiXGIj5sTUrIYWOKEQJH', '/v1/payments/pay_x/refunds'), 'refund');
  t.equal(createdKind('rp_X0QzL2Vv20hqSblz', '/v1/recurring-payments'), 'recurring payment');
  t.equal(createdKind('sub-1', '/v1/recurring-payments'), 'recurring payment', 'a chosen reference: by its path');
  t.equal(createdKind('sub-1', '/v1/recurring-payments/sub-1/pause'), 'recurring payment');
  t.equal(createdKind('what', '/v1/elsewhere'), 'id', 'an id of no known kind is still labelled');
});
