import type { RaisedEvent } from './events.js';

/**
 * The one event bus. The API, the clock, the store and the webhook dispatcher publish on it;
 * the loggers (plain, --json) and the terminal UI subscribe. Nothing that subscribes reaches
 * into the server's internals. The bus imports nothing but its own event shapes: a part that
 * publishes an event with a payload of its own adds it to BusEvents from its own module (as
 * src/webhooks/records.ts does for `webhook.attempt`).
 */
export interface BusEvents {
  /** An HTTP request was answered. */
  request: { method: string; path: string; status: number; ms: number; source?: string; mode?: string; namespace?: string };
  /** A domain event whose transaction is on disk. */
  domain: RaisedEvent;
  /** The clock moved forward and ran what fell due. */
  'clock.advanced': { now: number; ran: Record<string, number> };
  'config.reloaded': { path: string };
  'config.rejected': { path: string; error: string };
  /** A request failed inside the emulator (a 500); the server keeps serving. */
  'server.error': { method: string; path: string; error: string; stack?: string };
  'store.compacted': { ok: boolean; records?: number; error?: string };
}

/** A payload as heard on the process's bus: `namespace` names the named namespace it came from (absent: the default). */
export type Heard<K extends keyof BusEvents> = BusEvents[K] & { namespace?: string };

type Listener<K extends keyof BusEvents> = (payload: Heard<K>) => void;

export class Bus {
  private readonly listeners = new Map<keyof BusEvents, Set<Listener<never>>>();
  private onward: { bus: Bus; namespace: string | undefined } | undefined;

  /**
   * Every event emitted here is emitted on `bus` too, with `namespace` added to its payload
   * when given: each namespace's core has a bus of its own, and the process's bus (loggers,
   * the terminal UI, `emulator.bus`) hears them all.
   */
  forward(bus: Bus, namespace: string | undefined): void {
    this.onward = { bus, namespace };
  }

  on<K extends keyof BusEvents>(name: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Whether anyone listens: lets hot paths skip building a payload nobody reads. */
  has(name: keyof BusEvents): boolean {
    return (this.listeners.get(name)?.size ?? 0) > 0 || this.onward?.bus.has(name) === true;
  }

  emit<K extends keyof BusEvents>(name: K, payload: Heard<K>): void {
    const set = this.listeners.get(name);
    if (set) {
      for (const listener of set) {
        // A failing subscriber must not break the publisher (a request, a commit).
        try {
          (listener as Listener<K>)(payload);
        } catch (error) {
          process.emitWarning(`payemu: a ${String(name)} listener failed: ${(error as Error).message}`);
        }
      }
    }
    const onward = this.onward;
    // Only when heard there: a payload is copied for nobody otherwise.
    if (onward?.bus.has(name)) onward.bus.emit(name, onward.namespace === undefined ? payload : { ...payload, namespace: onward.namespace });
  }
}
