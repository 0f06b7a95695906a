import t from 'tap';
import { emulator } from './helpers/emulator.js';

/**
 * A hosted page's card post that the attempt itself refuses (the pages' shared `submitCard`):
 * an invoice already paid, or still a draft, answers a page with the refusal's status, the
 * page's heading and the reason, and nothing is charged. Plain form posts, as a browser without
 * JavaScript sends them.
 */

async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}

t.test('an invoice paid meanwhile, or a draft: the refusal page with its reason, no second payment', async (t) => {
  const e = await emulator(t);
  const now = new Date(e.clock.now());
  const expiry = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
  const card = { card_number: '4242 4242 4242 4242', expiry, cvc: '123', name: '' };
  const create = () =>
    e.api.post('/v1/invoices', {
      customer_name: 'Ada',
      customer_email: 'ada@example.com',
      currency: 'USD',
      due_date: '2099-01-01',
      items: [{ description: 'Mug', quantity: 1, unit_price: 12 }],
    });

  const sent = (await create()).body.data;
  await e.api.post(`/v1/invoices/${sent.id}/send`, {});
  const first = await postForm(`${e.url}/invoices/${sent.id}/pay`, card);
  t.equal(first.status, 303, 'paid: back to the invoice page');
  // The same form posted again (a second tab, a back button): the invoice is paid by then.
  const again = await postForm(`${e.url}/invoices/${sent.id}/pay`, card);
  t.equal(again.status, 409);
  t.match(again.html, /<h1>Payment not possible<\/h1>/);
  t.match(again.html, new RegExp(`The invoice ${sent.attributes.number} is already paid\\.`));
  const payments = (await e.api.get('/v1/payments')).body.data.filter((p: { attributes: { reference: string } }) => p.attributes.reference === sent.id);
  t.equal(payments.length, 1, 'one payment, not two');

  const draft = (await create()).body.data;
  const refused = await postForm(`${e.url}/invoices/${draft.id}/pay`, card);
  t.equal(refused.status, 422);
  t.match(refused.html, /is a draft: only sent or overdue invoices can be paid\./);
  t.equal((await e.api.get(`/v1/invoices/${draft.id}`)).body.data.attributes.status, 'draft', 'still a draft');
});
