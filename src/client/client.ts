import { driftLog } from './drift-log.js';
import { ApiError, Unreachable } from './errors.js';
import { readEventStream } from './stream.js';
import type {
  AdvanceBy,
  AdvanceResult,
  Card,
  ClockView,
  CompleteResult,
  EventFilter,
  EventView,
  FaultInput,
  FaultView,
  InvoicePayResult,
  LinkPayResult,
  OutcomeScript,
  OutcomeScriptInput,
  Snapshot,
  SnapshotImport,
  RequestFilter,
  RequestList,
  ResetResult,
  StreamMessage,
  TriggerResult,
  WebhookChaosView,
} from './types.js';

export interface ClientOptions {
  /** Where payemu listens, e.g. `http://127.0.0.1:4242` (a trailing slash is dropped). */
  url: string;
  /** The API key sent as `Authorization: Bearer KEY`; none is sent without one. */
  key?: string | undefined;
  /** The transport; Node's fetch unless a test passes another. */
  fetch?: typeof fetch;
}

/** An answer of any status: the client reads it, the caller judges it. */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  /** The answer parsed as JSON, or its text when it is not JSON (an empty answer: ''). */
  body: T;
  text: string;
}

/**
 * The one HTTP client of payemu's `/v1` API and `/_payemu` control plane. `request` answers
 * whatever the status; every other method resolves with the answer's body when it is 2xx and
 * rejects with an `ApiError` otherwise. All of them reject with `Unreachable` when nothing
 * answers.
 */
export interface PayemuClient {
  readonly url: string;
  /**
   * One request. A string body is sent as it is (JSON already, or deliberately not JSON); any
   * other body as JSON, with `Content-Type: application/json` unless `headers` name one.
   * Redirects are answered, not followed.
   */
  // biome-ignore lint/suspicious/noExplicitAny: by default an answer is untyped JSON, as it arrives; callers that read it name its shape.
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  /** One request whose 2xx body is the result; any other status rejects with an `ApiError`. */
  // biome-ignore lint/suspicious/noExplicitAny: as request's: untyped JSON unless the caller names its shape.
  call<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  /** `GET /_payemu/health`: resolves once payemu serves requests (no key needed). */
  health(): Promise<{ status: string }>;
  clock(): Promise<ClockView>;
  /** Moves the virtual clock forward and runs everything that falls due on the way. */
  advanceClock(by: AdvanceBy): Promise<AdvanceResult>;
  /** Empties the key's Source and mode; `{all: true}` everything, and puts the clock back. */
  reset(options?: { all?: boolean }): Promise<ResetResult>;
  /** Scripts the outcomes of the next card payment attempts on a saved card, a schedule or a reference. */
  addOutcome(script: OutcomeScriptInput): Promise<OutcomeScript>;
  /** The scripted outcomes of the key's Source and mode. */
  outcomes(): Promise<OutcomeScript[]>;
  clearOutcomes(): Promise<{ removed: number }>;
  /** The key's Source and mode as a snapshot; `{all: true}` everything and the clock. */
  exportSnapshot(options?: { all?: boolean }): Promise<Snapshot>;
  /**
   * Replaces the key's Source and mode with a snapshot (a document, or its JSON text as read
   * from a file); `{all: true}` (for an `all` snapshot) replaces everything and the clock.
   */
  importSnapshot(snapshot: Snapshot | string, options?: { all?: boolean }): Promise<SnapshotImport>;
  /** Makes `event` happen through real API calls; `source` runs it as another Source of the merchant. */
  trigger(event: string, data?: Record<string, unknown>, options?: { source?: string }): Promise<TriggerResult>;
  /** The event log of the key's Source and mode, newest first. */
  events(filter?: EventFilter): Promise<EventView[]>;
  event(id: string): Promise<EventView>;
  /** A new delivery of the event, with the same id. */
  resendEvent(id: string): Promise<EventView>;
  /**
   * Opens `GET /_payemu/events/stream`: resolves once payemu accepted it (rejects as the other
   * methods do when it did not), with the messages as they come; they end when payemu closes
   * the stream or `signal` aborts it.
   */
  streamEvents(options?: { signal?: AbortSignal }): Promise<AsyncIterable<StreamMessage>>;
  /** The key's Source and mode's webhook chaos (`{}` when off); `setWebhookChaos` replaces it. */
  webhookChaos(): Promise<WebhookChaosView>;
  setWebhookChaos(settings: WebhookChaosView): Promise<WebhookChaosView>;
  clearWebhookChaos(): Promise<WebhookChaosView>;
  /** The request journal of the key's Source and mode: its `/v1` requests, newest first. */
  requests(filter?: RequestFilter): Promise<RequestList>;
  /** Empties the request journal of the key's Source and mode. */
  clearRequests(): Promise<{ removed: number }>;
  /** Pays a checkout session, or saves the card of a card-update session, as the hosted page would. */
  completeSession(id: string, card: Card): Promise<CompleteResult>;
  payInvoice(id: string, card: Card): Promise<InvoicePayResult>;
  payLink(id: string | number, card: Card): Promise<LinkPayResult>;
  /** Adds a fault on the key's Source and mode's /v1 requests. */
  addFault(fault: FaultInput): Promise<FaultView>;
  /** The faults of the key's Source and mode, oldest first. */
  faults(): Promise<FaultView[]>;
  /** Removes one fault; resolves with it as it was. */
  removeFault(id: string): Promise<FaultView>;
  /** Removes every fault of the key's Source and mode; resolves with how many. */
  clearFaults(): Promise<{ removed: number }>;
}

/**
 * A client of the payemu at `url`, acting with `key`.
 *
 * @example
 * const payemu = createClient({ url: 'http://127.0.0.1:4242', key: 'sk_test_payemu_acme' });
 * await payemu.advanceClock({ by: '30d' });
 * try {
 *   await payemu.resendEvent('nope');
 * } catch (error) {
 *   if (error instanceof ApiError) console.log(error.status, error.detail); // 404 No event with id "nope".
 * }
 */
export function createClient(options: ClientOptions): PayemuClient {
  const url = options.url.replace(/\/+$/, '');
  const key = options.key;
  const transport = options.fetch ?? fetch;
  const drift = driftLog();
  const auth = (): Record<string, string> => (key !== undefined ? { Authorization: `Bearer ${key}` } : {});

  const send = async (path: string, init: RequestInit): Promise<Response> => {
    let res: Response;
    try {
      res = await transport(`${url}${path}`, init);
    } catch (error) {
      // An abort is the caller's own doing, not an absent payemu.
      if ((error as Error).name === 'AbortError') throw error;
      throw new Unreachable(url, error);
    }
    await drift?.(init.method ?? 'GET', path, res);
    return res;
  };

  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
    const init: RequestInit = { method, headers: { ...auth(), ...headers }, redirect: 'manual' };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const res = await send(path, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: parse(text) as T, text };
  };

  const call = async <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> => {
    const answer = await request<T>(method, path, body, headers);
    if (answer.status < 200 || answer.status > 299) throw new ApiError(answer.status, answer.body, answer.text);
    return answer.body;
  };

  const id = (value: string | number) => encodeURIComponent(String(value));

  return {
    url,
    request,
    call,
    health: () => call('GET', '/_payemu/health'),
    clock: () => call('GET', '/_payemu/clock'),
    advanceClock: (by) => call('POST', '/_payemu/clock/advance', by),
    reset: (options = {}) => call('POST', '/_payemu/reset', options.all ? { all: true } : {}),
    addOutcome: (script) => call('POST', '/_payemu/outcomes', script),
    outcomes: async () => (await call<{ outcomes: OutcomeScript[] }>('GET', '/_payemu/outcomes')).outcomes,
    clearOutcomes: () => call('DELETE', '/_payemu/outcomes'),
    exportSnapshot: (options = {}) => call('GET', `/_payemu/snapshot${options.all ? '?all=true' : ''}`),
    importSnapshot: (snapshot, options = {}) => call('POST', `/_payemu/snapshot${options.all ? '?all=true' : ''}`, snapshot),
    trigger: (event, data, options = {}) =>
      call('POST', '/_payemu/trigger', { event, ...(data !== undefined ? { data } : {}), ...(options.source !== undefined ? { source: options.source } : {}) }),
    async events(filter = {}) {
      const answer = await call<{ events: EventView[] }>('GET', `/_payemu/events${queryOf(filter)}`);
      return answer.events;
    },
    requests: (filter = {}) => call('GET', `/_payemu/requests${queryOf(filter)}`),
    clearRequests: () => call('DELETE', '/_payemu/requests'),
    event: (eventId) => call('GET', `/_payemu/events/${id(eventId)}`),
    resendEvent: (eventId) => call('POST', `/_payemu/events/${id(eventId)}/resend`, {}),
    async streamEvents(options = {}) {
      const res = await send('/_payemu/events/stream', { headers: auth(), signal: options.signal });
      if (!res.ok) {
        const text = await res.text();
        throw new ApiError(res.status, parse(text), text);
      }
      return res.body ? readEventStream(res.body) : empty();
    },
    webhookChaos: () => call('GET', '/_payemu/webhook-chaos'),
    setWebhookChaos: (settings) => call('PUT', '/_payemu/webhook-chaos', settings),
    clearWebhookChaos: () => call('DELETE', '/_payemu/webhook-chaos'),
    completeSession: (sessionId, card) => call('POST', `/_payemu/sessions/${id(sessionId)}/complete`, card),
    payInvoice: (invoiceId, card) => call('POST', `/_payemu/invoices/${id(invoiceId)}/pay`, card),
    payLink: (linkId, card) => call('POST', `/_payemu/payment-links/${id(linkId)}/pay`, card),
    addFault: (fault) => call('POST', '/_payemu/faults', fault),
    async faults() {
      return (await call<{ faults: FaultView[] }>('GET', '/_payemu/faults')).faults;
    },
    removeFault: (faultId) => call('DELETE', `/_payemu/faults/${id(faultId)}`),
    clearFaults: () => call('DELETE', '/_payemu/faults'),
  };
}

/** `?name=value&...` of the filter's given values, or ''. */
function queryOf(filter: object): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined && value !== '') query.set(name, String(value));
  return query.size ? `?${query}` : '';
}

/** JSON when it is JSON; the text otherwise (an HTML page, a proxy's message, nothing). */
function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function* empty(): AsyncGenerator<StreamMessage> {}
