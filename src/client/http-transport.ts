import http from 'node:http';
import { Readable } from 'node:stream';
import { NOT_HTTP } from './errors.js';

/** What the client hands its transport: the part of `RequestInit` it uses. */
export interface TransportInit {
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
  redirect?: 'manual' | undefined;
}

export type Transport = (url: string, init: TransportInit) => Promise<Response>;

// Statuses whose answers have no body: `new Response()` refuses one for them.
const NO_BODY = new Set([204, 205, 304]);

/**
 * The client's default transport: one request over `node:http`, answered as fetch answers (a
 * `Response`, its body streamed). Why not Node's fetch: its HTTP client (undici) compiles its
 * parser and connection code on its first request, about 90 ms of CPU, where `node:http` is
 * part of Node's start-up: a `payemu` command makes one or two requests, and that was a third
 * of its CPU. Redirects are answered, not followed (what the client asks fetch for); an abort
 * rejects with an `AbortError`, before the answer or while its body streams. `https:` URLs go
 * through `node:https`, loaded only then.
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
      // What no payemu sends, and a `Response` cannot hold: node:http reads any three digits as a
      // status (999, say). Thrown in node:http's callback, it would end the process.
      const notHttp = (what: string) => {
        res.destroy();
        reject(Object.assign(new Error(`what answers there sent ${what}`), { code: NOT_HTTP }));
      };
      if (status < 200 || status > 599) return notHttp(`status ${status}, which HTTP does not have`);
      const bodiless = NO_BODY.has(status) || init.method === 'HEAD';
      // The other end gone mid-answer (payemu stopped with kill -9, say) is node:http's bare
      // "aborted": say what happened, for the command that prints it.
      res.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNRESET') error.message = `the connection to ${target.origin} closed before the answer ended`;
      });
      let response: Response;
      try {
        const headers = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const body = bodiless ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        response = new Response(body, { status, statusText: res.statusMessage ?? '', headers });
      } catch (error) {
        return notHttp(`an answer that is not HTTP as fetch reads it (${(error as Error).message})`);
      }
      if (bodiless) res.resume();
      resolve(response);
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
