import type { Test } from 'tap';
import { emulator, pay, savedCard } from './emulator.js';
import { receiver } from './receiver.js';

/** Where the rich state's clock starts (frozen). */
export const RICH_START = '2027-01-31T09:00:00Z';

const invoiceBody = (due_date: string) => ({
  customer_name: 'Ada',
  customer_email: 'ada@example.com',
  currency: 'USD',
  due_date,
  items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
});

/**
 * State with every kind of record: an open session, payments paid, authorized and refunded, a
 * saved card, a charge, a schedule mid-cycle, invoices sent and overdue, a payment link, an
 * idempotency key, an outcome script, an advanced clock, and a delivery waiting for its retry.
 */
export async function richState(t: Test) {
  let failing = false;
  const r = await receiver(t, (_req, res) => {
    res.statusCode = failing ? 500 : 200;
    res.end('ok');
  });
  const e = await emulator(t, { clockStart: RICH_START, freezeClock: true, webhookUrl: r.url });
  const open = await e.api.post('/v1/sessions', { amount: 1, reference: 'open-1' });
  await pay(e, { amount: 10, reference: 'paid-1' });
  await pay(e, { amount: 11, reference: 'held-1', capture_method: 'manual' });
  await pay(e, { amount: 12, reference: 'refunded-1' });
  await e.api.post('/v1/payments/refunded-1/refunds', { amount: 2 });
  const pm = await savedCard(e);
  const charge = await e.api.post('/v1/charges', { payment_method: pm, amount: 5, reference: 'charge-1' });
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference: 'sub-1' });
  const overdue = await e.api.post('/v1/invoices', invoiceBody('2027-02-05'));
  await e.api.post(`/v1/invoices/${overdue.body.data.id}/send`, {});
  const sent = await e.api.post('/v1/invoices', invoiceBody('2027-06-30'));
  await e.api.post(`/v1/invoices/${sent.body.data.id}/send`, {});
  await e.api.post('/v1/payment-links', { title: 'Tee', amount: 20 });
  await e.api.post('/_payemu/outcomes', { reference: 'later', sequence: ['card_declined'] });
  const globex = await e.globex.post('/v1/sessions', { amount: 3, reference: 'globex-1' });
  await e.clock.advance('10d'); // the invoice is overdue; the schedule charged once, next on Feb 28
  await e.idle();
  failing = true;
  await pay(e, { amount: 13, reference: 'retry-me' });
  await e.idle(); // its first attempt failed; the retry waits for the (frozen) clock
  failing = false;
  // An idempotency key still kept (they expire after a day): its replay answers the same.
  await e.api.post('/v1/payments/paid-1/refunds', { amount: 1 }, { 'Idempotency-Key': 'refund-once' });
  await e.idle();
  return {
    e,
    r,
    ids: { globex: globex.body.data.id, session: open.body.data.id, charge: charge.body.data.id, overdue: overdue.body.data.id, sent: sent.body.data.id },
  };
}
