import type { ServerResponse } from 'node:http';
import { captureOf } from './body-capture.js';
import { HttpError, InternalError } from './errors.js';

/** What a route answers. */
export interface Reply {
  status: number;
  /** Serialized as JSON. */
  json?: unknown;
  /** A JSON body already serialized (an idempotent replay sends the saved bytes). */
  raw?: string;
  /** Sent as text/html. */
  html?: string;
  headers?: Record<string, string>;
  /** The route wrote the answer itself (a stream): there is nothing left to send. */
  streamed?: boolean;
}

export const JSON_TYPE = 'application/json';

export function send(res: ServerResponse, reply: Reply): void {
  if (reply.streamed) return;
  if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if (reply.html !== undefined) {
    res.writeHead(reply.status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(reply.html);
  } else if (reply.raw !== undefined || reply.json !== undefined) {
    const body = reply.raw ?? JSON.stringify(reply.json);
    // The request journal keeps the answer's body as written (http/request-journal.ts).
    const capture = captureOf(res);
    if (capture) capture.response = body;
    res.writeHead(reply.status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff' });
    res.end(body);
  } else {
    res.writeHead(reply.status);
    res.end();
  }
}

/** The one place an error becomes a response: the API's `{errors: [{status, title, detail, meta?}]}`. */
export function sendError(res: ServerResponse, error: unknown): void {
  const httpError = error instanceof HttpError ? error : new InternalError();
  if (res.headersSent) {
    res.destroy();
    return;
  }
  send(res, { status: httpError.status, json: httpError.toJSON(), headers: httpError.headers });
}
