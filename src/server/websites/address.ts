// Which network addresses a website check may connect to (SSRF guard). Only public unicast addresses: never
// private (10/8, 172.16/12, 192.168/16, fc00::/7 incl. the EC2 metadata fd00:ec2::254), loopback, link-local
// (169.254/16 incl. the 169.254.169.254 metadata service, fe80::/10), CGNAT (100.64/10), unspecified, multicast,
// broadcast, reserved, or an IPv4-mapped / translated IPv6 address. Loopback only when the test allowance is on.
import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (injected in tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Why an address is refused, or null when a website check may connect to it. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLoopback) return null;
  return `${range} address`;
}

/** The host of a URL as an IP literal, when it is one (brackets of IPv6 removed). */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

/**
 * The address to connect to for a host: the IP literal itself, or the host name resolved once here. Every
 * address the name resolves to must be allowed (a name that mixes a public and a private address is refused),
 * and the connection is then made to the address checked, never resolved again (no DNS-rebinding gap).
 */
export async function resolveAllowed(
  hostname: string,
  resolve: Resolver,
  allowLoopback: boolean,
): Promise<{ ok: true; address: ResolvedAddress } | { ok: false; reason: string }> {
  const literal = ipLiteral(hostname);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: literal, family: ipaddr.parse(literal).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, reason: `could not resolve ${hostname}${code ? ` (${code})` : ''}` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `could not resolve ${hostname}` };
  for (const a of addresses) {
    const why = refusedAddress(a.address, allowLoopback);
    if (why) return { ok: false, reason: `refused: ${hostname} is a ${why} (${a.address})` };
  }
  return { ok: true, address: addresses[0]! };
}
