import { createClock, type Clock } from '../clock/clock.js';
import { parseTimestamp } from '../clock/format.js';
import { ConfigError } from '../config/load.js';
import { Meta, type MetaRecord } from '../resources/meta/records.js';
import type { Store } from '../store/store.js';
import type { EmulatorOptions } from './options.js';

/** A saved clock wins (a restart continues where it stopped); the options shape a new one. */
export function restoreClock(store: Store, options: Pick<EmulatorOptions, 'clockStart' | 'freezeClock'>): Clock {
  let start: number | undefined;
  if (options.clockStart !== undefined) {
    start = typeof options.clockStart === 'number' ? options.clockStart : parseTimestamp(options.clockStart);
    if (start === undefined) throw new ConfigError(`--clock-start: not an ISO 8601 timestamp: ${options.clockStart}`);
  }
  const clock = createClock({ start, frozen: options.freezeClock });
  const saved = savedClock(store);
  if (saved) {
    const wanted = clock.now();
    clock.restore(saved.clock);
    if (start !== undefined) clock.moveTo(wanted);
    followFreeze(clock, options.freezeClock);
  }
  store.transaction((tx) => tx.put(Meta, { id: 'clock', clock: clock.state() }));
  return clock;
}

/**
 * A named namespace's clock: its saved one when it is read back (a restart; `--freeze-clock`
 * applies to every namespace, `--clock-start` to the default only), else a new one where the
 * default's stands at this moment, frozen if it is. A new namespace's birth is written with it,
 * in the same transaction: once that line is on disk, the namespace outlives a crash.
 */
export function namespaceClock(store: Store, from: Clock, options: Pick<EmulatorOptions, 'freezeClock'>): Clock {
  const clock = createClock();
  const saved = savedClock(store);
  if (saved) {
    clock.restore(saved.clock);
    followFreeze(clock, options.freezeClock);
  } else clock.restore(from.state());
  const born = store.get(Meta, 'namespace') === undefined;
  store.transaction((tx) => {
    tx.put(Meta, { id: 'clock', clock: clock.state() });
    if (born) tx.put(Meta, { id: 'namespace', created_at: clock.now() });
  });
  return clock;
}

function savedClock(store: Store): Extract<MetaRecord, { id: 'clock' }> | undefined {
  return store.get(Meta, 'clock') as Extract<MetaRecord, { id: 'clock' }> | undefined;
}

/** Frozen or not follows this run's flag, from where the saved clock stands. */
function followFreeze(clock: Clock, freeze: boolean | undefined): void {
  if (freeze && !clock.frozen()) clock.restore({ offsetMs: clock.offsetMs(), frozenAt: clock.now() });
  if (!freeze && clock.frozen()) clock.restore({ offsetMs: clock.offsetMs(), frozenAt: null });
}
