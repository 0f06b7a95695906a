import type { App } from '../../app.js';
import type { Mode, SourceConfig } from '../../config/types.js';
import type { OpenContext } from '../../http/route.js';
import { isNamespaceName } from '../../lib/namespace-name.js';
import { scopeKey } from '../../lib/scope-key.js';
import type { Collection, StoredRecord } from '../../store/collection.js';
import { html, type Raw } from '../html.js';

/**
 * The Source, mode and namespace a dashboard page shows: `?source=acme&mode=test`, by default the
 * first Source in test mode, and `&namespace=NAME` for a named namespace (absent: the default).
 */
export interface DashScope {
  source: SourceConfig;
  mode: Mode;
  /** The named namespace shown (the app the page reads is its), `undefined` for the default one. */
  namespace: string | undefined;
}

export const BASE = '/_payemu/dashboard';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) ? text(value[0]) : undefined);

/**
 * The app of the namespace a dashboard address names (`?namespace=NAME`): an unknown or empty
 * name shows the default, as an unknown Source shows the first; no name keeps the app the page
 * was served with (a page under `/~NAME/` is that namespace's). The dashboard never makes one.
 */
export function namespaceApp(ctx: OpenContext): OpenContext['app'] {
  const name = text(ctx.query.namespace);
  if (name === undefined) return ctx.app;
  return (isNamespaceName(name) ? ctx.app.namespaces.find(name) : undefined) ?? ctx.app.namespaces.root();
}

/** Reads the scope from the query (or a form): an unknown Source or mode falls back to the default rather than failing; the namespace is `app`'s. */
export function scopeOf(app: App, values: Record<string, unknown>): DashScope {
  const sources = app.config().sources;
  const source = sources.find((s) => s.slug === text(values.source)) ?? sources[0]!;
  return { source, mode: text(values.mode) === 'live' ? 'live' : 'test', namespace: app.namespace };
}

export function scopeFromQuery(ctx: OpenContext): DashScope {
  return scopeOf(ctx.app, ctx.query);
}

/** A dashboard address keeping the scope, with more query parameters (empty ones left out); the default namespace's carry no `namespace`. */
export function href(scope: DashScope, path = '', extra: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams({ source: scope.source.slug, mode: scope.mode });
  if (scope.namespace !== undefined) query.set('namespace', scope.namespace);
  for (const [name, value] of Object.entries(extra)) if (value !== undefined && value !== '') query.set(name, String(value));
  return `${BASE}${path}?${query}`;
}

/** The hidden fields of a GET form (a filter) that keep the scope, as `href()` does. */
export function scopeFields(scope: DashScope): Raw {
  return html`<input type="hidden" name="source" value="${scope.source.slug}"><input type="hidden" name="mode" value="${scope.mode}">${
    scope.namespace === undefined ? '' : html`<input type="hidden" name="namespace" value="${scope.namespace}">`
  }`;
}

/** One query value as text (a repeated parameter counts by its first value). */
export const param = (ctx: OpenContext, name: string): string => text(ctx.query[name])?.trim() ?? '';

/** The scope's records of `collection`, newest first (the store keeps them in the order they were written). */
export function newestFirst<T extends StoredRecord>(app: App, scope: DashScope, collection: Collection<T>): T[] {
  return app.store.find(collection, 'scope', scopeKey(scope.source.slug, scope.mode)).reverse();
}
