import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Mode, PayemuConfig, SourceConfig } from '../config/types.js';
import { Forbidden, Unauthorized } from './errors.js';

/** Who is calling: a Source in one mode. Every read and write is scoped to it. */
export interface Scope {
  source: SourceConfig;
  mode: Mode;
}

/** Secret key -> Scope, rebuilt whenever the config changes. */
export class Keyring {
  private keys = new Map<string, Scope>();
  /** `Bearer <key>` -> Scope: the header as clients send it, found without parsing it. */
  private bearers = new Map<string, Scope>();
  private allowLists = new Map<string, net.BlockList>();

  constructor(config: PayemuConfig) {
    this.update(config);
  }

  update(config: PayemuConfig): void {
    const keys = new Map<string, Scope>();
    const bearers = new Map<string, Scope>();
    const allowLists = new Map<string, net.BlockList>();
    for (const source of config.sources) {
      keys.set(source.test_key, { source, mode: 'test' });
      keys.set(source.live_key, { source, mode: 'live' });
      if (source.ip_whitelist.length > 0) allowLists.set(source.slug, blockListOf(source.ip_whitelist));
    }
    for (const [key, scope] of keys) if (/^\S+$/.test(key)) bearers.set(`Bearer ${key}`, scope);
    this.keys = keys;
    this.bearers = bearers;
    this.allowLists = allowLists;
  }

  lookup(key: string | undefined): Scope | undefined {
    return key === undefined ? undefined : this.keys.get(key);
  }

  /** `Authorization: Bearer <key>` or `X-API-Key: <key>`; anything else is a 401. */
  authenticate(req: IncomingMessage, fallbackKey?: string): Scope {
    const authorization = req.headers.authorization;
    const scope = (authorization !== undefined && this.bearers.get(authorization)) || this.lookup(keyOf(req) ?? fallbackKey);
    if (!scope) throw new Unauthorized();
    const allowed = this.allowLists.get(scope.source.slug);
    if (allowed) {
      const address = clientAddress(req);
      if (!allowed.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4')) {
        throw new Forbidden(`Requests from ${address} are not allowed: the IP whitelist of Source "${scope.source.slug}" does not include it.`);
      }
    }
    return scope;
  }
}

export function keyOf(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match ? match[1] : undefined;
  }
  const header = req.headers['x-api-key'];
  return typeof header === 'string' && header !== '' ? header.trim() : undefined;
}

/** The peer address, with IPv4-mapped IPv6 (`::ffff:127.0.0.1`) shown as IPv4. */
export function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function blockListOf(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
    // A whitelisted IPv4 address also admits its IPv4-mapped IPv6 form.
    if (type === 'ipv4') {
      if (bits === undefined) list.addAddress(`::ffff:${address}`, 'ipv6');
      else list.addSubnet(`::ffff:${address}`, 96 + Number(bits), 'ipv6');
    }
  }
  return list;
}
