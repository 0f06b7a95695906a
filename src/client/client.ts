import { type CallInput, type ClientMethods, pathOf } from '../control/operation.js';
import { OPERATIONS, type Operations } from '../control/operations.js';
import { driftLog } from './drift-log.js';
import { ApiError, Unreachable } from './errors.js';
import { httpTransport, type Transport, type TransportAnswer, type TransportInit } from './http-transport.js';
import { readEventStream } from './stream.js';
import type { StreamMessage } from './types.js';

export interface ClientOptions {
  /** Where payemu listens, e.g. `http://127.0.0.1:4242` (a trailing slash is dropped). */
  url: string;
  /** The API key sent as `Authorization: Bearer KEY`; none is sent without one. */
  key?: string | undefined;
  /** The transport: one request over `node:http` (src/client/http-transport.ts) unless a test passes another, such as Node's fetch. */
  fetch?: typeof fetch;
}

/** An answer of any status: the client reads it, the caller judges it. */
export interface Answer<T = unknown> {
  status: number;
  headers: TransportAnswer['headers'];
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
/**
 * The one HTTP client of payemu's `/v1` API and `/_payemu` control plane. `request` answers
 * whatever the status; every other method resolves with the answer's body when it is 2xx and
 * rejects with an `ApiError` otherwise. All of them reject with `Unreachable` when nothing
 * answers. Besides `request`, `call`, `streamEvents` and `exportSnapshotText`, its methods are the control operations'
 * (src/control/operations/, each entry's `client`): `clock()`, `advanceClock(by)`, `addFault(fault)`, ...
 */
export type PayemuClient = ClientCore & ClientMethods<Operations>;

interface ClientCore {
  readonly url: string;
  /**
   * One request. A string or bytes (a `Uint8Array`) are sent as they are (JSON already, or
   * deliberately not JSON); any other body as JSON, with `Content-Type: application/json` unless
   * `headers` name one.
   * Redirects are answered, not followed.
   */
  // biome-ignore lint/suspicious/noExplicitAny: by default an answer is untyped JSON, as it arrives; callers that read it name its shape.
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  /** One request whose 2xx body is the result; any other status rejects with an `ApiError`. */
  // biome-ignore lint/suspicious/noExplicitAny: as request's: untyped JSON unless the caller names its shape.
  call<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  /**
   * Opens `GET /_payemu/events/stream`: resolves once payemu accepted it (rejects as the other
   * methods do when it did not), with the messages as they come; they end when payemu closes
   * the stream or `signal` aborts it.
   */
  streamEvents(options?: { signal?: AbortSignal }): Promise<AsyncIterable<StreamMessage>>;
  /**
   * `GET /_payemu/snapshot` (`all`: of everything) as its JSON text arrives, in chunks of bytes,
   * to write to a file without holding the document (100,000 payments are 33 MB); rejects as the
   * other methods do when payemu refuses. `exportSnapshot()` answers the document parsed.
   */
  exportSnapshotText(options?: { all?: boolean }): Promise<AsyncIterable<Uint8Array>>;
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
  const transport: Transport = options.fetch ?? httpTransport;
  const drift = driftLog();
  const auth = (): Record<string, string> => (key !== undefined ? { Authorization: `Bearer ${key}` } : {});

  const send = async (path: string, init: TransportInit): Promise<TransportAnswer> => {
    let res: TransportAnswer;
    try {
      res = await transport(`${url}${path}`, init);
    } catch (error) {
      // An abort is the caller's own doing, not an absent payemu.
      if ((error as Error).name === 'AbortError') throw error;
      throw new Unreachable(url, error);
    }
    return drift ? drift(init.method ?? 'GET', path, res) : res;
  };

  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
    const sent: Record<string, string> = { ...auth(), ...headers };
    const init: TransportInit = { method, headers: sent, redirect: 'manual' };
    if (body !== undefined) {
      // A string or bytes are sent as they are (JSON text read from a file); anything else as JSON.
      init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
      sent['Content-Type'] ??= 'application/json';
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

  const core: ClientCore = {
    url,
    request,
    call,
    async streamEvents(options = {}) {
      const res = await send('/_payemu/events/stream', { headers: auth(), signal: options.signal });
      if (!res.ok) {
        const text = await res.text();
        throw new ApiError(res.status, parse(text), text);
      }
      return res.body ? readEventStream(res.body) : empty();
    },
    async exportSnapshotText(options = {}) {
      const res = await send(`/_payemu/snapshot${options.all ? '?all=true' : ''}`, { headers: auth() });
      if (!res.ok) {
        const text = await res.text();
        throw new ApiError(res.status, parse(text), text);
      }
      return res.body ?? noBytes();
    },
  };
  // Each control operation's method: its arguments as the entry maps them, sent as `call` sends.
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const op of OPERATIONS) {
    const mapping = op.client as { name: string; args?: (...args: unknown[]) => CallInput; result?: (result: unknown) => unknown } | undefined;
    if (!mapping) continue;
    methods[mapping.name] = async (...args) => {
      const input = mapping.args?.(...args) ?? {};
      const result = await call(op.method, `${pathOf(op.path, input.params)}${queryOf(input.query ?? {})}`, input.body);
      return mapping.result ? mapping.result(result) : result;
    };
  }
  // The methods are typed by their entries (ClientMethods): the loop above makes each one.
  return Object.assign(core, methods) as unknown as PayemuClient;
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

async function* noBytes(): AsyncGenerator<Uint8Array> {}
