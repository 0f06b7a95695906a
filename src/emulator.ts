import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Bus } from './bus/bus.js';
import { ROUTES } from './catalogue.js';
import { Timers } from './clock/timers.js';
import { buildConfig, ConfigError, loadConfig } from './config/load.js';
import type { PayemuConfig } from './config/types.js';
import { configVersion, watchConfigCreation, watchConfigSoon } from './config/watch.js';
import { Keyring } from './http/auth.js';
import { reloadConfigFaults } from './http/faults.js';
import { hostCheck, type HostCheck } from './http/host-check.js';
import { inFlight } from './http/in-flight.js';
import { type Inject, injector } from './http/inject.js';
import { createServer } from './http/server.js';
import { packageVersion } from './lib/version.js';
import { filePersistence } from './store/file-persistence.js';
import { recordLockUrl } from './store/lock.js';
import { memoryPersistence } from './store/persistence.js';
import { restoreClock } from './emulator/clock.js';
import { createCore } from './emulator/core.js';
import { keptNamespaces, namedCoreBuilder, type SharedCoreOptions } from './emulator/named-core.js';
import { dropNamespaceDir } from './store/namespace-dirs.js';
import { NamespaceRegistry } from './emulator/namespaces.js';
import { checkOptions, type EmulatorOptions } from './emulator/options.js';
import { emulatorMembers, namespaceEmulator } from './emulator/namespace.js';
import { importAtStart, writeExitSnapshot } from './emulator/snapshot.js';
import type { Emulator } from './emulator/types.js';

// The composition root: the parts are made and wired here (one emulator core, its store, clock
// and engines, by createCore in src/emulator/core.ts), and each family of the library's methods
// is made in its own file of src/emulator/.
export type { EmulatorOptions } from './emulator/options.js';
export type { Emulator, NamespaceEmulator, OutcomeScriptInput, RequestsFilter, ScopeOption } from './emulator/types.js';

/**
 * Starts payemu: config, store, clock, scheduler and HTTP server, composed here and nowhere
 * else. Resolves once requests are served.
 *
 * @example
 * const payemu = await startEmulator();
 * const res = await fetch(`${payemu.url}/v1/me`, { headers: { Authorization: `Bearer ${payemu.keys.test}` } });
 * await payemu.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const configFile = typeof options.config === 'string' ? path.resolve(options.config) : undefined;
  // The file's version before it is read: an edit from now on is seen by the watch (below).
  const loadedVersion = configFile ? configVersion(configFile) : undefined;
  let config: PayemuConfig = typeof options.config === 'object' ? buildConfig(options.config) : loadConfig(configFile);

  // Checked before the store creates anything.
  const { allowedHosts, dataDir, dispatcherOptions, startChaos, journalSize, maxNamespaces } = checkOptions(options);
  const bus = new Bus();
  const persistenceOptions = {
    compactAfterBytes: options.compactAfterBytes,
    onCompaction: (result: { ok: boolean; records?: number; error?: string }) => bus.emit('store.compacted', result),
    keysMadeBy: `payemu ${packageVersion()}`,
  };
  const persistence = dataDir ? filePersistence(dataDir, persistenceOptions) : memoryPersistence();
  const existed = dataDir !== undefined && fs.existsSync(dataDir);
  // A start that fails before serving closes the store (its lock released) and leaves no new
  // data directory behind; one that existed before is kept as it was.
  const removeNewDataDir = () => {
    if (dataDir && !existed) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const timers = new Timers();
  const keyring = new Keyring(config);
  let baseUrl = '';
  let inject: Inject = () => Promise.reject(new Error('payemu is not serving yet'));
  // Each named namespace is a core of its own (src/emulator/namespaces.ts), made like the default's.
  const namespaces: NamespaceRegistry = new NamespaceRegistry({
    max: maxNamespaces,
    root: () => app,
    build: (name) => buildNamed(name),
    remove: dataDir === undefined ? undefined : async (name) => void (await dropNamespaceDir(dataDir, name)),
  });
  const shared: SharedCoreOptions = {
    config: () => config,
    keyring,
    timers,
    bus,
    dispatcherOptions,
    startChaos,
    rateLimit: options.rateLimit ?? false,
    journalSize,
    baseUrl: () => baseUrl,
    inject: (request) => inject(request),
    namespaces,
  };
  const core = await createCore({ ...shared, persistence, clockFrom: (store) => restoreClock(store, options), abandoned: removeNewDataDir });
  const { app, store } = core;
  const buildNamed = namedCoreBuilder(shared, () => app, dataDir, persistenceOptions, options.freezeClock);
  const abandon = async () => {
    await store.close();
    removeNewDataDir();
  };
  if (options.import !== undefined) {
    try {
      importAtStart(app, options.import);
    } catch (error) {
      timers.cancelAll();
      await abandon();
      throw error instanceof ConfigError ? error : new ConfigError(`--import: ${(error as Error).message}`);
    }
  }

  // What a crash left in DATA/namespaces is cleaned now; the namespaces kept there are read back once payemu listens.
  try {
    if (dataDir) namespaces.keep(keptNamespaces(dataDir));
  } catch (error) {
    timers.cancelAll();
    await abandon();
    throw error;
  }

  let checkHost: HostCheck | undefined; // set once the bound address is known
  const server = createServer(app, [...ROUTES, ...(options.extraRoutes ?? [])], { checkHost: (req) => checkHost?.(req) });
  inject = injector(server, () => new URL(baseUrl).host);
  // Responses not sent yet: on close they end their connection instead of keeping it alive.
  const unanswered = inFlight();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => unanswered.add(res));
  // Every connection, for close to end those with no request on them (see below).
  const connections = inFlight<Socket>();
  server.on('connection', (socket: Socket) => connections.add(socket));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await abandon();
    throw error;
  }
  const address = server.address() as AddressInfo;
  checkHost = hostCheck(address.address, allowedHosts);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;
  // The lock names this URL: a second payemu refused on the directory, and `payemu reset --data`, find it there.
  if (dataDir) recordLockUrl(dataDir, baseUrl);

  // Work that fell due while payemu was stopped runs now, then on a one-second tick; the
  // namespaces kept in the data directory are read back and carry on likewise.
  await core.start();
  if (dataDir) {
    try {
      await namespaces.readBack();
    } catch (error) {
      // A namespace that cannot be read back (damage) stops the start as the default's would:
      // nothing left listening or running, the lock released.
      core.stop();
      namespaces.stopAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await namespaces.closeAll();
      await core.close(() => timers.cancelAll());
      throw error;
    }
  }

  const applyConfig = (next: PayemuConfig) => {
    for (const one of [app, ...namespaces.list().map((named) => named.app)]) reloadConfigFaults(one.store, config, next, one.clock.now());
    config = next;
    keyring.update(next);
  };
  // The watch starts after start-up (and after the CLI's readiness line): see watchConfig.
  const stopWatching = configFile
    ? watchConfigSoon(configFile, bus, applyConfig, loadedVersion, (fn) => timers.soon(fn))
    : options.configFileIfCreated !== undefined && typeof options.config !== 'object'
      ? await watchConfigCreation(path.resolve(options.configFileIfCreated), bus, applyConfig)
      : undefined;

  let closing: Promise<void> | undefined;
  return {
    ...emulatorMembers(app, baseUrl, `${baseUrl}/_payemu/dashboard`),
    bus,
    dataDir,
    idle: () => timers.idle(),
    namespace: (name) => namespaceEmulator({ root: app, url: baseUrl, idle: () => timers.idle() }, name),
    close: () =>
      (closing ??= (async () => {
        let exportError: unknown;
        if (options.exportOnExit !== undefined) {
          try {
            writeExitSnapshot(app, options.exportOnExit);
          } catch (error) {
            exportError = error; // payemu still stops; the caller hears why the file is missing
          }
        }
        core.stop();
        namespaces.stopAll();
        await stopWatching?.();
        // In-flight requests finish, then their connections close (rather than idling for
        // the keep-alive timeout); idle keep-alive connections are closed now.
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          const asked = new Set<unknown>();
          unanswered.forEach((res) => {
            asked.add(res.socket);
            if (!res.headersSent) res.setHeader('Connection', 'close');
          });
          server.closeIdleConnections();
          // A connection with no request on it that Node does not count as idle is closed too:
          // one that has sent nothing yet (a browser's preconnect beside an open dashboard, a
          // client pool's spare socket), or only part of a request's head (a stalled client).
          // Node counts both as active: left open, they held the close until the client let go
          // (minutes for a browser) or the head's timeout passed (a minute). A request whose
          // head is in has a response, and is answered.
          connections.forEach((socket) => {
            if (!asked.has(socket)) socket.destroy();
          });
        });
        await namespaces.closeAll();
        await core.close(() => timers.cancelAll());
        if (exportError !== undefined) throw new Error(`--export-on-exit: ${(exportError as Error).message}`);
      })()),
  };
}
