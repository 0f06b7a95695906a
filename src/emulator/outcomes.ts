import type { App } from '../app.js';
import { addScript, clearScripts, listScripts, type ScriptBody } from '../control/outcomes.js';
import { scopeOf } from './scope.js';
import type { Emulator } from './types.js';

/** `Emulator.outcomes`: scripted outcomes, as `/_payemu/outcomes` keeps them. */
export function outcomeMethods(app: App): Emulator['outcomes'] {
  return {
    add: (script, options) => addScript(app, scopeOf(app, options), script as ScriptBody, app.clock.now()),
    list: (options) => listScripts(app, scopeOf(app, options)),
    clear: (options) => clearScripts(app, scopeOf(app, options)),
  };
}
