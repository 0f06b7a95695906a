import net from 'node:net';

/**
 * The real service's rule, applied with `--strict-webhook-urls`: endpoints must be public, so
 * private, loopback, link-local and other reserved addresses are refused. The list is made on
 * first use: made at load, it took 0.3 ms of every start, strict or not.
 */
let blocked: net.BlockList | undefined;

function blockList(): net.BlockList {
  if (blocked) return blocked;
  blocked = new net.BlockList();
  for (const [network, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    blocked.addSubnet(network, bits, 'ipv4');
  for (const [network, bits] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['2001:db8::', 32],
    ['::ffff:0:0', 96],
  ] as const) {
    blocked.addSubnet(network, bits, 'ipv6');
  }
  return blocked;
}

export function isPublicAddress(address: string): boolean {
  const version = net.isIP(address);
  if (version === 0) return false;
  return !blockList().check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** Resolves the URL's host; returns why it is refused, or undefined when it is public. */
export async function strictRefusal(url: string): Promise<string | undefined> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return `not a valid URL: ${url}`;
  }
  let addresses: string[];
  try {
    // node:dns is loaded on first use: only --strict-webhook-urls needs it, and its load (a few
    // milliseconds) would otherwise come before every start's readiness line.
    addresses = net.isIP(host) ? [host] : (await (await import('node:dns/promises')).lookup(host, { all: true })).map((a) => a.address);
  } catch (error) {
    return `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  const bad = addresses.find((a) => !isPublicAddress(a));
  return bad ? `blocked by --strict-webhook-urls: ${host} resolves to ${bad}, a private or reserved address` : undefined;
}
