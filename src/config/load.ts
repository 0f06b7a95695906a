import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { faultProblem } from '../lib/faults.js';
import { precompiled } from '../lib/precompiled.js';
import { createAjv, toFieldErrors } from '../lib/schemas.js';
import { configSchema, newSourceDefaults, SOURCE_FIELDS_WITHOUT_DEFAULT, userConfigSchema } from './schema.js';
import type { PayemuConfig, SourceConfig } from './types.js';

/** A config that cannot be used; the message names the file and the field. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULT_CONFIG_FILE = fileURLToPath(new URL('../../fixtures/payemu.config.json', import.meta.url));

// A build's validators (lib/precompiled.ts), else compiled on first use: a run on the embedded
// defaults alone never validates anything, and compiling these schemas would hold up start-up.
let validators: { user: ValidateFunction; full: ValidateFunction } | undefined;
function configValidators(): { user: ValidateFunction; full: ValidateFunction } {
  if (!validators) {
    let ajv: ReturnType<typeof createAjv> | undefined;
    const get = (schema: object) => precompiled('config', schema) ?? (ajv ??= createAjv()).compile(schema);
    validators = { user: get(userConfigSchema), full: get(configSchema) };
  }
  return validators;
}

type UserSource = Partial<SourceConfig> & { slug: string; tax?: Partial<SourceConfig['tax']> };
interface UserConfig {
  defaults?: boolean;
  merchant?: { name?: string };
  sources?: UserSource[];
}

let defaults: PayemuConfig | undefined;

/** The embedded default config (fixtures/payemu.config.json). */
export function defaultConfig(): PayemuConfig {
  defaults ??= parseConfigText(fs.readFileSync(DEFAULT_CONFIG_FILE, 'utf8'), DEFAULT_CONFIG_FILE) as PayemuConfig;
  return structuredClone(defaults);
}

/**
 * Which file configures this run: `--config FILE`, else `payemu.config.json` in the working
 * directory when there is one, else none (the defaults alone).
 */
export function resolveConfigFile(explicit: string | undefined, cwd: string): string | undefined {
  if (explicit) return path.resolve(cwd, explicit);
  const local = path.join(cwd, 'payemu.config.json');
  return fs.existsSync(local) ? local : undefined;
}

/** The largest config file payemu reads: the defaults take 2 KiB; a catalogue of thousands fits. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads, validates and merges a user config onto the defaults (Sources matched by slug). */
export function loadConfig(file: string | undefined): PayemuConfig {
  if (!file) return defaultConfig();
  return buildConfig(parseConfigText(readConfigFile(file), file), `config ${file}`);
}

/**
 * The text of a config file, checked before it is read: a regular file (links followed) of at
 * most MAX_CONFIG_BYTES. It is opened non-blocking and checked with fstat, so a FIFO (which
 * would block the open, then the read, until a writer came) or a device such as /dev/zero
 * (endless) is refused at once, and the file checked is the file read. At most one byte more
 * than the limit is read: a file that grew after the check is refused too.
 */
function readConfigFile(file: string): string {
  const cannot = (cause: string) => new ConfigError(`cannot read config ${file}: ${cause}`);
  let fd: number;
  try {
    // O_NONBLOCK does not exist on Windows (0 there), where a FIFO cannot be a path anyway.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw cannot((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw cannot(`not a regular file (${fileKind(stat)}); a config must be a JSON file`);
    const tooLarge = () => cannot(`the file is over ${MAX_CONFIG_BYTES} bytes (1 MiB), the most a config may hold`);
    if (stat.size > MAX_CONFIG_BYTES) throw tooLarge();
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > MAX_CONFIG_BYTES) throw tooLarge();
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw cannot((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  } finally {
    fs.closeSync(fd);
  }
}

function fileKind(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

/** Merges a parsed user config (or an object given to startEmulator) onto the defaults. */
export function buildConfig(user: unknown, label = 'config'): PayemuConfig {
  const { user: validateUser, full: validateFull } = configValidators();
  // JSON.parse reads 1e309 as Infinity, which no schema keyword refuses (and JSON.stringify
  // shows as null): every number anywhere in the config must be finite.
  const unusable = unusableValue(user);
  if (unusable !== undefined) throw new ConfigError(`invalid ${label}: ${firstError({ [unusable.at]: [unusable.message] }, user)}`);
  if (!validateUser(user)) throw new ConfigError(`invalid ${label}: ${firstError(toFieldErrors(validateUser), user)}`);
  const config = merge(user as UserConfig, label);
  if (!validateFull(config)) throw new ConfigError(`invalid ${label}: ${firstError(toFieldErrors(validateFull), config)}`);
  checkUnique(config, label);
  return config;
}

/** How deep a config may nest: far more than any field needs, far less than what overflows the stack when a fault's `body` is answered. */
const MAX_CONFIG_DEPTH = 100;

/**
 * The first value in `value` payemu cannot use, with its path (`sources.0.tax.rate`): a number
 * that is not finite, or an object or array nested deeper than MAX_CONFIG_DEPTH levels (a
 * fault's free-form `body` 5,000 levels deep would overflow the stack when it is answered).
 * Walked with a stack of its own, not by recursion, so the walk itself cannot overflow.
 */
function unusableValue(value: unknown): { at: string; message: string } | undefined {
  const pending: [unknown, string, number][] = [[value, '', 1]];
  while (pending.length > 0) {
    const [item, at, depth] = pending.pop()!;
    if (typeof item === 'number' && !Number.isFinite(item)) return { at: at || 'config', message: `The ${at || 'config'} field must be a finite number.` };
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_CONFIG_DEPTH)
      return { at: at || 'config', message: `The ${at || 'config'} field is nested too deeply: the config may nest at most ${MAX_CONFIG_DEPTH} levels.` };
    const entries = Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i]![1], at ? `${at}.${entries[i]![0]}` : entries[i]![0], depth + 1]);
  }
  return undefined;
}

function parseConfigText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`invalid config ${file}: not valid JSON (${(error as Error).message})`);
  }
}

function merge(user: UserConfig, label: string): PayemuConfig {
  const base: PayemuConfig = user.defaults === false ? { merchant: { name: 'payemu' }, sources: [] } : defaultConfig();
  const merchant = { ...base.merchant, ...user.merchant };
  const sources = [...base.sources];
  for (const override of user.sources ?? []) {
    const index = sources.findIndex((s) => s.slug === override.slug);
    // A new slug starts from the defaults of a new Source; only its identity and keys must be given.
    const current = index >= 0 ? sources[index]! : { ...newSourceDefaults(override.slug), slug: override.slug };
    if (index < 0) checkIdentity(override, sources.length, label);
    // Fields override one by one; `tax` merges one level down so `{"tax": {"enabled": true}}` works.
    const merged = { ...current, ...override, tax: { ...current.tax, ...override.tax } } as SourceConfig;
    if (index >= 0) sources[index] = merged;
    else sources.push(merged);
  }
  return { merchant, sources };
}

/** A new Source must name what has no default; the error names the first field missing (at the
 * Source's index in the merged config, as validation errors do) and all of them. */
function checkIdentity(source: UserSource, index: number, label: string): void {
  const missing = SOURCE_FIELDS_WITHOUT_DEFAULT.filter((field) => source[field] === undefined);
  if (missing.length === 0) return;
  const list = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0];
  throw new ConfigError(
    `invalid ${label}: sources.${index}.${missing[0]} (Source "${source.slug}"): the ${list} field${missing.length > 1 ? 's are' : ' is'} required for a new Source (it has no default; every other field has one).`,
  );
}

function checkUnique(config: PayemuConfig, label: string): void {
  const seen = new Map<string, string>();
  config.sources.forEach((source, i) => {
    for (const field of ['slug', 'test_key', 'live_key', 'webhook_secret'] as const) {
      const value = `${field === 'slug' ? 'slug' : 'key'}:${source[field]}`;
      if (seen.has(value)) throw new ConfigError(`invalid ${label}: sources.${i}.${field} repeats ${seen.get(value)}`);
      seen.set(value, `sources.${i}.${field}`);
    }
    source.faults?.forEach((fault, j) => {
      const problem = faultProblem(fault);
      if (problem) throw new ConfigError(`invalid ${label}: sources.${i}.faults.${j}.${problem[0]} (Source "${source.slug}"): ${problem[1]}`);
    });
    const ids = new Set<number>();
    source.products.forEach((product, j) => {
      if (ids.has(product.id)) throw new ConfigError(`invalid ${label}: sources.${i}.products.${j}.id repeats product id ${product.id}`);
      ids.add(product.id);
    });
  });
}

function firstError(errors: Record<string, string[]>, config?: unknown): string {
  const [field, messages] = Object.entries(errors)[0] ?? ['config', ['is invalid']];
  if (field === 'body') return 'the config must be a JSON object';
  // `sources.2` means little to the user (after the merge, not even their own index): name
  // the Source by its slug too.
  const index = /^sources\.(\d+)/.exec(field)?.[1];
  const sources = (config as { sources?: unknown } | null | undefined)?.sources;
  const slug = index !== undefined && Array.isArray(sources) ? (sources[Number(index)] as { slug?: unknown } | undefined)?.slug : undefined;
  const where = typeof slug === 'string' ? `${field} (Source "${slug}")` : field;
  return `${where}: ${messages![0]}${messages!.length > 1 ? ` (and ${messages!.length - 1} more)` : ''}`;
}
