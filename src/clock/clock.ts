/**
 * The one virtual clock of the emulator. Nothing outside src/clock/ reads the system time:
 * everything else asks a Clock (or is handed `now` by its caller), so tests move time by
 * advancing the clock instead of sleeping.
 *
 * Unfrozen, virtual time is real time plus an offset that only grows; frozen, it stands still
 * and moves only on advance.
 */
export interface ClockState {
  offsetMs: number;
  /** Virtual time in epoch ms when frozen, null when following real time. */
  frozenAt: number | null;
}

export interface Clock {
  /** Virtual time, epoch milliseconds. */
  now(): number;
  offsetMs(): number;
  frozen(): boolean;
  /** Moves virtual time forward to `to` (epoch ms); never backwards. */
  moveTo(to: number): void;
  state(): ClockState;
  /** Restores a saved state (on start-up, or a reset). */
  restore(state: ClockState): void;
}

/** Real wall-clock time, for the few things that must not follow the virtual clock
 * (webhook signature timestamps, real-time scheduling ticks). */
export const wallClock = { now: (): number => Date.now() };

export function createClock(options: { start?: number; frozen?: boolean; realNow?: () => number } = {}): Clock {
  const realNow = options.realNow ?? wallClock.now;
  // One reading of real time: two could straddle a millisecond and freeze the clock 1 ms
  // past the requested start.
  const startedAt = realNow();
  let offset = options.start !== undefined ? options.start - startedAt : 0;
  let frozenAt: number | null = options.frozen ? startedAt + offset : null;

  const now = (): number => frozenAt ?? realNow() + offset;
  return {
    now,
    offsetMs: () => (frozenAt === null ? offset : frozenAt - realNow()),
    frozen: () => frozenAt !== null,
    moveTo(to: number) {
      if (to <= now()) return;
      if (frozenAt !== null) frozenAt = to;
      else offset = to - realNow();
    },
    state: () => ({ offsetMs: offset, frozenAt }),
    restore(state: ClockState) {
      offset = state.offsetMs;
      frozenAt = state.frozenAt;
    },
  };
}

/** Measures elapsed real time for latencies and durations; not a source of timestamps. */
export function stopwatch(): () => number {
  const start = performance.now();
  return () => performance.now() - start;
}
