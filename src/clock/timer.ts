/**
 * Real-time repeating work that must not keep the process alive (a watch, not a job): an
 * unref'd interval. Due work of the emulator goes through the scheduler, never through here.
 * Returns the function that stops it.
 */
export function every(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}
