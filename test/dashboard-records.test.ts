// The dashboard's record pages (a payment, an invoice, a schedule, an event) show a record of the
// Source and mode the address names, and answer a 404 inside the dashboard's frame for any other:
// one of another mode or Source is not shown, as the API would not show it. Plain HTTP: the
// pages' looks are dashboard-look's.
import t from 'tap';
import { emulator, pay } from './helpers/emulator.js';
import { sentInvoice } from './helpers/invoice.js';

const D = '/_payemu/dashboard';

t.test("a record page shows the scope's record, and a 404 in the dashboard's frame for one of another mode or Source, or none", async (t) => {
  const e = await emulator(t, { clockStart: '2027-02-01T10:00:00Z', freezeClock: true });
  const { completed } = await pay(e, { amount: 12, reference: 'order-1' });
  const payment = completed.body.payment as { id: string | number; reference: string };
  const invoice = await sentInvoice(e.api, '2027-02-10');
  const events = (await e.api.get('/_payemu/events')).body.events as { id: string; event: string }[];
  const event = events.find((ev) => ev.event === 'payment.completed')!;
  const page = async (path: string) => {
    const answer = await fetch(`${e.url}${D}${path}`);
    return { status: answer.status, html: await answer.text() };
  };

  for (const [what, path, shows] of [
    ['payment', `/payments/${payment.id}`, 'order-1'],
    ['invoice', `/invoices/${invoice}`, 'Invoice INV-000001'],
    ['event', `/events/${event.id}`, 'payment.completed'],
  ] as const) {
    const found = await page(path);
    t.equal(found.status, 200, `${what}: shown`);
    t.match(found.html, shows, `${what}: its page`);
    for (const [other, query] of [
      ['live mode', '?mode=live'],
      ['another Source', '?source=globex'],
    ] as const) {
      const missing = await page(`${path}${query}`);
      t.equal(missing.status, 404, `${what} in ${other}: a 404`);
      const noun = `${what[0]!.toUpperCase()}${what.slice(1)}`;
      t.match(missing.html, `<h1>${noun} not found</h1>`, `${what} in ${other}: says so`);
      t.match(missing.html, '<nav', `${what} in ${other}: inside the dashboard's frame, its menu kept`);
    }
    const none = await page(path.replace(/[^/]+$/, 'nope'));
    t.equal(none.status, 404, `${what}: an id that is nothing is a 404`);
  }
  const schedule = await page('/schedules/nope');
  t.equal(schedule.status, 404);
  t.match(schedule.html, '<h1>Schedule not found</h1><p>No schedule nope in this Source and mode.</p>');
});
