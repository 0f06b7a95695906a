import type { ServerResponse } from 'node:http';

const SLOT = Symbol('payemu.inFlightSlot');

/** What is tracked: anything that says when it closes (a response, a connection). */
interface Closing {
  on(event: 'close', listener: () => void): unknown;
}

type Tracked<T> = T & { [SLOT]?: number };

/** The responses (or connections) of a server that have not closed yet. */
export interface InFlight<T extends Closing = ServerResponse> {
  /** Tracks `item` until its `close`. */
  add(item: T): void;
  /** Each one still open, in no particular order. */
  forEach(each: (item: T) => void): void;
}

/**
 * An array with each one's slot kept on it, not a `Set`: a `Set` that takes and
 * drops a response on every request replaces its hash table again and again, and V8 links each
 * replaced table to its successor. Under load one such table reaches the old generation, and
 * the chain after it then carries every answered response (and its request, headers and body)
 * there until the next full collection: 600 MB promoted in 5 s of GET when answers were
 * written a turn later, and a quarter of the rate (CHANGELOG.md, Performance).
 */
export function inFlight<T extends Closing = ServerResponse>(): InFlight<T> {
  const open: Tracked<T>[] = [];
  function forget(this: Tracked<T>): void {
    const slot = this[SLOT];
    if (slot === undefined) return;
    this[SLOT] = undefined;
    const last = open.pop()!;
    if (last !== this) {
      open[slot] = last;
      last[SLOT] = slot;
    }
  }
  return {
    add(item) {
      (item as Tracked<T>)[SLOT] = open.push(item) - 1;
      item.on('close', forget); // one listener function for every response or connection
    },
    forEach(each) {
      for (const item of open.slice()) each(item);
    },
  };
}
