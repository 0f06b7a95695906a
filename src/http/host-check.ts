import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { Forbidden } from './errors.js';

/**
 * The guard against DNS rebinding. A web page on `evil.example` can point its own name at
 * 127.0.0.1 and then read payemu's answers as if they were its own origin; what gives it away is
 * the `Host` header, which still says `evil.example`. So while payemu listens on a loopback
 * address it answers only the names that reach it from this machine (`localhost`, `127.0.0.1`,
 * `[::1]`, the address it is bound to) and the names given with `--allowed-host`, on any port.
 *
 * A request with no Host header at all passes: HTTP/1.0 clients (and hand-written probes) send
 * none, and a browser always sends one, so refusing them would break tools and stop no attack.
 *
 * Bound to any other address (`--host 0.0.0.0`, a LAN address), payemu is meant to be reached
 * by other names (a container's, a machine's), and nothing is checked.
 */
export type HostCheck = (req: IncomingMessage) => Forbidden | undefined;

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The check for a server bound to `address`, or undefined when there is nothing to check. */
export function hostCheck(address: string, allowedHosts: readonly string[] = []): HostCheck | undefined {
  if (!isLoopbackAddress(address)) return undefined;
  const names = new Set([...LOOPBACK_NAMES, asHostName(address), ...allowedHosts.map((name) => normalizeAllowedHost(name) ?? name)]);
  // Headers already accepted, as sent: a client sends the same Host on every request, so the
  // check is usually one look-up. Bounded, as ports make many spellings of one name.
  const accepted = new Set<string>();
  return (req) => {
    const header = req.headers.host;
    if (header === undefined || accepted.has(header)) return undefined;
    const name = hostNameOf(header);
    if (name !== undefined && names.has(name)) {
      if (accepted.size < 16) accepted.add(header);
      return undefined;
    }
    const shown = header.length > 200 ? `${header.slice(0, 200)}...` : header;
    const hint = name ? ` Start payemu with --allowed-host ${name.replace(/^\[|\]$/g, '')} to answer it.` : '';
    return new Forbidden(
      `The Host header ${JSON.stringify(shown)} is not a name payemu answers to while it listens on a loopback address (localhost, 127.0.0.1, [::1]): this guards against DNS rebinding.${hint}`,
    );
  };
}

/**
 * A name for `--allowed-host` as a Host header would carry it: lower case, an IPv6 address in
 * brackets. Undefined when it is not a host name alone (a scheme, a port, a path).
 */
export function normalizeAllowedHost(name: string): string | undefined {
  const lower = name.trim().toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  if (isIP(bare) === 6) return `[${bare}]`;
  if (isIP(bare) === 4) return bare;
  // Letters, digits, hyphens and underscores (container and compose service names have them).
  return /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/.test(lower) && lower.length <= 253 ? lower : undefined;
}

/** The host name of a Host header without its port, lower case; undefined when malformed. */
function hostNameOf(header: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d*)?$/i.exec(header.trim());
  return match?.[1]?.toLowerCase();
}

function asHostName(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}

function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  const lower = address.toLowerCase();
  return lower === '::1' || lower.startsWith('::ffff:127.');
}
