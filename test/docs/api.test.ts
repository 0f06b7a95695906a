import t from 'tap';
import { codeBlocks } from '../helpers/doc-blocks.js';
import { page, parseSample, shape } from '../helpers/doc-run.js';
import { emulator, pay } from '../helpers/emulator.js';

/**
 * docs/api.md's answer samples against real answers of one payemu (each checked against the
 * OpenAPI document by the test client too): the same keys and value types, made by the request
 * the page describes with the values the sample shows (a session of 25 USD for order-1, a capture
 * of 20.00, a refund of 5.00 "damaged", a tax calculation of 100). Ids, times and the port vary;
 * the URLs must have the sample's form on the emulator's own address.
 */
const blocks = codeBlocks(page('api.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['json', 'json', 'json', 'json', 'json', 'json'],
  );
});

/** A sample's text with the page's `[...]` and `"..."` placeholders made JSON. */
function sample(index: number): unknown {
  return parseSample(blocks[index]!.text.replaceAll('[...]', '[]'));
}

/** The sample's URLs of 127.0.0.1:4242, on `url`, with the ids of `ids` (sample id to real id). */
function urlsOn(value: string, url: string, ids: Record<string, string>): string {
  let out = value.replaceAll('http://127.0.0.1:4242', url);
  for (const [from, to] of Object.entries(ids)) out = out.replaceAll(from, to);
  return out;
}

t.test('the answers, in the shapes of the samples', async (t) => {
  const e = await emulator(t);

  await t.test('a list', async (t) => {
    const real = await e.api.get('/v1/payments');
    const { data: _, ...rest } = real.body as Record<string, unknown>;
    const { data: __, ...restSample } = sample(0) as Record<string, unknown>;
    t.same(shape(restSample), shape({ ...rest, links: { ...(rest.links as object), prev: null, next: '' } }));
    t.ok(Array.isArray(real.body.data));
  });

  await t.test('POST /v1/sessions', async (t) => {
    const created = await e.api.post('/v1/sessions', { amount: 25, currency: 'USD', reference: 'order-1' });
    t.equal(created.status, 201);
    const doc = sample(1) as { data: { id: string } };
    t.same(shape(created.body), shape(doc));
    const id = created.body.data.id as string;
    t.same(JSON.parse(urlsOn(JSON.stringify(doc.data), e.url, { [doc.data.id]: id })).links, created.body.data.links, 'the links, on this address');
    t.match(created.body.data.attributes, { amount: 25, currency: 'USD', reference: 'order-1', checkout_url: `${e.url}/checkout/${id}` });
  });

  await t.test('capture of 20.00', async (t) => {
    await pay(e, { amount: 25, reference: 'order-7', capture_method: 'manual' });
    const captured = await e.api.post('/v1/payments/order-7/capture', { amount: 20.0 });
    t.equal(captured.status, 200);
    const doc = sample(2) as { data: { links: { self: string } } };
    t.same(shape(captured.body), shape(doc));
    t.equal(captured.body.data.links.self, doc.data.links.self.replace('...', e.url));
    t.match(captured.body, {
      data: { type: 'payments', attributes: { reference: 'order-7', amount: '20.00', status: 'PAID' } },
      meta: { message: 'Payment captured successfully.' },
    });
  });

  await t.test('refund of 5.00', async (t) => {
    await pay(e, { amount: 25, reference: 'order-1b' });
    const refund = await e.api.post('/v1/payments/order-1b/refunds', { amount: 5, reason: 'damaged' });
    t.equal(refund.status, 201);
    t.same(shape(refund.body), shape(sample(3)));
    t.match(refund.body, {
      data: { type: 'refunds', attributes: { amount: '5.00', reason: 'damaged', status: 'completed' } },
      meta: { payment: { status: 'PARTIALLY_REFUNDED', amount: '25.00', total_refunded: '5.00', refundable_amount: '20.00' } },
    });
  });

  await t.test('a payment-method session', async (t) => {
    const charged = await e.trigger('recurring.charged');
    const schedule = (e.events.get(charged.event_id!)!.payload.data as { reference: string }).reference;
    const session = await e.api.post(`/v1/recurring-payments/${schedule}/payment-method-session`, {});
    t.equal(session.status, 201);
    const doc = sample(4) as { data: { id: string } };
    t.same(shape(session.body), shape(doc));
    const id = session.body.data.id as string;
    t.equal(session.body.data.attributes.checkout_url, `${e.url}/card-update/${id}`);
    t.equal(session.body.data.links.checkout, `${e.url}/card-update/${id}`);
    t.match(id, /^cs_/);
  });

  await t.test('a tax calculation of 100', async (t) => {
    const calc = await e.api.post('/v1/tax/calculate', { amount: 100 });
    t.equal(calc.status, 200);
    t.same(shape(calc.body), shape(sample(5)));
    t.same(calc.body.data.attributes, (sample(5) as { data: { attributes: unknown } }).data.attributes, 'the same numbers: acme, 7.25 % exclusive');
    t.match(calc.body.data.id, /^tc_[A-Za-z0-9]{24}$/);
  });
});
