/**
 * Deliveries in flight at once per Source; later ones wait their turn in event order. A clock
 * advance of a year raises hundreds of thousands of events in one call: without a bound each
 * would open its own connection at once.
 */
export const MAX_IN_FLIGHT_PER_SOURCE = 64;

/**
 * One Source's deliveries: how many are in flight, the ids waiting for a free slot, and the
 * retries a clock advance is waiting to run (each is handed the next free slot, ahead of
 * `waiting`: the advance cannot move on until they have ended).
 */
export interface Lane {
  active: number;
  waiting: string[];
  head: number;
  urgent: (() => void)[];
}

/**
 * The per-Source slots of the dispatcher: which delivery may go now, which waits, and in what
 * order the waiting ones go as slots free up. `start` begins the attempt of a waiting id (it
 * takes its slot through `take` before its first await).
 */
export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  private closed = false;

  constructor(private readonly start: (id: string) => void) {}

  lane(source: string): Lane {
    let lane = this.lanes.get(source);
    if (!lane) this.lanes.set(source, (lane = { active: 0, waiting: [], head: 0, urgent: [] }));
    return lane;
  }

  /** Takes a slot of `lane` when one is free. */
  take(lane: Lane): boolean {
    if (lane.active >= MAX_IN_FLIGHT_PER_SOURCE) return false;
    lane.active++;
    return true;
  }

  /** `id` goes when a slot frees up, after the ids waiting before it. */
  wait(lane: Lane, id: string): void {
    lane.waiting.push(id);
  }

  /** Resolves with a slot taken for an advance's attempt, ahead of the waiting ids (or at close). */
  waitUrgent(lane: Lane): Promise<void> {
    return new Promise<void>((resolve) => lane.urgent.push(resolve));
  }

  /** An attempt has ended: its slot goes to the next in line. */
  release(lane: Lane): void {
    lane.active--;
    this.fill(lane);
  }

  /** Whether any lane has an attempt waiting for a slot. */
  pending(): boolean {
    for (const lane of this.lanes.values()) if (lane.urgent.length > 0 || lane.head < lane.waiting.length) return true;
    return false;
  }

  /** Lets go the retries an advance waits to run: they see the dispatcher closed and end at once. */
  close(): void {
    this.closed = true;
    for (const lane of this.lanes.values()) {
      for (const go of lane.urgent.splice(0)) {
        lane.active++;
        go();
      }
    }
    this.lanes.clear();
  }

  /** Fills the free slots: first the retries an advance waits for, then the waiting ids, oldest
   * first. An id whose event no longer needs an attempt (delivered meanwhile, removed by a
   * reset) takes no slot. */
  private fill(lane: Lane): void {
    // The slot is taken here, for the advance's attempt that resumes on the next microtask.
    while (!this.closed && lane.active < MAX_IN_FLIGHT_PER_SOURCE && lane.urgent.length > 0) {
      lane.active++;
      lane.urgent.shift()!();
    }
    // The attempt takes its slot before its first await, so `active` is current in this loop.
    while (!this.closed && lane.active < MAX_IN_FLIGHT_PER_SOURCE && lane.head < lane.waiting.length) {
      this.start(lane.waiting[lane.head++]!);
    }
    if (lane.head === lane.waiting.length) {
      lane.waiting = [];
      lane.head = 0;
    } else if (lane.head > 1024 && lane.head * 2 > lane.waiting.length) {
      lane.waiting = lane.waiting.slice(lane.head);
      lane.head = 0;
    }
  }
}
