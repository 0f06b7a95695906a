import http from 'node:http';
import { NOT_HTTP } from './errors.js';

/** What the client hands its transport: the part of `RequestInit` it uses. */
export interface TransportInit {
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
  redirect?: 'manual' | undefined;
}

/**
 * What the client reads of an answer: fetch's `Response` has all of it. `text()` and `body`
 * read the same bytes: one of them, once (as a `Response`'s).
 */
export interface TransportAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  /** The body as it arrives; null for an answer that has none (204, 304, a HEAD). */
  readonly body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

export type Transport = (url: string, init: TransportInit) => Promise<TransportAnswer>;

// Statuses whose answers have no body.
const NO_BODY = new Set([204, 205, 304]);

/**
 * The client's default transport: one request over `node:http`, answered as fetch answers (its
 * status, headers and body, streamed). Why not Node's fetch: its HTTP client (undici) compiles
 * its parser and connection code on its first request, about 90 ms of CPU, where `node:http` is
 * part of Node's start-up: a `payemu` command makes one or two requests, and that was a third
 * of its CPU. Nor a `Response` made from node:http's answer: the first use of `Response` or
 * `Headers` loads undici's modules (about 40 ms of CPU, a fifth of a `payemu clock`). Redirects
 * are answered, not followed (what the client asks fetch for); an abort rejects with an
 * `AbortError`, before the answer or while its body streams. `https:` URLs go through
 * `node:https`, loaded only then.
 */
export const httpTransport: Transport = async (url, init) => {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? await import('node:https') : http;
  const { signal } = init;
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    let answer: http.IncomingMessage | undefined;
    const req = client.request(target, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      answer = res;
      const status = res.statusCode ?? 0;
      // What no payemu sends, and fetch would not answer with: node:http reads any three digits
      // as a status (999, say).
      if (status < 200 || status > 599) {
        res.destroy();
        return reject(Object.assign(new Error(`what answers there sent status ${status}, which HTTP does not have`), { code: NOT_HTTP }));
      }
      // The other end gone mid-answer (payemu stopped with kill -9, say) is node:http's bare
      // "aborted": say what happened, for the command that prints it.
      res.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNRESET') error.message = `the connection to ${target.origin} closed before the answer ended`;
      });
      const bodiless = NO_BODY.has(status) || init.method === 'HEAD';
      if (bodiless) res.resume();
      resolve({
        status,
        ok: status >= 200 && status <= 299,
        // A repeated header's values joined with ", ", as `Headers.get` gives them.
        headers: { get: (name) => res.headersDistinct[name.toLowerCase()]?.join(', ') ?? null },
        body: bodiless ? null : res,
        text: async () => (bodiless ? '' : textOf(await bytesOf(res))),
      });
    });
    // An abort ends the request, or the answer's body, with an AbortError as fetch's does (not
    // the socket's ECONNRESET that node:http's own `signal` option leaves the body with).
    const abort = () => {
      const error = new DOMException('This operation was aborted', 'AbortError');
      answer?.destroy(error);
      req.destroy(error);
    };
    signal?.addEventListener('abort', abort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', abort));
    req.on('error', reject);
    req.end(init.body);
  });
};

/** Every byte of a body, read to its end. */
export async function bytesOf(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** As `Response.text()` reads a body: UTF-8, a byte order mark dropped, a bad sequence replaced. */
export const textOf = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
