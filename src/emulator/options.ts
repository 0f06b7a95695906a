import path from 'node:path';
import { parseDuration } from '../clock/duration.js';
import { ConfigError } from '../config/load.js';
import type { SnapshotDocument } from '../control/snapshot.js';
import { normalizeAllowedHost } from '../http/host-check.js';
import { DEFAULT_JOURNAL_SIZE } from '../http/request-journal.js';
import type { Route } from '../http/route.js';
import { isSafeUrl } from '../lib/schemas.js';
import { DEFAULT_BACKOFF_MS, DEFAULT_TIMEOUT_MS, parseBackoff } from '../webhooks/backoff.js';
import { checkChaos, parseChaosList, type WebhookChaosSettings } from '../webhooks/chaos.js';
import type { DispatcherOptions } from '../webhooks/dispatcher.js';

export interface EmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Host names answered besides localhost, 127.0.0.1 and [::1] while bound to a loopback
   * address; any other `Host` header is a 403 (a guard against DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /** Data directory of a file-backed store (default `.payemu` when `inMemory` is false). */
  dataDir?: string;
  /** Keep nothing on disk. Default true for the library, false for `payemu start`. */
  inMemory?: boolean;
  /** A config file path (watched for changes) or a config object, merged onto the defaults. */
  config?: string | Record<string, unknown>;
  /**
   * @internal Without `config`: a config file that does not exist yet, loaded (and then
   * watched) once it is created (`payemu start` passes `./payemu.config.json`).
   */
  configFileIfCreated?: string;
  /** Answer 429 once a Source's per-minute limit is used up, whatever its config says. */
  rateLimit?: boolean;
  /** Where the virtual clock starts on a new store: an ISO 8601 timestamp or epoch ms. */
  clockStart?: string | number;
  /** The clock moves only on advance. */
  freezeClock?: boolean;
  /** Journal bytes after which it is compacted into the snapshot (default 64 MiB). */
  compactAfterBytes?: number;
  /** Webhook endpoint for every Source whose config has no `webhook_url`. */
  webhookUrl?: string;
  /** Waits before retries 1, 2 and 3: `"1s,5s,25s"` (the default) or milliseconds. */
  webhookBackoff?: string | number[];
  /** How long a delivery may take: a duration (`"10s"`, the default) or milliseconds. */
  webhookTimeout?: string | number;
  /** Refuse private and reserved webhook addresses, as the real service does. */
  strictWebhookUrls?: boolean;
  /**
   * A snapshot to start from (a file written by `payemu export` or `exportOnExit`, or the
   * document): an `all` snapshot replaces everything and sets the clock, one of a Source and
   * mode replaces that scope.
   */
  import?: string | SnapshotDocument;
  /** On `close()`, write a snapshot of everything (`all`) to this file first. */
  exportOnExit?: string;
  /**
   * Webhook chaos for every Source, in both modes (docs/chaos.md): settings, or a list as
   * `--webhook-chaos` takes it (`"duplicate=0.2,delay=5s,seed=7"`). Stored, replacing what each
   * Source had; it outlives a restart without the option (clear it with `webhookChaos.clear`).
   */
  webhookChaos?: WebhookChaosSettings | string;
  /** How many `/v1` requests the request journal keeps per Source and mode (default 1,000; 0 keeps none). */
  journalSize?: number;
  /**
   * How many named namespaces payemu holds at most (default 256; the default namespace is not
   * counted): a request that would make one more is a 429. 0 allows none.
   */
  maxNamespaces?: number;
  /** @internal Routes added to the catalogue's, for tests of the HTTP layer itself. */
  extraRoutes?: readonly Route[];
}

/** The options `startEmulator` checks before it creates anything, as the parts take them. */
export interface CheckedOptions {
  allowedHosts: string[];
  /** The data directory, resolved; undefined in memory. */
  dataDir: string | undefined;
  dispatcherOptions: DispatcherOptions;
  /** Webhook chaos for every Source, when the option gives some. */
  startChaos: WebhookChaosSettings | undefined;
  journalSize: number;
  maxNamespaces: number;
}

/** The named namespaces a payemu holds unless `maxNamespaces` says otherwise. */
export const DEFAULT_MAX_NAMESPACES = 256;

/** Checked in this order, each bad one a ConfigError naming its flag (the config is loaded before). */
export function checkOptions(options: EmulatorOptions): CheckedOptions {
  const allowedHosts = (options.allowedHosts ?? []).map((name) => {
    const normalized = normalizeAllowedHost(name);
    if (normalized === undefined) throw new ConfigError(`--allowed-host: not a host name: ${name} (give the name alone, without scheme or port)`);
    return normalized;
  });
  const inMemory = options.inMemory ?? true;
  const dataDir = inMemory ? undefined : path.resolve(options.dataDir ?? '.payemu');
  const dispatcherOptions = webhookOptions(options); // checked before the store creates anything
  const startChaos = chaosOption(options.webhookChaos);
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  if (!Number.isSafeInteger(journalSize) || journalSize < 0)
    throw new ConfigError(`--journal-size: not a number of requests (0 or more): ${options.journalSize}`);
  const maxNamespaces = options.maxNamespaces ?? DEFAULT_MAX_NAMESPACES;
  if (!Number.isSafeInteger(maxNamespaces) || maxNamespaces < 0)
    throw new ConfigError(`--max-namespaces: not a number of namespaces (0 or more): ${options.maxNamespaces}`);
  return { allowedHosts, dataDir, dispatcherOptions, startChaos, journalSize, maxNamespaces };
}

function webhookOptions(options: EmulatorOptions): DispatcherOptions {
  const backoff = options.webhookBackoff;
  const timeout =
    typeof options.webhookTimeout === 'number'
      ? options.webhookTimeout
      : options.webhookTimeout === undefined
        ? DEFAULT_TIMEOUT_MS
        : parseDuration(options.webhookTimeout);
  if (timeout === undefined || timeout <= 0) throw new ConfigError(`--webhook-timeout: not a duration: ${options.webhookTimeout}`);
  let backoffMs = DEFAULT_BACKOFF_MS;
  try {
    if (typeof backoff === 'string') backoffMs = parseBackoff(backoff);
    else if (backoff) backoffMs = backoff;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (options.webhookUrl !== undefined && !isSafeUrl(options.webhookUrl))
    throw new ConfigError(`--webhook-url must be an absolute http:// or https:// URL, not ${options.webhookUrl}`);
  return { webhookUrl: options.webhookUrl, backoffMs, timeoutMs: timeout, strictUrls: options.strictWebhookUrls === true };
}

/** `webhookChaos` checked: the settings for every Source, or a ConfigError naming what is wrong. */
function chaosOption(value: WebhookChaosSettings | string | undefined): WebhookChaosSettings | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    try {
      return parseChaosList(value);
    } catch (error) {
      throw new ConfigError(`--webhook-chaos: ${(error as Error).message}`);
    }
  }
  const checked = checkChaos(value);
  if ('field' in checked) throw new ConfigError(`--webhook-chaos: ${checked.field}: ${checked.message}`);
  return checked.settings;
}
