import type { Test } from 'tap';
import { createClient, type Answer as ClientAnswer } from '../../src/client/client.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/index.js';
import { whenBodyDone } from './body-done.js';
import { checkAgainstOpenApi } from './openapi.js';

export type Answer<T = any> = ClientAnswer<T>;

export interface Client {
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<Answer<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
}

/**
 * A real HTTP client for `url` authenticated with `key` (none when `key` is undefined): payemu's
 * own client. Every answer is checked against the OpenAPI document (helpers/openapi.ts): one whose
 * status or body the document does not describe throws, failing the test that received it.
 */
export function client(url: string, key: string | undefined): Client {
  const payemu = createClient({ url, key: key || undefined });
  const request = async <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const answer = await payemu.request<T>(method, path, body, headers);
    checkAgainstOpenApi(method, path, answer.status, answer.headers.get('content-type'), answer.text, (name) => answer.headers.get(name));
    return answer;
  };
  return {
    request,
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, body, headers) => request('POST', path, body ?? {}, headers),
  };
}

export type TestEmulator = Emulator & { api: Client; live: Client; globex: Client; anon: Client };

/**
 * A real payemu on a free port, in memory unless `options` say otherwise; closed when the test's
 * body is done (`whenBodyDone`), before tap removes the test's directory. Closing twice is
 * closing once.
 */
export async function emulator(t: Test, options: EmulatorOptions = {}): Promise<TestEmulator> {
  const e = await startEmulator({ port: 0, inMemory: true, ...options });
  whenBodyDone(t, () => e.close());
  t.teardown(() => e.close());
  return Object.assign(e, {
    api: client(e.url, 'sk_test_payemu_acme'),
    live: client(e.url, 'sk_live_payemu_acme'),
    globex: client(e.url, 'sk_test_payemu_globex'),
    anon: client(e.url, undefined),
  });
}

/** Creates a session and pays it through the control plane; returns both answers. */
export async function pay(e: TestEmulator, body: Record<string, unknown>, card = '4242424242424242', as: Client = e.api) {
  const session = await as.post('/v1/sessions', body);
  if (session.status !== 201) throw new Error(`session not created: ${session.text}`);
  const completed = await as.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: card });
  return { session, completed };
}

/** Asserts SPEC.md's error envelope with `status`. */
export function assertError(t: Test, answer: Answer, status: number, detail?: RegExp): void {
  t.equal(answer.status, status, `status ${status}: ${answer.text.slice(0, 300)}`);
  t.match(answer.headers.get('content-type') ?? '', /application\/json/);
  const error = answer.body?.errors?.[0];
  t.ok(error, 'has errors[0]');
  t.equal(error?.status, String(status), 'errors[0].status is the status as a string');
  t.type(error?.title, 'string');
  t.type(error?.detail, 'string');
  if (detail) t.match(error?.detail, detail);
}

/** A card saved by a paid session; returns its pm_ id. */
export async function savedCard(e: TestEmulator, card = '4242424242424242', as: Client = e.api): Promise<string> {
  const { completed } = await pay(e, { amount: 1, save_payment_method: true, customer_email: 'ada@example.com' }, card, as);
  return completed.body.payment.payment_method;
}

/**
 * `count` daily schedules starting 2027-01-02 on one card saved through `api` (the control plane's
 * complete): schedule i has the reference and customer `${prefix}${i}` (`@example.com`), so that
 * its charges can be counted by `filter[customer_email]`.
 */
export async function dailySchedules(t: Test, api: Client, count: number, prefix: string): Promise<void> {
  const session = await api.post('/v1/sessions', { amount: 1, save_payment_method: true });
  const card = (await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method;
  for (let i = 0; i < count; i++) {
    const res = await api.post('/v1/recurring-payments', {
      payment_method: card,
      amount: 1,
      frequency: 'daily',
      start_date: '2027-01-02',
      customer_email: `${prefix}${i}@example.com`,
      reference: `${prefix}${i}`,
    });
    t.equal(res.status, 201);
  }
}
