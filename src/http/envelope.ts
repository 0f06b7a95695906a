import type { ServerResponse } from 'node:http';
import { endAnswer } from './answer-writes.js';
import { captureOf } from './body-capture.js';
import { HttpError, InternalError, ServiceUnavailable } from './errors.js';
import { WriteRefused } from '../store/write-refused.js';

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

const ANSWER_HEADERS = Symbol('payemu.answerHeaders');

type WithAnswerHeaders = ServerResponse & { [ANSWER_HEADERS]?: readonly string[] };

/**
 * Headers (`[name, value, name, value, ...]`) that every answer to this request carries, whatever
 * answers it (the route, an error, a fault): the rate limit's. Written with the answer's own
 * headers in one go, which costs less than `setHeader` one by one.
 */
export function setAnswerHeaders(res: ServerResponse, headers: readonly string[]): void {
  (res as WithAnswerHeaders)[ANSWER_HEADERS] = headers;
}

export function send(res: ServerResponse, reply: Reply): void {
  if (reply.streamed) return;
  const extra = (res as WithAnswerHeaders)[ANSWER_HEADERS];
  const own = reply.headers && hasAny(reply.headers) ? reply.headers : undefined;
  if (reply.html !== undefined) {
    setHeaders(res, extra, own);
    res.writeHead(reply.status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    endAnswer(res, reply.html);
  } else if (reply.raw !== undefined || reply.json !== undefined) {
    const body = reply.raw ?? JSON.stringify(reply.json);
    // The request journal keeps the answer's body as written (http/request-journal.ts).
    const capture = captureOf(res);
    if (capture) capture.response = body;
    const length = String(Buffer.byteLength(body));
    if (own) {
      setHeaders(res, extra, own);
      res.writeHead(reply.status, { 'Content-Type': JSON_TYPE, 'Content-Length': length, 'X-Content-Type-Options': 'nosniff' });
    } else {
      // The common answer: its headers in one array, which writeHead writes as they are
      // (no setHeader bookkeeping, no object of headers to build and walk).
      const head = ['Content-Type', JSON_TYPE, 'Content-Length', length, 'X-Content-Type-Options', 'nosniff'];
      res.writeHead(reply.status, extra ? [...extra, ...head] : head);
    }
    endAnswer(res, body);
  } else {
    setHeaders(res, extra, own);
    res.writeHead(reply.status);
    endAnswer(res);
  }
}

/** The answer headers, then the route's own (which win where both name a header). */
function setHeaders(res: ServerResponse, extra: readonly string[] | undefined, own: Record<string, string> | undefined): void {
  if (extra) for (let i = 0; i < extra.length; i += 2) res.setHeader(extra[i]!, extra[i + 1]!);
  if (own) for (const [name, value] of Object.entries(own)) res.setHeader(name, value);
}

function hasAny(headers: Record<string, string>): boolean {
  for (const _ in headers) return true;
  return false;
}

/** The one place an error becomes a response: the API's `{errors: [{status, title, detail, meta?}]}`. */
export function sendError(res: ServerResponse, error: unknown): void {
  const httpError = error instanceof HttpError ? error : error instanceof WriteRefused ? new ServiceUnavailable(error.message) : new InternalError();
  if (res.headersSent) {
    res.destroy();
    return;
  }
  send(res, { status: httpError.status, json: httpError.toJSON(), headers: httpError.headers });
}
