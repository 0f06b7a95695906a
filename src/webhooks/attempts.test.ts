import t from 'tap';
import { inProgress, interrupted, settle, startedAttempt, withStarted } from './attempts.js';
import { attemptState, type Attempt, type EventRecord } from './records.js';

const AT = Date.UTC(2026, 10, 21, 10, 0, 0);
const URL = 'http://127.0.0.1:9/hook';
const BACKOFF = [1_000, 5_000, 25_000];

function event(fields: Partial<EventRecord> = {}): EventRecord {
  return {
    id: 'e1',
    source: 'acme',
    mode: 'test',
    event: 'payment.completed',
    data: {},
    created_at: AT,
    delivery_status: 'pending',
    next_attempt_at: AT,
    ...fields,
  };
}

const ended = (status: number | null, error: string | null = status !== null && status >= 300 ? `HTTP ${status}` : null): Attempt => ({
  status,
  response_body: status === null ? null : 'body',
  error,
  duration_ms: 40,
  at: AT,
  url: URL,
});

t.test('a started attempt is logged in progress; the delivery state does not change until it ends', async (t) => {
  const started = startedAttempt(URL, AT);
  t.equal(attemptState(started), 'in_progress');
  const running = withStarted(event(), started);
  t.equal(running.attempts?.length, 1);
  t.equal(inProgress(running), started);
  t.match(running, { delivery_status: 'pending', next_attempt_at: AT });
  t.equal(running.cycle_attempts, undefined, 'a new event has no counter yet (0)');
  t.equal(inProgress(event({ attempts: [ended(500)] })), undefined, 'an ended attempt is not in progress');
});

t.test('an ended attempt replaces its in-progress entry', async (t) => {
  const running = withStarted(event(), startedAttempt(URL, AT));
  const done = settle(running, ended(200), BACKOFF, AT + 40);
  t.same(done.attempts, [ended(200)]);
  t.match(done, { delivery_status: 'delivered', cycle_attempts: 1, next_attempt_at: null });
  t.equal(attemptState(done.attempts![0]!), 'succeeded');

  const failed = settle(running, ended(500), BACKOFF, AT + 40);
  t.match(failed, { delivery_status: 'retrying', cycle_attempts: 1, next_attempt_at: AT + 40 + 1_000 }, 'the wait counts from the virtual end of the attempt');
  t.match(settle(running, ended(500), BACKOFF, AT), { next_attempt_at: AT + 1_000 }, 'a frozen clock did not move while it ran: due exactly the wait after it');
  t.equal(attemptState(failed.attempts![0]!), 'failed');

  t.equal(settle(event(), ended(200), BACKOFF, AT).attempts?.length, 1, 'nothing in progress: appended');
});

t.test('an interrupted attempt got no answer: it uses up no retry and is tried again at once', async (t) => {
  const cut = interrupted(startedAttempt(URL, AT));
  t.match(cut, { state: 'interrupted', error: 'interrupted', status: null, response_body: null });
  t.equal(attemptState(cut), 'interrupted');
  const first = settle(withStarted(event(), startedAttempt(URL, AT)), cut, BACKOFF, AT);
  t.match(first, { delivery_status: 'retrying', cycle_attempts: 0, next_attempt_at: AT });
  t.same(first.attempts, [cut]);

  const three = [ended(500), ended(500), ended(500)];
  const last = settle(withStarted(event({ attempts: three, cycle_attempts: 3, delivery_status: 'retrying' }), startedAttempt(URL, AT)), cut, BACKOFF, AT);
  t.match(last, { delivery_status: 'retrying', cycle_attempts: 3, next_attempt_at: AT }, 'the last attempt of a cycle too');
  t.same(last.attempts?.map(attemptState), ['failed', 'failed', 'failed', 'interrupted']);
});

t.test('a refusal by --strict-webhook-urls is not retried', async (t) => {
  const refused = settle(withStarted(event(), startedAttempt(URL, AT)), ended(null, 'blocked by --strict-webhook-urls: loopback'), BACKOFF, AT);
  t.match(refused, { delivery_status: 'failed', next_attempt_at: null });
});
