import type { App } from '../app.js';
import { runTrigger } from '../control/triggers/run.js';
import type { Emulator } from './types.js';

/** `Emulator.trigger`: an event made to happen by the fixture `payemu trigger` runs. */
export function triggerMethod(app: App): Emulator['trigger'] {
  return (event, options = {}) => {
    const config = app.config();
    const source = options.source ? config.sources.find((s) => s.slug === options.source) : config.sources[0];
    if (!source) return Promise.reject(new TypeError(`unknown Source: ${options.source}`));
    return runTrigger(app, { source, mode: options.mode ?? 'test' }, event, options.data ?? {});
  };
}
