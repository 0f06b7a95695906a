import http from 'node:http';
import type net from 'node:net';
import { Duplex } from 'node:stream';
import { noteOf } from './request-note.js';

/** A request made in process (a trigger fixture's step). */
export interface InjectedRequest {
  method: string;
  /** The target: path and query. */
  path: string;
  /** JSON text, sent as `application/json`. */
  body?: string;
  /** `Authorization` and the like; `Host` is the server's own. */
  headers?: Record<string, string>;
}

/** Its answer: the status, and the body parsed as JSON (its text when it is not JSON, '' when none). */
export interface InjectedAnswer {
  status: number;
  body: unknown;
  /** Under a fault with `apply`: the status of the real answer the fault replaced (a 2xx: the work is done). */
  carried?: number;
  /** The answer's `Retry-After` (a 429's, set as a reply's own header), for a caller that answers the status on. */
  retryAfter?: string;
}

/** A request whose connection a fault closed unanswered (`drop`); `carried` as in InjectedAnswer. */
export class Unanswered extends Error {
  constructor(
    request: InjectedRequest,
    readonly carried: number | undefined,
  ) {
    super(`${request.method} ${request.path}: the connection was closed unanswered`);
  }
}

export type Inject = (request: InjectedRequest) => Promise<InjectedAnswer>;

/**
 * Requests answered by `server` in process: each is handed to the server's own `request`
 * listener, so it takes the whole pipeline a request from a socket takes (Host check, auth and
 * the key's scope, rate limit, faults, validation, idempotency, the request journal and the
 * request log), without a socket or a port: a trigger's steps are the merchant's own calls, and
 * are shown as such, without payemu calling itself over HTTP. `host` is the `Host` the server
 * answers to (its address); the caller is 127.0.0.1, as a local client is.
 */
export function injector(server: http.Server, host: () => string): Inject {
  return (request) =>
    new Promise((resolve, reject) => {
      const socket = new NullSocket();
      const req = new http.IncomingMessage(socket as unknown as net.Socket);
      req.method = request.method;
      req.url = request.path;
      req.httpVersion = '1.1';
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      req.headers = {
        host: host(),
        ...lowerCased(request.headers ?? {}),
        ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
      };
      if (body) req.push(body);
      req.push(null);
      // Whole as it is: a request read to its end is not an aborted one (which would close the socket).
      req.complete = true;
      const res = new http.ServerResponse(req);
      res.assignSocket(socket as unknown as net.Socket);
      const chunks: Buffer[] = [];
      const keep = (chunk: unknown) => {
        if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
        else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      };
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk);
        return write(chunk, ...rest);
      }) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== 'function') keep(chunk);
        return end(chunk, ...rest);
      }) as typeof res.end;
      res.once('finish', () => {
        res.detachSocket(socket as unknown as net.Socket);
        socket.destroy();
        const text = Buffer.concat(chunks).toString('utf8');
        const carried = noteOf(req).carried;
        const retryAfter = res.getHeader('retry-after');
        resolve({
          status: res.statusCode,
          body: parse(text),
          ...(carried === undefined ? {} : { carried }),
          ...(retryAfter === undefined ? {} : { retryAfter: String(retryAfter) }),
        });
      });
      // A fault that drops the connection closes it unanswered.
      socket.once('close', () => {
        if (!res.writableFinished) reject(new Unanswered(request, noteOf(req).carried));
      });
      server.emit('request', req, res);
    });
}

/** The socket of an in-process request: from 127.0.0.1, it reads nothing more and drops what is written (the answer is read from the response). */
class NullSocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  override _read(): void {}
  override _write(_chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    callback();
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
