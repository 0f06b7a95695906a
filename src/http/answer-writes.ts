import type { ServerResponse } from 'node:http';
import type { Timers } from '../clock/timers.js';

/**
 * Under concurrent load, the answers of one turn of the event loop are written together at its
 * end rather than each as its route returns. One turn then handles requests from several
 * connections. Written one at a time, between the handling of the next ones, each answer finds
 * the client asleep and wakes it, and on a virtual machine that wake-up costs the writer more
 * than the write itself (10 to 20 µs). Written back to back, only the first does. Measured with
 * wrk, 10 connections, durable `POST /v1/sessions`: 18,000 -> 26,000 requests/s
 * (CHANGELOG.md, Performance).
 *
 * A lone request (one connection, a test suite's sequential calls) is answered at once: holding
 * its answer to the end of the turn cost it about 8 µs (GET, one connection: 11,500 -> 10,400
 * requests/s). So an answer waits only when its turn has answered before it, or when the turn
 * before had more than one answer; a turn's first answer after quiet turns goes at once.
 *
 * A durable change is in the journal before its route returns, so an answer never leaves before
 * what it reports is written, whichever way it goes.
 */
export class AnswerWrites {
  /** response, body, response, body, ...: one array, no pair object per answer. */
  private waiting: Array<ServerResponse | string | undefined> = [];
  private thisTurn = 0;
  private lastTurn = 0;
  private readonly turnEnds = () => this.endTurn();

  constructor(private readonly timers: Timers) {}

  /** Takes the answers of `res` (see `endAnswer`). */
  attach(res: ServerResponse): void {
    (res as Attached)[WRITES] = this;
  }

  /** `res.end(body)`, now or at the end of this turn (after the answers held before it). */
  end(res: ServerResponse, body: string | undefined): void {
    if (this.thisTurn++ === 0) {
      this.timers.endOfTurn(this.turnEnds);
      if (this.lastTurn < 2) return void res.end(body);
    }
    this.waiting.push(res, body);
  }

  private endTurn(): void {
    this.lastTurn = this.thisTurn;
    this.thisTurn = 0;
    if (this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    for (let i = 0; i < batch.length; i += 2) {
      const res = batch[i] as ServerResponse;
      try {
        res.end(batch[i + 1]);
      } catch {
        res.destroy(); // one answer that cannot be written must not hold back the others
      }
    }
  }
}

const WRITES = Symbol('payemu.answerWrites');

type Attached = ServerResponse & { [WRITES]?: AnswerWrites };

/** Ends `res` with `body`: through its server's `AnswerWrites` when it has one, else now. */
export function endAnswer(res: ServerResponse, body?: string): void {
  const writes = (res as Attached)[WRITES];
  if (writes) writes.end(res, body);
  else res.end(body);
}
