import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Mode, PayemuConfig, SourceConfig } from '../config/types.js';
import { isNamespaceName, NAMESPACE_NAME_RULE, splitKey } from '../lib/namespace-name.js';
import { Forbidden, Unauthorized } from './errors.js';

/** Who is calling: a Source in one mode. Every read and write is scoped to it. */
export interface Scope {
  source: SourceConfig;
  mode: Mode;
}

/** Who is calling: a Source in one mode, in a namespace (`undefined`: the default one, a key without `~NAME`). */
export interface Caller {
  scope: Scope;
  namespace: string | undefined;
}

/** Namespaced keys seen, kept found (`sk_test_x~w3` -> Caller); emptied past this many (a client inventing names). */
const NAMED_CACHE = 1024;

/** Secret key -> Scope, rebuilt whenever the config changes. */
export class Keyring {
  private keys = new Map<string, Caller>();
  /** `Bearer <key>` -> Caller: the header as clients send it, found without parsing it. */
  private bearers = new Map<string, Caller>();
  /** A key with its `~NAME` (or its `Bearer` header) -> Caller, as found once. */
  private named = new Map<string, Caller>();
  private allowLists = new Map<string, net.BlockList>();

  constructor(config: PayemuConfig) {
    this.update(config);
  }

  update(config: PayemuConfig): void {
    const keys = new Map<string, Caller>();
    const bearers = new Map<string, Caller>();
    const allowLists = new Map<string, net.BlockList>();
    for (const source of config.sources) {
      keys.set(source.test_key, { scope: { source, mode: 'test' }, namespace: undefined });
      keys.set(source.live_key, { scope: { source, mode: 'live' }, namespace: undefined });
      if (source.ip_whitelist.length > 0) allowLists.set(source.slug, blockListOf(source.ip_whitelist));
    }
    for (const [key, caller] of keys) if (/^\S+$/.test(key)) bearers.set(`Bearer ${key}`, caller);
    this.keys = keys;
    this.bearers = bearers;
    this.named = new Map();
    this.allowLists = allowLists;
  }

  lookup(key: string | undefined): Scope | undefined {
    return key === undefined ? undefined : this.keys.get(key)?.scope;
  }

  /**
   * `Authorization: Bearer <key>` or `X-API-Key: <key>`; anything else is a 401. A key may end
   * in `~NAME`, which picks a namespace; a NAME that breaks the rule is a 401 saying so.
   */
  authenticate(req: IncomingMessage, fallbackKey?: string): Caller {
    const authorization = req.headers.authorization;
    const caller =
      (authorization !== undefined && (this.bearers.get(authorization) ?? this.named.get(authorization))) ||
      this.find(keyOf(req) ?? fallbackKey, authorization);
    if (!caller) throw new Unauthorized();
    const allowed = this.allowLists.get(caller.scope.source.slug);
    if (allowed) {
      const address = clientAddress(req);
      if (!allowed.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4')) {
        throw new Forbidden(`Requests from ${address} are not allowed: the IP whitelist of Source "${caller.scope.source.slug}" does not include it.`);
      }
    }
    return caller;
  }

  /** A key, with or without `~NAME`; kept found under the header it came in, when it came in one. */
  private find(key: string | undefined, authorization: string | undefined): Caller | undefined {
    if (key === undefined) return undefined;
    const known = this.keys.get(key) ?? this.named.get(key);
    if (known) return known;
    const { key: proper, namespace } = splitKey(key);
    const owner = namespace === undefined ? undefined : this.keys.get(proper);
    // A suffix on a key that is not one is the ordinary 401: the key is wrong first.
    if (!owner || namespace === undefined) return undefined;
    if (!isNamespaceName(namespace))
      throw new Unauthorized(`The namespace name in the API key is invalid: ${NAMESPACE_NAME_RULE} (the key ends in "~${namespace}").`);
    const caller: Caller = { scope: owner.scope, namespace };
    if (this.named.size >= NAMED_CACHE) this.named.clear();
    this.named.set(key, caller);
    if (authorization !== undefined) this.named.set(authorization, caller);
    return caller;
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
