import { resolveConfigFile } from '../config/load.js';
import type { EmulatorOptions } from '../emulator.js';

/** The options of `payemu start` (`payemu exec` takes them too), as commander parses them. */
export interface StartOptions {
  port: number;
  host: string;
  allowedHost?: string[];
  data: string;
  inMemory?: boolean;
  config?: string;
  rateLimit?: boolean;
  webhookUrl?: string;
  webhookBackoff: string;
  webhookTimeout: string;
  webhookChaos?: string;
  strictWebhookUrls?: boolean;
  clockStart?: string;
  freezeClock?: boolean;
  journalSize?: number;
  maxNamespaces?: number;
  ui: boolean;
  json?: boolean;
  log?: string;
  import?: string;
  exportOnExit?: string;
}

/**
 * The start options `payemu start` and `payemu exec` share, as the emulator takes them. Where the
 * emulator listens and what it keeps on disk (port, data directory, in memory) differ between the
 * two commands, so each adds those itself.
 */
export function emulatorOptions(options: Partial<StartOptions>): EmulatorOptions {
  return {
    host: options.host,
    allowedHosts: options.allowedHost,
    config: resolveConfigFile(options.config, process.cwd()),
    rateLimit: options.rateLimit,
    webhookUrl: options.webhookUrl,
    webhookBackoff: options.webhookBackoff,
    webhookTimeout: options.webhookTimeout,
    webhookChaos: options.webhookChaos,
    strictWebhookUrls: options.strictWebhookUrls,
    clockStart: options.clockStart,
    freezeClock: options.freezeClock,
    import: options.import,
    exportOnExit: options.exportOnExit,
    journalSize: options.journalSize,
    maxNamespaces: options.maxNamespaces,
  };
}
