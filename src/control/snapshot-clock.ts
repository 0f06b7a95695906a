import type { App } from '../app.js';
import { formatTimestamp, parseTimestamp } from '../clock/format.js';
import { Unprocessable } from '../http/errors.js';
import { MAX_ADVANCE_DAYS } from './clock.js';

/** The earliest and latest `clock.now` a snapshot may hold: 1970-01-01 and the end of year 9999. */
const EARLIEST = 0;
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** `offset_seconds` within what the clock can hold at all (the span of those two instants, either way). */
const MAX_OFFSET_SECONDS = Math.floor((LATEST - EARLIEST) / 1000);

/**
 * The snapshot's clock, checked before anything is written (a 422 naming the field): `now` a
 * timestamp between 1970 and 9999, `offset_seconds` a finite integer no larger than that span,
 * `frozen` a boolean; and for an `all` snapshot, whose clock the import sets, `now` at most
 * MAX_ADVANCE_DAYS ahead of the running clock, the limit of one advance: the due work between
 * the two runs as the scheduler's batches (yielding to other requests between them), and more
 * than ten years of it would hold payemu for minutes or bill for millennia. Answers `now`.
 */
export function checkSnapshotClock(app: App, clock: { now: string; offset_seconds?: unknown; frozen?: unknown }, all: boolean): number {
  const fail = (field: string, message: string): never => {
    throw Unprocessable.field(`clock.${field}`, `This is not a snapshot payemu can import: ${message}`);
  };
  const now = parseTimestamp(clock.now);
  if (now === undefined || now < EARLIEST || now > LATEST)
    fail('now', `"clock.now" must be a timestamp between 1970-01-01 and 9999-12-31, not ${JSON.stringify(clock.now)}.`);
  const offset = clock.offset_seconds;
  if (offset !== undefined && (typeof offset !== 'number' || !Number.isSafeInteger(offset) || Math.abs(offset) > MAX_OFFSET_SECONDS))
    fail('offset_seconds', `"clock.offset_seconds" must be a whole number of seconds within ±${MAX_OFFSET_SECONDS}, not ${JSON.stringify(offset)}.`);
  if (clock.frozen !== undefined && typeof clock.frozen !== 'boolean')
    fail('frozen', `"clock.frozen" must be true or false, not ${JSON.stringify(clock.frozen)}.`);
  const running = app.clock.now();
  if (all && now! - running > MAX_ADVANCE_DAYS * 86_400_000)
    fail(
      'now',
      `its clock (${formatTimestamp(now!)}) stands more than ${MAX_ADVANCE_DAYS} days (ten years, the limit of one advance) ahead of this payemu's (${formatTimestamp(running)}): advance this payemu's clock first (POST /_payemu/clock/advance), or start it with --clock-start.`,
    );
  return now!;
}
