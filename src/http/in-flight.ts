import type { ServerResponse } from 'node:http';

const SLOT = Symbol('payemu.inFlightSlot');

/** What is tracked: anything that says when it closes (a response, a connection). */
interface Closing {
  on(event: 'close', listener: () => void): unknown;
}

type Tracked<T> = T & { [SLOT]?: number };

/** The responses (or connections) of a server that have not closed yet. */
export interface InFlight<T extends Closing = ServerResponse> {
  /** Tracks `res` until its `close`. */
  add(res: T): void;
  /** Each one still open, in no particular order. */
  forEach(each: (res: T) => void): void;
}

/**
 * An array with each response's slot kept on the response, not a `Set`: a `Set` that takes and
 * drops a response on every request replaces its hash table again and again, and V8 links each
 * replaced table to its successor. Under load one such table reaches the old generation, and
 * the chain after it then carries every answered response (and its request, headers and body)
 * there until the next full collection: 600 MB promoted in 5 s of GET when answers were
 * written a turn later, and a quarter of the rate (CHANGELOG.md, Performance).
 */
export function inFlight<T extends Closing = ServerResponse>(): InFlight<T> {
  const responses: Tracked<T>[] = [];
  function forget(this: Tracked<T>): void {
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
      (res as Tracked<T>)[SLOT] = responses.push(res) - 1;
      res.on('close', forget); // one listener function for every response
    },
    forEach(each) {
      for (const res of responses.slice()) each(res);
    },
  };
}
