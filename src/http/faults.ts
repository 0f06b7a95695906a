import type { Mode, PayemuConfig, SourceConfig } from '../config/types.js';
import { draw, type FaultSpec, faultProblem, matchesPath, withDefaults } from '../lib/faults.js';
import { newId } from '../lib/ids.js';
import { byScope, scopeKey } from '../lib/scope-key.js';
import { collection } from '../store/collection.js';
import type { Store, Transaction } from '../store/store.js';
import type { IncomingMessage } from 'node:http';
import type { Scope } from './auth.js';
import { readJson } from './body.js';
import { captureOf } from './body-capture.js';
import type { Reply } from './envelope.js';
import { HttpError } from './errors.js';
import { faultRecordSchema } from './record-schema.js';

/**
 * Faults on /v1 requests (docs/control-plane.md, "Faults"): stored per Source and mode, so a
 * reset clears them and a restart of a file-backed store keeps them. The generator's state and
 * the hit count are stored with each fault: a run repeats exactly, and a retired fault is gone.
 */
export interface FaultRecord extends FaultSpec {
  /** `flt_` + 24 base62. */
  id: string;
  source: string;
  mode: Mode;
  hits: number;
  /** The generator's state (starts at the seed). */
  rng: number;
  /** From the config file: put back on start, on a reset of its scope and when its Source's list changes. */
  config: boolean;
  created_at: number;
}

export const Faults = collection<FaultRecord>('faults', { scope: byScope }, undefined, faultRecordSchema, storedFaultProblem);

/**
 * A stored fault breaks what POST /_payemu/faults checks between fields, or has already acted
 * its `times` (it would have retired): a snapshot document's fault is held to what payemu writes.
 */
function storedFaultProblem(fault: FaultRecord): [field: string, message: string] | undefined {
  if (fault.times !== null && fault.hits >= fault.times)
    return ['hits', `The hits field must be below times (${fault.times}): a fault retires once it has acted its times.`];
  return faultProblem(fault);
}

const MODES: readonly Mode[] = ['test', 'live'];

export function newFault(spec: FaultSpec, scope: { source: string; mode: Mode }, now: number, config = false): FaultRecord {
  return { id: newId('flt_'), ...spec, source: scope.source, mode: scope.mode, hits: 0, rng: spec.seed >>> 0, config, created_at: now };
}

/** The wire shape: the spec with its defaults, `id` and `hits`. */
export function presentFault(f: FaultRecord) {
  const { id, method, path, status, body, latency_ms, drop, apply, probability, times, seed, hits } = f;
  return { id, method, path, status, body, latency_ms, drop, apply, probability, times, seed, hits };
}

/** The faults of a scope, oldest first. */
export function faultsOf(store: Store, source: string, mode: Mode): FaultRecord[] {
  return store.find(Faults, 'scope', scopeKey(source, mode));
}

/**
 * The fault that acts on this request, if one does; its hit is counted (and the fault retired
 * after its `times`) before the answer. The faults of the scope that match the method and path
 * are tried oldest first, each drawing from its own generator; the first whose draw falls under
 * its probability acts, and those after it are not tried. With no fault stored anywhere this is
 * one map look-up: the hot path pays nothing more.
 */
export function faultFor(store: Store, scope: Scope, method: string, path: string): FaultRecord | undefined {
  if (store.count(Faults) === 0) return undefined;
  const key = scopeKey(scope.source.slug, scope.mode);
  if (store.countIndex(Faults, 'scope', key) === 0) return undefined;
  const candidates = store.find(Faults, 'scope', key).filter((f) => (f.method === null || f.method === method) && matchesPath(f.path, path));
  if (candidates.length === 0) return undefined;
  return store.transaction((tx) => {
    for (const fault of candidates) {
      const [value, rng] = draw(fault.rng);
      if (value >= fault.probability) {
        tx.put(Faults, { ...fault, rng });
        continue;
      }
      const acted = { ...fault, rng, hits: fault.hits + 1 };
      if (acted.times !== null && acted.hits >= acted.times) tx.delete(Faults, fault.id);
      else tx.put(Faults, acted);
      return acted;
    }
    return undefined;
  });
}

/** The fault's own answer: its body, or the error envelope; a 429 says when to retry. */
export function faultReply(fault: FaultRecord): Reply {
  const status = fault.status!;
  const headers = status === 429 ? { 'Retry-After': '1' } : undefined;
  if (fault.body !== null) return { status, json: fault.body, headers };
  const done = fault.apply ? 'the request was carried out' : 'nothing was changed';
  const error = new HttpError(status, `The fault ${fault.id} answered this request with ${status}; ${done}.`);
  return { status, json: error.toJSON(), headers };
}

/**
 * Reads the body of a faulted request whose route reads none (GET, DELETE), for the request
 * journal, which keeps what the client sent, faulted or not: only when the journal records the
 * request and nothing read the body yet. A body the route would refuse (not JSON, too deep, too
 * large) is kept as the journal keeps any refused body; the refusal is not the answer.
 */
export async function readBodyForJournal(req: IncomingMessage): Promise<void> {
  const capture = captureOf(req);
  if (capture === undefined || capture.requestRaw !== undefined || req.readableEnded) return;
  try {
    await readJson(req);
  } catch {
    // What was read is in the capture; the fault answers.
  }
}

/** Puts the Source's config faults afresh (hits 0, generators at their seeds) in `modes`, replacing those there. */
export function putConfigFaults(tx: Transaction, source: SourceConfig, modes: readonly Mode[], now: number): void {
  for (const mode of modes) {
    for (const fault of tx.find(Faults, 'scope', scopeKey(source.slug, mode))) if (fault.config) tx.delete(Faults, fault.id);
    for (const input of source.faults ?? []) tx.put(Faults, newFault(withDefaults(input), { source: source.slug, mode }, now, true));
  }
}

/**
 * At start: every Source's config faults afresh in both modes (a Source's `faults` act in test
 * and live mode alike, each mode with its own hits and generator); config faults of Sources no
 * longer configured are removed.
 */
export function installConfigFaults(store: Store, config: PayemuConfig, now: number): void {
  store.transaction((tx) => {
    for (const fault of store.all(Faults)) if (fault.config) tx.delete(Faults, fault.id);
    for (const source of config.sources) putConfigFaults(tx, source, MODES, now);
  });
}

/**
 * On a config reload: a Source whose `faults` list changed (or that was removed) has its config
 * faults put afresh; one whose list is unchanged keeps them as they stand (hits, retired ones).
 */
export function reloadConfigFaults(store: Store, previous: PayemuConfig, next: PayemuConfig, now: number): void {
  const listOf = (config: PayemuConfig, slug: string) => JSON.stringify(config.sources.find((s) => s.slug === slug)?.faults ?? []);
  const slugs = new Set([...previous.sources, ...next.sources].map((s) => s.slug));
  const changed = [...slugs].filter((slug) => listOf(previous, slug) !== listOf(next, slug));
  if (changed.length === 0) return;
  store.transaction((tx) => {
    for (const slug of changed) {
      const source = next.sources.find((s) => s.slug === slug) ?? ({ slug, faults: [] } as unknown as SourceConfig);
      putConfigFaults(tx, source, MODES, now);
    }
  });
}
