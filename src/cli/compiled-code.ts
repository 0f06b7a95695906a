import module from 'node:module';

let saveScriptCache: (() => void) | undefined;

/** Set by main(), from bin/payemu.js: writes the code cache of the CLI's script (cached-script.ts). */
export function onKeepCompiledCode(save: () => void): void {
  saveScriptCache = save;
}

/**
 * Keeps the code compiled for this start for the next one, once payemu is ready: the script's
 * code cache, and on Node 22.10+ Node's compile cache of the ES modules loaded so far. Both
 * would otherwise be written at exit or never, and a kill -9 (how some CI jobs end a server)
 * never reaches the exit: every start would compile again.
 */
export function keepCompiledCode(): void {
  (module as { flushCompileCache?: () => void }).flushCompileCache?.();
  saveScriptCache?.();
}
