import type { ServerResponse } from 'node:http';

const SLOT = Symbol('payemu.inFlightSlot');

type Tracked = ServerResponse & { [SLOT]?: number };

/** The responses of a server that have not closed yet. */
export interface InFlight {
  /** Tracks `res` until its `close`. */
  add(res: ServerResponse): void;
  /** Each response still open, in no particular order. */
  forEach(each: (res: ServerResponse) => void): void;
}

/**
 * An array with each response's slot kept on the response, not a `Set`: a `Set` that takes and
 * drops a response on every request replaces its hash table again and again, and V8 links each
 * replaced table to its successor. Under load one such table reaches the old generation, and
 * the chain after it then carries every answered response (and its request, headers and body)
 * there until the next full collection: 600 MB promoted in 5 s of GET when answers were
 * written a turn later, and a quarter of the rate (CHANGELOG.md, Performance).
 */
export function inFlight(): InFlight {
  const responses: Tracked[] = [];
  function forget(this: Tracked): void {
    const slot = this[SLOT];
    if (slot === undefined) return;
    this[SLOT] = undefined;
    const last = responses.pop()!;
    if (last !== this) {
      responses[slot] = last;
      last[SLOT] = slot;
    }
  }
  return {
    add(res) {
      (res as Tracked)[SLOT] = responses.push(res) - 1;
      res.on('close', forget); // one listener function for every response
    },
    forEach(each) {
      for (const res of responses.slice()) each(res);
    },
  };
}
