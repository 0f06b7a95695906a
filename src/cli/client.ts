import { createClient, type PayemuClient } from '../client/client.js';
import { isNamespaceName, NAMESPACE_NAME_RULE, namespacedKey, splitKey } from '../lib/namespace-name.js';
import { CliError, EXIT } from './errors.js';
import { isHttpUrl } from './option-values.js';

/**
 * How the commands that talk to a running emulator reach it: `--url` (or PAYEMU_URL, default
 * http://127.0.0.1:4242), `--key` (or PAYEMU_API_KEY, default the acme test key) and
 * `--namespace` (or PAYEMU_NAMESPACE, default none: the default namespace), which selects a
 * namespace by the key's `~NAME` suffix. Their failures become exit codes in main.ts (see errors.ts).
 */
export const DEFAULT_URL = 'http://127.0.0.1:4242';
export const DEFAULT_KEY = 'sk_test_payemu_acme';

/** The options every connecting command takes (declared once, by `client()` in main.ts). */
export interface ConnectOptions {
  url?: string;
  key?: string;
  namespace?: string;
}

/**
 * A client of the payemu at --url. `namespaced: false` for the commands about namespaces
 * themselves (`payemu namespaces`), which act with any key: the key is sent as it is.
 */
export function connect(options: ConnectOptions, { namespaced = true } = {}): PayemuClient {
  const url = options.url ?? process.env.PAYEMU_URL ?? DEFAULT_URL;
  // --url is checked as it is read (option-values.ts); PAYEMU_URL here, before any request.
  if (!isHttpUrl(url)) throw new CliError(`PAYEMU_URL: not an http:// or https:// URL: ${url} (e.g. http://127.0.0.1:4242)`, EXIT.usage);
  return createClient({ url, key: namespaced ? apiKey(options) : (options.key ?? process.env.PAYEMU_API_KEY ?? DEFAULT_KEY) });
}

/**
 * The namespace the command acts in: --namespace, else PAYEMU_NAMESPACE, else `undefined` (the
 * default namespace). --namespace is checked as it is read (option-values.ts), PAYEMU_NAMESPACE
 * here, before any request.
 */
export function namespaceOf(options: ConnectOptions): string | undefined {
  const namespace = options.namespace ?? process.env.PAYEMU_NAMESPACE;
  if (namespace !== undefined && !isNamespaceName(namespace))
    throw new CliError(`${namespaceFrom(options)}: not a namespace name: "${namespace}" (${NAMESPACE_NAME_RULE})`, EXIT.usage);
  return namespace;
}

/**
 * The key sent: --key or PAYEMU_API_KEY, with `~NAME` appended for the namespace. A key that
 * names a namespace already (`KEY~w3`) and a namespace given besides is refused rather than one
 * of the two picked silently.
 */
export function apiKey(options: ConnectOptions): string {
  const key = options.key ?? process.env.PAYEMU_API_KEY ?? DEFAULT_KEY;
  const namespace = namespaceOf(options);
  if (namespace === undefined) return key;
  const suffix = splitKey(key).namespace;
  if (suffix !== undefined) {
    throw new CliError(
      `${options.key === undefined ? 'PAYEMU_API_KEY' : '--key'} names namespace "${suffix}" already (its ~${suffix} suffix) and ${namespaceFrom(options)} names "${namespace}": give the namespace once, by one or the other`,
      EXIT.usage,
    );
  }
  return namespacedKey(key, namespace);
}

const namespaceFrom = (options: ConnectOptions) => (options.namespace === undefined ? 'PAYEMU_NAMESPACE' : '--namespace');
