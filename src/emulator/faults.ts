import type { App } from '../app.js';
import { createClient } from '../client/client.js';
import type { Emulator } from './types.js';

/**
 * `Emulator.faults`: through HTTP, as the client does (`/_payemu/faults`), with `defaultKey` (the
 * first Source's test key at start) unless a call gives another.
 */
export function faultMethods(app: App, defaultKey: string): Emulator['faults'] {
  const control = (key = defaultKey) => createClient({ url: app.baseUrl(), key });
  return {
    add: (fault, options = {}) => control(options.key).addFault(fault),
    list: (options = {}) => control(options.key).faults(),
    remove: (id, options = {}) => control(options.key).removeFault(id),
    clear: async (options = {}) => (await control(options.key).clearFaults()).removed,
  };
}
