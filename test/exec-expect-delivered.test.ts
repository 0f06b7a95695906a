import t, { type Test } from 'tap';
import { runPayemu } from './helpers/cli.js';
import { receiver } from './helpers/receiver.js';

// Each test runs payemu exec (and a command) to completion; a loaded CI machine takes seconds for each.
t.setTimeout(240_000);

/** A command for exec: a payment through the API, so that payment.completed is raised and sent. */
const paying = (exitCode = 0, namespaces = ['']) => `
  const api = (suffix, path, body) => fetch(process.env.PAYEMU_URL + path, { method: 'POST', headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY + suffix, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  for (const suffix of ${JSON.stringify(namespaces)}) {
    const session = await api(suffix, '/v1/sessions', { amount: 12, reference: 'exec-1' });
    await api(suffix, '/_payemu/sessions/' + session.data.id + '/complete', { card_number: '4242424242424242' });
  }
  process.exit(${exitCode});`;

/** exec with `flags`, its command paying once in each namespace of `namespaces` (key suffixes; '' the default). */
const exec = (t: Test, flags: string[], exitCode = 0, namespaces?: string[]) =>
  runPayemu(t, ['exec', ...flags, '--', process.execPath, '--input-type=module', '-e', paying(exitCode, namespaces)], { cwd: t.testdir() });

t.test('exec --expect-delivered: 0 once every event is delivered', async (t) => {
  const hook = await receiver(t);
  const res = await exec(t, ['--webhook-url', hook.url, '--webhook-backoff', '0,0,0', '--expect-delivered']);
  t.equal(res.code, 0, res.stderr);
  t.ok(hook.received.length >= 1, 'the receiver got the event');
  t.notMatch(res.stderr, /not delivered/);

  // A receiver that fails the first attempt: exec waits for the retry, which succeeds.
  let answered = 0;
  const flaky = await receiver(t, (_req, res) => {
    res.statusCode = answered++ === 0 ? 503 : 200;
    res.end();
  });
  const retried = await exec(t, ['--webhook-url', flaky.url, '--webhook-backoff', '0,0,0', '--expect-delivered']);
  t.equal(retried.code, 0, retried.stderr);
  t.equal(flaky.received.length, 2, 'delivered on the retry');
});

t.test('exec --expect-delivered: exit 3 listing the events a failing receiver never acknowledged', async (t) => {
  const hook = await receiver(t, (_req, res) => {
    res.statusCode = 500;
    res.end('down');
  });
  const res = await exec(t, ['--webhook-url', hook.url, '--webhook-backoff', '0,0,0', '--expect-delivered', '--settle', '30s']);
  t.equal(res.code, 3, res.stderr);
  t.match(
    res.stderr,
    /payemu: 1 webhook event was not delivered \(--expect-delivered\):\n {2}failed +payment\.completed {2}acme test {2}[0-9a-f-]{36} {2}last attempt: 500/,
  );
  t.equal(hook.received.length, 4, 'the first attempt and three retries were made before judging');
});

t.test('exec --expect-delivered without a webhook URL: exit 3, and the message says to set --webhook-url', async (t) => {
  const res = await exec(t, ['--expect-delivered']);
  t.equal(res.code, 3, res.stderr);
  t.match(res.stderr, /no_endpoint +payment\.completed {2}acme test .*no webhook URL/);
  t.match(res.stderr, /set --webhook-url/);
});

t.test("exec --expect-delivered: a failing command's own exit code wins", async (t) => {
  const res = await exec(t, ['--expect-delivered'], 5);
  t.equal(res.code, 5);
  t.notMatch(res.stderr, /not delivered/, 'nothing judged: the command failed first');
  const bad = await runPayemu(t, ['exec', '--expect-delivered', '--settle', 'soon', '--', process.execPath, '-e', '0'], { cwd: t.testdir() });
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--settle/);
});

t.test('exec --expect-delivered looks at every namespace: the events of a worker in its own are judged too', async (t) => {
  const hook = await receiver(t, (_req, res) => {
    res.statusCode = 500;
    res.end();
  });
  const res = await exec(t, ['--webhook-url', hook.url, '--webhook-backoff', '0,0,0', '--expect-delivered'], 0, ['~w1', '']);
  t.equal(res.code, 3, res.stderr);
  t.match(res.stderr, /payemu: 2 webhook events were not delivered \(--expect-delivered\):\n/);
  t.match(res.stderr, /\n {2}failed +payment\.completed {2}acme test namespace w1 {2}[0-9a-f-]{36} {2}last attempt: 500\n/, "w1's, named");
  t.match(res.stderr, /\n {2}failed +payment\.completed {2}acme test {2}[0-9a-f-]{36} {2}last attempt: 500\n/, "the default's, as before");
});
