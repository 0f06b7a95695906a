import t from 'tap';
import { emulator, savedCard } from './helpers/emulator.js';

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  body: new URLSearchParams(fields).toString(),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  redirect: 'manual' as const,
});
const card = (number: string) => ({ card_number: number, expiry: '12/40', cvc: '123' });

t.test('the card-update page saves a card and returns with ?payment_method=updated', async (t) => {
  const e = await emulator(t);
  const pm = await savedCard(e);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'page', start_date: '2099-01-01' });
  const session = await e.api.post('/v1/recurring-payments/page/payment-method-session', {
    success_url: 'https://shop.example/done',
    cancel_url: 'https://shop.example/back?x=1',
  });
  const url = session.body.data.attributes.checkout_url;
  const page = await fetch(url);
  t.equal(page.status, 200);
  t.match(await page.text(), /Update your card[\s\S]*9\.00 USD every month/);

  const declined = await fetch(url, form(card('4000000000000002')));
  t.equal(declined.status, 303);
  t.equal(declined.headers.get('location'), 'https://shop.example/back?x=1&payment_method=failed');

  const challenge = await fetch(url, form(card('4000002760003184')));
  t.match(await challenge.text(), /3-D Secure[\s\S]*Complete authentication/);
  const passed = await fetch(`${url}/3ds`, form({ ...card('4000002760003184'), three_ds: 'pass' }));
  t.equal(passed.status, 303);
  t.equal(passed.headers.get('location'), 'https://shop.example/done?payment_method=updated');
  const schedule = (await e.api.get('/v1/recurring-payments/page')).body.data.attributes;
  t.not(schedule.payment_method, pm, 'the new card is on file');
  t.equal((await fetch(url)).status, 200, 'a completed session shows that the card was updated');
});

t.test('the manage page shows the schedule and cancels it', async (t) => {
  const e = await emulator(t);
  const pm = await savedCard(e);
  const created = await e.api.post('/v1/recurring-payments', {
    payment_method: pm,
    amount: 19,
    frequency: 'weekly',
    interval_count: 2,
    reference: 'mine',
    start_date: '2099-01-01',
  });
  const url = created.body.data.attributes.manage_url;
  const page = await (await fetch(url)).text();
  t.match(page, /19\.00 USD/);
  t.match(page, /every 2 weeks/);
  t.match(page, /data-testid="status">active/);
  const cancelled = await fetch(`${url}/cancel`, form({}));
  t.equal(cancelled.status, 303, 'Post/Redirect/Get');
  t.equal(cancelled.headers.get('location'), new URL(url).pathname);
  t.match(await (await fetch(url)).text(), /cancelled: nothing more will be charged/);
  t.equal((await e.api.get('/v1/recurring-payments/mine')).body.data.attributes.status, 'cancelled');
  t.notMatch(await (await fetch(url)).text(), /Cancel subscription/);
  t.equal((await fetch(`${e.url}/manage/nope`)).status, 404);
});
