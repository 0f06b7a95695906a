import t from 'tap';
import { codeBlocks } from '../helpers/doc-blocks.js';
import { page, parseSample, shape } from '../helpers/doc-run.js';
import { emulator, savedCard } from '../helpers/emulator.js';

/**
 * docs/control-plane.md's samples against one payemu (the library; the test client checks each
 * answer against the OpenAPI document too): each answer sample has the shape (keys and value
 * types) of the real answer to the request the page describes, made with the sample's values;
 * the outcomes body is sent and accepted. Ids, times and ports vary. Where a sample elides with
 * `...` (`[...]`, `"cs_..."`, a `"...": "..."` key), what it shows is in the real answer.
 */
const blocks = codeBlocks(page('control-plane.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['json', 'json', 'json', 'json', 'json', 'json', 'json', 'json'],
  );
});

/** A sample's text with the page's `[...]` and a trailing `, ...` made JSON. */
function sample(index: number): Record<string, any> {
  return parseSample(blocks[index]!.text.replaceAll('[...]', '[]').replace(/, \.\.\.\}/g, '}')) as Record<string, any>;
}

t.test('the answers, in the shapes of the samples', async (t) => {
  const e = await emulator(t, { freezeClock: true });

  await t.test('POST /_payemu/sessions/{id}/complete: a checkout', async (t) => {
    const created = await e.api.post('/v1/sessions', {
      amount: 25,
      currency: 'USD',
      reference: 'order-1',
      customer_email: 'ada@example.com',
      save_payment_method: true,
    });
    const done = await e.api.post(`/_payemu/sessions/${created.body.data.id}/complete`, { card_number: '4242 4242 4242 4242' });
    t.equal(done.status, 200);
    t.same(shape(done.body), shape(sample(1)));
    t.equal(done.body.payment.url, `${e.url}/v1/payments/order-1`);
  });

  let schedule = '';
  await t.test('POST /_payemu/sessions/{id}/complete: a payment-method session', async (t) => {
    const pm = await savedCard(e);
    const made = await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'sub-1' });
    t.equal(made.status, 201);
    schedule = made.body.data.id as string;
    const session = await e.api.post(`/v1/recurring-payments/${schedule}/payment-method-session`, {});
    const done = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
    t.equal(done.status, 200);
    const doc = sample(2);
    t.equal(doc.recurring['...'], "the schedule's attributes");
    delete doc.recurring['...'];
    t.same(Object.keys(doc), Object.keys(done.body));
    t.same(shape(doc.session), shape(done.body.session));
    t.same(shape(doc.payment_method), shape(done.body.payment_method));
    t.has(shape(done.body.recurring), shape(doc.recurring));
    t.match(done.body, { updated: true, session: { status: 'complete' }, recurring: { reference: 'sub-1', status: 'active', retry_count: 0 } });
  });

  await t.test('POST /_payemu/clock/advance: a card-update session expired, a schedule charged', async (t) => {
    await e.api.post(`/v1/recurring-payments/${schedule}/payment-method-session`, {});
    const advanced = await e.api.post('/_payemu/clock/advance', { by: '31d' });
    t.equal(advanced.status, 200);
    const doc = sample(0);
    t.same(Object.keys(advanced.body), Object.keys(doc));
    t.same(shape({ ...advanced.body, ran: {} }), shape({ ...doc, ran: {}, frozen: true }), 'frozen is a boolean (this clock is frozen)');
    for (const kind of Object.keys(doc.ran)) t.ok(advanced.body.ran[kind] >= 1, `ran ${kind}`);
    for (const item of advanced.body.items) t.same(shape(item), shape(doc.items[0]));
  });

  await t.test('POST /_payemu/trigger: payment.voided', async (t) => {
    const done = await e.api.post('/_payemu/trigger', { event: 'payment.voided' });
    t.equal(done.status, 200);
    t.same(shape(done.body), shape(sample(3)));
    t.same(
      done.body.steps.map((s: { id: string }) => s.id),
      sample(3).steps.map((s: { id: string }) => s.id),
    );
  });

  await t.test('POST /_payemu/faults: the answer is the fault, every field filled', async (t) => {
    const added = await e.api.post('/_payemu/faults', { method: 'POST', path: '/v1/payments/*/refunds', status: 503, latency_ms: 2000, times: 2, seed: 7 });
    t.equal(added.status, 201);
    const { id, ...fields } = sample(4);
    t.same({ ...added.body, id: undefined }, { ...fields, id: undefined });
    t.match(added.body.id, /^flt_/);
    t.match(id, /^flt_/);
    await e.api.request('DELETE', '/_payemu/faults');
  });

  await t.test('POST /_payemu/outcomes: the body is accepted', async (t) => {
    const added = await e.api.post('/_payemu/outcomes', sample(5));
    t.equal(added.status, 201);
    t.match(added.body, { id: /^out_/, schedule: 'sub-1', sequence: sample(5).sequence, remaining: 4 });
  });

  await t.test('GET /_payemu/snapshot', async (t) => {
    const got = await e.api.get('/_payemu/snapshot');
    t.equal(got.status, 200);
    const doc = sample(6);
    t.same(shape({ ...got.body, data: {} }), shape({ ...doc, data: {} }));
    for (const name of Object.keys(doc.data)) t.ok(Array.isArray(got.body.data[name]), `data.${name}`);
  });

  await t.test('GET /_payemu/requests: a refused refund', async (t) => {
    await e.api.request('DELETE', '/_payemu/requests');
    await e.api.post('/v1/payments/order-1/refunds', { amount: 120 }, { 'Idempotency-Key': 'refund-order-1' });
    const got = await e.api.get('/_payemu/requests');
    t.same(shape(got.body), shape(sample(7)));
    t.match(got.body.requests[0], {
      method: 'POST',
      path: '/v1/payments/order-1/refunds',
      status: 422,
      idempotency_key: 'refund-order-1',
      request_body: { amount: 120 },
    });
    t.same(got.body.requests[0].response_body, sample(7).requests[0].response_body, 'the error it got, as the page shows it');
  });
});
