import type { App } from '../app.js';
import type { Scope } from '../http/auth.js';
import type { ScopeOption } from '../control/operation.js';

// Which Source and mode a library call acts as: read from the config at call time (a reload can
// change the Sources), the first Source in test mode unless the call names another.

/** The Scope of `options` (a library call's `source` and `mode`); an unknown Source is a TypeError. */
export function scopeOf(app: App, options: ScopeOption = {}): Scope {
  const config = app.config();
  const source = options.source === undefined ? config.sources[0]! : config.sources.find((s) => s.slug === options.source);
  if (!source) throw new TypeError(`unknown Source: ${options.source}`);
  return { source, mode: options.mode ?? 'test' };
}
