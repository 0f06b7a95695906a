import type { Client } from './emulator.js';

/** Creates a 4.00 USD invoice due `due` through `as` and sends it; answers its `inv_` id. */
export async function sentInvoice(as: Client, due = '2027-02-20'): Promise<string> {
  const invoice = await as.post('/v1/invoices', {
    customer_name: 'A',
    customer_email: 'a@example.com',
    currency: 'USD',
    due_date: due,
    items: [{ description: 'x', quantity: 1, unit_price: 4 }],
  });
  if (invoice.status !== 201) throw new Error(`invoice not created: ${invoice.text}`);
  const sent = await as.post(`/v1/invoices/${invoice.body.data.id}/send`);
  if (sent.status !== 200) throw new Error(`invoice not sent: ${sent.text}`);
  return invoice.body.data.id;
}
