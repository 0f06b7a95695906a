import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The bodies of one request the request journal records, as the pipeline already holds them:
 * the bytes `readJson` read (and the text it decoded) and the string `send` wrote. Set only for
 * recorded requests, so every other request pays one property read and nothing more.
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

// A symbol-keyed property of the request and its answer rather than a WeakMap: it is set on
// every recorded request, and a WeakMap entry costs several times a property (and more garbage
// collection work).
const CAPTURE = Symbol('payemu.capture');

type Captured = (IncomingMessage | ServerResponse) & { [CAPTURE]?: BodyCapture };

/** Starts capturing the bodies of `req` and its answer `res` into `capture`. */
export function captureBodies<C extends BodyCapture>(req: IncomingMessage, res: ServerResponse, capture: C): C {
  (req as Captured)[CAPTURE] = capture;
  (res as Captured)[CAPTURE] = capture;
  return capture;
}

/** The capture of a request or answer being recorded, or undefined. */
export function captureOf(message: IncomingMessage | ServerResponse): BodyCapture | undefined {
  return (message as Captured)[CAPTURE];
}
