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
  const saved = store.get(Meta, 'clock') as Extract<MetaRecord, { id: 'clock' }> | undefined;
  if (saved) {
    const wanted = clock.now();
    clock.restore(saved.clock);
    if (start !== undefined) clock.moveTo(wanted);
    // Frozen or not follows this run's flag, from where the saved clock stands.
    if (options.freezeClock && !clock.frozen()) clock.restore({ offsetMs: clock.offsetMs(), frozenAt: clock.now() });
    if (!options.freezeClock && clock.frozen()) clock.restore({ offsetMs: clock.offsetMs(), frozenAt: null });
  }
  store.transaction((tx) => tx.put(Meta, { id: 'clock', clock: clock.state() }));
  return clock;
}
