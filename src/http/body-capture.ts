import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The bodies of one request the request journal records, as the pipeline already holds them:
 * the bytes `readJson` read (and the text it decoded) and the string `send` wrote. Set only for
 * recorded requests, so every other request pays one WeakMap look-up and nothing more.
 */
export interface BodyCapture {
  /** The request body as read (`readJson`); undefined when none was read. */
  requestRaw?: Buffer;
  /** Its text, when `readJson` decoded it anyway. */
  requestText?: string;
  /** The request's `Content-Type` said JSON. */
  requestJson?: boolean;
  /** The answer's body as written (`send`); undefined when the answer had none. */
  response?: string;
}

const captures = new WeakMap<IncomingMessage | ServerResponse, BodyCapture>();

/** Starts capturing the bodies of `req` and its answer `res`. */
export function captureBodies(req: IncomingMessage, res: ServerResponse): BodyCapture {
  const capture: BodyCapture = {};
  captures.set(req, capture);
  captures.set(res, capture);
  return capture;
}

/** The capture of a request or answer being recorded, or undefined. */
export function captureOf(message: IncomingMessage | ServerResponse): BodyCapture | undefined {
  return captures.get(message);
}
