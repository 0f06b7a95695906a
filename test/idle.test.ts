// `idle()` on the library's emulator: resolves when no work is due or in flight, deliveries included.
import t from 'tap';
import { emulator, pay } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

t.test('after a paid checkout, idle() resolves once the webhook is delivered and stored', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { webhookUrl: r.url });
  await pay(e, { amount: 12, reference: 'idle-1' });
  await e.idle();
  t.equal(r.received.length, 1, 'the receiver got it');
  t.equal(JSON.parse(r.received[0]!.body).event, 'payment.completed');
  const [event] = e.events.list({ reference: 'idle-1' });
  t.equal(event!.delivery_status, 'delivered');
  t.equal(event!.attempts.length, 1);
});

t.test('with retries due at once, idle() waits for all of them', async (t) => {
  const r = await receiver(t, (_req, res) => {
    res.statusCode = 500;
    res.end();
  });
  const e = await emulator(t, { webhookUrl: r.url, webhookBackoff: '0,0,0' });
  await pay(e, { amount: 12, reference: 'idle-2' });
  await e.idle();
  t.equal(r.received.length, 4);
  t.equal(e.events.list({ reference: 'idle-2' })[0]!.delivery_status, 'failed');
});

t.test('a retry due later on a frozen clock does not hold idle(); an advance runs it, and idle() waits for the advance', async (t) => {
  let calls = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const r = await receiver(t, (_req, res) => {
    if (++calls === 1) {
      res.statusCode = 500;
      res.end();
      return;
    }
    void held.then(() => res.end('ok')); // the retry is answered when the test says
  });
  const e = await emulator(t, { webhookUrl: r.url, webhookBackoff: '1h,1h,1h', freezeClock: true, clockStart: '2030-01-01T00:00:00Z' });
  await pay(e, { amount: 12, reference: 'idle-3' });
  await e.idle();
  t.equal(r.received.length, 1, 'the first attempt went out');
  t.equal(e.events.list({ reference: 'idle-3' })[0]!.delivery_status, 'retrying', 'the retry is due in an hour: idle() did not wait for it');

  const retried = r.next();
  let advanced = false;
  const advance = e.clock.advance('2h').then((report) => {
    advanced = true;
    return report;
  });
  let idled = false;
  const idle = e.idle().then(() => (idled = true));
  await retried;
  t.notOk(idled, 'idle() waits while the advance waits for the retry');
  t.notOk(advanced);
  release();
  await idle;
  t.ok(advanced, 'the advance had ended when idle() resolved');
  t.same((await advance).ran, { 'webhook.retry': 1 });
  t.equal(e.events.list({ reference: 'idle-3' })[0]!.delivery_status, 'delivered');
});
