import type { IncomingMessage } from 'node:http';

/** What the pipeline learns about one /v1 request, for whoever reports on it (the journal). */
export interface RequestNote {
  /** The id of the fault that acted on the request, or null. */
  fault: string | null;
  /**
   * Under a fault with `apply`: the status of the real answer the fault then replaced or lost
   * (a 2xx: the request's work is done). Undefined when the request did not run under one.
   */
  carried?: number;
}

// A symbol-keyed property, not a WeakMap: cheaper to read on every recorded request.
const NOTE = Symbol('payemu.note');

type Noted = IncomingMessage & { [NOTE]?: RequestNote };

/** The request's note, made on first use. */
export function noteOf(req: IncomingMessage): RequestNote {
  return ((req as Noted)[NOTE] ??= { fault: null });
}

/** The id of the fault that acted on the request, or null; makes no note. */
export function faultOf(req: IncomingMessage): string | null {
  return (req as Noted)[NOTE]?.fault ?? null;
}
