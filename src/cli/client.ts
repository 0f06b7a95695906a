import { createClient, type PayemuClient } from '../client/client.js';
import { CliError, EXIT } from './errors.js';
import { isHttpUrl } from './option-values.js';

/**
 * How the commands that talk to a running emulator reach it: `--url` (or PAYEMU_URL, default
 * http://127.0.0.1:4242) and `--key` (or PAYEMU_API_KEY, default the acme test key). Their
 * failures become exit codes in main.ts (see errors.ts).
 */
export const DEFAULT_URL = 'http://127.0.0.1:4242';
export const DEFAULT_KEY = 'sk_test_payemu_acme';

export function connect(options: { url?: string; key?: string }): PayemuClient {
  const url = options.url ?? process.env.PAYEMU_URL ?? DEFAULT_URL;
  // --url is checked as it is read (option-values.ts); PAYEMU_URL here, before any request.
  if (!isHttpUrl(url)) throw new CliError(`PAYEMU_URL: not an http:// or https:// URL: ${url} (e.g. http://127.0.0.1:4242)`, EXIT.usage);
  return createClient({ url, key: options.key ?? process.env.PAYEMU_API_KEY ?? DEFAULT_KEY });
}
