import type { App } from '../../app.js';
import type { Mode, SourceConfig } from '../../config/types.js';
import type { OpenContext } from '../../http/route.js';
import { scopeKey } from '../../lib/scope-key.js';
import type { Collection, StoredRecord } from '../../store/collection.js';

/** The Source and mode a dashboard page shows: `?source=acme&mode=test`, by default the first Source in test mode. */
export interface DashScope {
  source: SourceConfig;
  mode: Mode;
}

export const BASE = '/_payemu/dashboard';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) ? text(value[0]) : undefined);

/** Reads the scope from the query (or a form): an unknown Source or mode falls back to the default rather than failing. */
export function scopeOf(app: App, values: Record<string, unknown>): DashScope {
  const sources = app.config().sources;
  const source = sources.find((s) => s.slug === text(values.source)) ?? sources[0]!;
  return { source, mode: text(values.mode) === 'live' ? 'live' : 'test' };
}

export function scopeFromQuery(ctx: OpenContext): DashScope {
  return scopeOf(ctx.app, ctx.query);
}

/** A dashboard address keeping the scope, with more query parameters (empty ones left out). */
export function href(scope: DashScope, path = '', extra: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams({ source: scope.source.slug, mode: scope.mode });
  for (const [name, value] of Object.entries(extra)) if (value !== undefined && value !== '') query.set(name, String(value));
  return `${BASE}${path}?${query}`;
}

/** One query value as text (a repeated parameter counts by its first value). */
export const param = (ctx: OpenContext, name: string): string => text(ctx.query[name])?.trim() ?? '';

/** The scope's records of `collection`, newest first (the store keeps them in the order they were written). */
export function newestFirst<T extends StoredRecord>(app: App, scope: DashScope, collection: Collection<T>): T[] {
  return app.store.find(collection, 'scope', scopeKey(scope.source.slug, scope.mode)).reverse();
}
