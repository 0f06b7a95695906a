import type { App } from '../app.js';
import type { Mode } from '../config/types.js';
import type { Scope } from '../http/auth.js';
import type { ScopeOption } from './types.js';

// Which Source and mode a library call acts as: read from the config at call time (a reload can
// change the Sources), the first Source in test mode unless the call names another.

/** The Scope of `options` (`outcomes`, `snapshot`); an unknown Source is a TypeError. */
export function scopeOf(app: App, options: ScopeOption = {}): Scope {
  const config = app.config();
  const source = options.source === undefined ? config.sources[0]! : config.sources.find((s) => s.slug === options.source);
  if (!source) throw new TypeError(`unknown Source: ${options.source}`);
  return { source, mode: options.mode ?? 'test' };
}

/** The Source's slug and mode of `scope` (`webhookChaos`); an unknown Source is a TypeError. */
export function chaosScope(app: App, scope: { source?: string; mode?: Mode }): { source: string; mode: Mode } {
  const config = app.config();
  const source = scope.source ?? config.sources[0]!.slug;
  if (!config.sources.some((s) => s.slug === source)) throw new TypeError(`unknown Source: ${source}`);
  return { source, mode: scope.mode ?? 'test' };
}

/** The Scope a key opens (`requests`; default the first Source's test key); a key that opens none is a TypeError. */
export function scopeOfKey(app: App, key: string | undefined): Scope {
  const scope = app.keyring.lookup(key ?? app.config().sources[0]!.test_key);
  if (!scope) throw new TypeError('requests(): that key opens no Source (give a test or live key of the config)');
  return scope;
}
