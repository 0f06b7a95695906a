/**
 * A domain event raised by a transaction (one of the catalogue's events, EVENT_NAMES of
 * src/catalogue.ts, which the resource modules declare), on the bus once its transaction is on
 * disk.
 */
export interface RaisedEvent {
  /** The event's id (its record in the events collection). */
  id: string;
  name: string;
  source: string;
  mode: 'test' | 'live';
  data: Record<string, unknown>;
  /** Virtual time it happened (a charge of a clock advance: its own day, not the advance's end). */
  at: number;
}
