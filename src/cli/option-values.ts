import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../clock/duration.js';
import { FAULT_METHODS, MAX_FAULT_TIMES, MAX_LATENCY_MS } from '../lib/faults.js';
import { isNamespaceName, NAMESPACE_NAME_RULE } from '../lib/namespace-name.js';
import { REQUEST_METHOD, REQUEST_STATUS } from '../lib/request-filter.js';
import { failureCode } from '../schemas/payments.js';
import { parseChaosList } from '../webhooks/chaos.js';

/**
 * The option values and arguments the command line judges itself, as commander's parsers: a bad
 * one is a usage error (exit 2: one line naming the option and what it takes, main.ts) found
 * while the command line is read, before any request, so the same with no emulator running.
 * Each takes what the emulator takes, by the same parser or limits where they are shared
 * (durations, fault fields). What only the emulator can judge (a time in the past, a fault that
 * does nothing, an unknown id) stays its refusal, exit 1.
 */

/** A duration as the emulator reads it (`30d`, `12h`, `250ms`, or seconds); passed on as given. */
export function duration(value: string): string {
  if (parseDuration(value) === undefined) throw new InvalidArgumentError('must be a duration: 10s, 500ms, 2m.');
  return value;
}

/** `clock advance`'s argument: the same durations, with the units it takes named. */
export function advanceBy(value: string): string {
  if (parseDuration(value) === undefined) throw new InvalidArgumentError('must be a duration: 30d, 12h, 90m, 45s, 250ms, 2w, or a number of seconds.');
  return value;
}

/** `fault add --latency`: a duration of at most a minute, in milliseconds. */
export function latency(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms > MAX_LATENCY_MS) throw new InvalidArgumentError(`must be a duration of at most ${MAX_LATENCY_MS / 1000}s, such as 250ms or 2s.`);
  return ms;
}

/** A whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number, what = 'a whole number'): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be ${what} from ${min} to ${max}.`);
    return n;
  };
}

export const count = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number, 0 or more.');
  return n;
};

export const port = wholeNumber(0, 65535, 'a port number');

/** `--limit` of the lists the control plane answers (events, requests). */
export const limit = wholeNumber(1, 1000);

export const faultStatus = wholeNumber(400, 599, 'a status code');
export const faultTimes = wholeNumber(1, MAX_FAULT_TIMES);
export const faultSeed = wholeNumber(0, 4_294_967_295);

/** A chance from 0 to 1. */
export function probability(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('must be a number from 0 to 1, such as 0.25.');
  return n;
}

/** `fault add --method`: one the faults take, in any letter case. */
export function faultMethod(value: string): (typeof FAULT_METHODS)[number] {
  const method = value.toUpperCase() as (typeof FAULT_METHODS)[number];
  if (!FAULT_METHODS.includes(method)) throw new InvalidArgumentError(`must be one of ${FAULT_METHODS.join(', ')}.`);
  return method;
}

/** `requests --method`: an HTTP method, as the request journal's filter takes it. */
export function requestMethod(value: string): string {
  if (!REQUEST_METHOD.test(value)) throw new InvalidArgumentError('must be an HTTP method, such as POST.');
  return value;
}

/** `requests --status`: a status code or a class, as the request journal's filter takes it. */
export function statusFilter(value: string): string {
  if (!REQUEST_STATUS.test(value)) throw new InvalidArgumentError('must be a status code (422) or a class (4xx).');
  return value;
}

const OUTCOMES: readonly string[] = ['approved', ...failureCode.enum];

/** `outcome add --sequence`: outcomes separated by commas; passed on as given. */
export function outcomeSequence(value: string): string {
  const steps = value
    .split(',')
    .map((step) => step.trim())
    .filter(Boolean);
  const unknown = steps.find((step) => !OUTCOMES.includes(step));
  if (steps.length === 0 || unknown !== undefined)
    throw new InvalidArgumentError(`must be outcomes separated by commas, each one of ${OUTCOMES.join(', ')}${unknown ? ` (not ${unknown})` : ''}.`);
  return value;
}

/** `--url`: where an emulator may be, an http:// or https:// URL. */
export function emulatorUrl(value: string): string {
  if (!isHttpUrl(value)) throw new InvalidArgumentError('must be an http:// or https:// URL, such as http://127.0.0.1:4242.');
  return value;
}

/** `--namespace`: a name the key's `~NAME` suffix can carry. */
export function namespaceName(value: string): string {
  if (!isNamespaceName(value))
    throw new InvalidArgumentError(`must be a namespace name: ${NAMESPACE_NAME_RULE.replace(/^a namespace name is /, '')}, such as w3.`);
  return value;
}

export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** `--webhook-chaos`: checked here, so a wrong item is a usage error naming it; passed on as given. */
export function chaosList(value: string): string {
  try {
    parseChaosList(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}
