import type { App, Namespaces } from '../app.js';
import { HttpError } from '../http/errors.js';
import { Meta, type MetaRecord } from '../resources/meta/records.js';
import type { Core } from './core.js';

export interface NamespaceRegistryOptions {
  /** `--max-namespaces`: the named ones this payemu holds at most (the default is not counted). */
  max: number;
  /** The default namespace's app. */
  root(): App;
  /** Makes a named namespace's core, started; a namespace kept in the data directory is read back. */
  build(name: string): Promise<Core>;
  /** Removes a dropped namespace's data, once its core is closed. */
  remove?(name: string): Promise<void>;
}

/**
 * The named namespaces of one payemu: each a whole emulator core of its own (src/emulator/core.ts)
 * behind the one server, made on its first request. The default namespace is not in here: it is
 * the core the composition root builds first.
 */
export class NamespaceRegistry implements Namespaces {
  private readonly cores = new Map<string, Core>();
  /** Being made: two first requests at once share one core. */
  private readonly opening = new Map<string, Promise<Core>>();
  /** Kept in the data directory, to be read back at start: never refused by the limit, even by a request that comes first. */
  private kept = new Set<string>();
  /** `stopAll` was called: a core made after it is stopped as it comes. */
  private stopped = false;

  constructor(private readonly options: NamespaceRegistryOptions) {}

  get size(): number {
    return this.cores.size + this.opening.size;
  }

  resolve(name: string): App | Promise<App> {
    const core = this.cores.get(name);
    return core ? core.app : this.open(name).then((made) => made.app);
  }

  find(name: string): App | undefined {
    return this.cores.get(name)?.app;
  }

  root(): App {
    return this.options.root();
  }

  /**
   * The core of `name`, made (and counted against the limit) when there is none yet. One kept
   * in the data directory (`readBack`) is made whatever the limit (a limit lowered since).
   */
  open(name: string): Promise<Core> {
    const core = this.cores.get(name);
    if (core) return Promise.resolve(core);
    const pending = this.opening.get(name);
    if (pending) return pending;
    if (!this.kept.has(name) && this.size >= this.options.max) return Promise.reject(overLimit(this.options.max));
    const made = this.options.build(name).then(
      (built) => {
        this.opening.delete(name);
        this.cores.set(name, built);
        // Made while payemu stops: stopped as the others were (its streams end, nothing is due).
        if (this.stopped) built.stop();
        return built;
      },
      (error: unknown) => {
        this.opening.delete(name);
        throw error;
      },
    );
    this.opening.set(name, made);
    return made;
  }

  /**
   * The namespaces kept in the data directory, told before payemu listens: a request that comes
   * for one of them before `readBack` reaches it makes it, whatever the limit.
   */
  keep(names: readonly string[]): void {
    this.kept = new Set(names);
  }

  /** Reads back the kept namespaces, one by one (a start). */
  async readBack(): Promise<void> {
    try {
      for (const name of this.kept) await this.open(name);
    } finally {
      this.kept = new Set();
    }
  }

  list(): readonly { name: string; createdAt: number; app: App }[] {
    return [...this.cores].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, core]) => ({ name, createdAt: createdAtOf(core.app), app: core.app }));
  }

  async delete(name: string): Promise<boolean> {
    const core = this.cores.get(name) ?? (await this.opening.get(name)?.catch(() => undefined));
    if (!core) return false;
    // Out of the registry first: a request from now on makes the namespace afresh.
    this.cores.delete(name);
    core.stop();
    await core.close();
    await this.options.remove?.(name);
    return true;
  }

  /** The first step of payemu's close, for every named core (see Core.stop). */
  stopAll(): void {
    this.stopped = true;
    for (const core of this.cores.values()) core.stop();
  }

  /** Closes every named core (their stores written), once the server has stopped. */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.opening.values()]);
    await Promise.all([...this.cores.values()].map((core) => core.close()));
    this.cores.clear();
  }
}

/** When the namespace came into being: a record written as it was made (its own virtual time). */
function createdAtOf(app: App): number {
  const born = app.store.get(Meta, 'namespace') as Extract<MetaRecord, { id: 'namespace' }> | undefined;
  return born?.created_at ?? app.clock.now();
}

/** `Retry-After: 1`, as a fault's 429 has: another worker may delete a namespace meanwhile. */
function overLimit(max: number): HttpError {
  return new HttpError(
    429,
    `payemu holds ${max} namespaces, the most --max-namespaces allows: delete one (DELETE /_payemu/namespaces/NAME) or start payemu with a higher --max-namespaces.`,
    undefined,
    { 'Retry-After': '1' },
  );
}
