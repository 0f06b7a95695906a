import type { IncomingMessage } from 'node:http';

/** What the pipeline learns about one /v1 request, for whoever reports on it (the journal). */
export interface RequestNote {
  /** The id of the fault that acted on the request, or null. */
  fault: string | null;
}

const notes = new WeakMap<IncomingMessage, RequestNote>();

/** The request's note, made on first use. */
export function noteOf(req: IncomingMessage): RequestNote {
  let note = notes.get(req);
  if (!note) {
    note = { fault: null };
    notes.set(req, note);
  }
  return note;
}
