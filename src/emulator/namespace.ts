import type { App } from '../app.js';
import { isNamespaceName, NAMESPACE_NAME_RULE, namespacedKey } from '../lib/namespace-name.js';
import { eventMethods } from './events.js';
import { libraryMethods } from './operations.js';
import type { Emulator, NamespaceEmulator } from './types.js';

/** What a namespace's object shares with the emulator that made it. */
export interface NamespaceHost {
  /** The default namespace's app: its registry holds the named ones. */
  root: App;
  /** `http://HOST:PORT`: every namespace is served there. */
  url: string;
  /** The emulator's `idle()`: one set of timers runs every namespace's work. */
  idle(): Promise<void>;
}

/**
 * `emulator.namespace(name)`: the named namespace's core, made now when it does not exist yet
 * (as a first request with `KEY~NAME` makes it), seen as an `Emulator` of its own: the control
 * operations' methods and the event log act on its state, its keys carry `~NAME`, `bus` hears
 * its events only. A name that breaks the rule, or one more namespace than `maxNamespaces`
 * allows, is a RangeError.
 */
export async function namespaceEmulator(host: NamespaceHost, name: string): Promise<NamespaceEmulator> {
  if (!isNamespaceName(name)) throw new RangeError(`emulator.namespace(${JSON.stringify(name)}): ${NAMESPACE_NAME_RULE}`);
  let app: App;
  try {
    app = await host.root.namespaces.resolve(name);
  } catch (error) {
    throw new RangeError(`emulator.namespace(${JSON.stringify(name)}): ${(error as Error).message}`);
  }
  return {
    name,
    ...emulatorMembers(app, host.url, `${host.url}/_payemu/dashboard?namespace=${name}`),
    bus: app.bus,
    idle: host.idle,
  };
}

/**
 * What the emulator and each of its namespaces show alike, from the app of their namespace: the
 * keys (with `~NAME` in a named one), the destination in force, the control operations' methods
 * (src/control/operations/) and the event log's own.
 */
export function emulatorMembers(
  app: App,
  url: string,
  dashboardUrl: string,
): Pick<Emulator, 'url' | 'dashboardUrl' | 'keys' | 'webhookSecret' | 'sources' | 'webhookUrl' | 'events'> & ReturnType<typeof libraryMethods> {
  const sources = app.config().sources.map(({ slug, name, test_key, live_key, webhook_secret }) => ({
    slug,
    name,
    test_key: namespacedKey(test_key, app.namespace),
    live_key: namespacedKey(live_key, app.namespace),
    webhook_secret,
  }));
  const first = sources[0]!;
  const operations = libraryMethods(app);
  return {
    url,
    dashboardUrl,
    keys: { test: first.test_key, live: first.live_key },
    webhookSecret: first.webhook_secret,
    sources,
    // Read at call time: a config reload, or PUT /_payemu/webhook, can change it (the terminal UI's header shows it).
    webhookUrl(slug) {
      const source = app.config().sources.find((s) => s.slug === slug);
      return source ? app.webhooks.endpointFor(source) : null;
    },
    ...operations,
    events: { ...operations.events, ...eventMethods(app) },
  };
}
