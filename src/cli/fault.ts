import type { FaultInput, FaultView } from '../client/types.js';
import { type ConnectOptions, connect } from './client.js';
import { output } from './output.js';

interface Options extends ConnectOptions {
  json?: boolean;
}

/** As the command line read them: each value checked already (option-values.ts). */
export interface AddOptions extends Options {
  path: string;
  method?: FaultInput['method'];
  status?: number;
  /** Milliseconds. */
  latency?: number;
  drop?: boolean;
  apply?: boolean;
  probability?: number;
  times?: number;
  seed?: number;
}

/** `payemu fault add --path P ...`: a fault on the key's Source and mode's /v1 requests. */
export async function add(options: AddOptions): Promise<void> {
  const fault: FaultInput = { path: options.path };
  if (options.method !== undefined) fault.method = options.method;
  if (options.status !== undefined) fault.status = options.status;
  if (options.latency !== undefined) fault.latency_ms = options.latency;
  if (options.drop) fault.drop = true;
  if (options.apply) fault.apply = true;
  if (options.probability !== undefined) fault.probability = options.probability;
  if (options.times !== undefined) fault.times = options.times;
  if (options.seed !== undefined) fault.seed = options.seed;
  const out = output(options);
  const added = await connect(options).addFault(fault);
  out.result(added, () => `added ${describe(added)}`);
}

/** `payemu fault list`: the faults of the key's Source and mode, oldest (first to act) first. */
export async function list(options: Options): Promise<void> {
  const out = output(options);
  const faults = await connect(options).faults();
  if (out.json) return out.line(JSON.stringify(faults));
  if (faults.length === 0) return out.line('no faults');
  for (const fault of faults) out.line(describe(fault));
}

/** `payemu fault remove ID`. */
export async function remove(id: string, options: Options): Promise<void> {
  const out = output(options);
  const removed = await connect(options).removeFault(id);
  out.result(removed, () => `removed ${removed.id}`);
}

/** `payemu fault clear`: every fault of the key's Source and mode. */
export async function clear(options: Options): Promise<void> {
  const out = output(options);
  const result = await connect(options).clearFaults();
  out.result(result, () => `removed ${result.removed} fault${result.removed === 1 ? '' : 's'}`);
}

/** `flt_...  POST /v1/payments/*\/refunds  wait 2000 ms, 503, applied  hits 1/2  probability 1, seed 7`. */
function describe(f: FaultView): string {
  const effect = [
    ...(f.latency_ms > 0 ? [`wait ${f.latency_ms} ms`] : []),
    ...(f.drop ? ['drop the connection'] : []),
    ...(f.status !== null ? [`answer ${f.status}${f.body !== null ? ' (own body)' : ''}`] : []),
    ...(f.apply ? ['after running the request'] : []),
  ].join(', ');
  const hits = f.times === null ? `hits ${f.hits}` : `hits ${f.hits}/${f.times}`;
  return `${f.id}  ${f.method ?? 'any'} ${f.path}  ${effect}  ${hits}  probability ${f.probability}, seed ${f.seed}`;
}
