// Which network addresses a website check may connect to (SSRF guard). Only public unicast addresses: never
// private (10/8, 172.16/12, 192.168/16, fc00::/7 incl. the EC2 metadata fd00:ec2::254), loopback, link-local
// (169.254/16 incl. the 169.254.169.254 metadata service, fe80::/10), CGNAT (100.64/10), unspecified, multicast,
// broadcast or reserved. An IPv6 address that carries an IPv4 address (IPv4-compatible, IPv4-mapped, SIIT,
// NAT64, 6to4, Teredo) reaches that IPv4 host through the stack or a translator, so it is judged by the IPv4
// address it carries: allowed only when that one is public. Loopback only when the test allowance is on, and
// never through an embedded IPv4 address.
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;
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

const ipv4At = (bytes: number[], at: number, mask = 0) =>
  new ipaddr.IPv4(bytes.slice(at, at + 4).map((b) => b ^ mask));

/**
 * The IPv4 addresses an IPv6 address carries, with the form's name, or null when it carries none:
 *   - IPv4-compatible `::a.b.c.d` (::/96 but :: and ::1), IPv4-mapped `::ffff:a.b.c.d`, SIIT
 *     `::ffff:0:a.b.c.d` and NAT64 `64:ff9b::a.b.c.d`: the last 32 bits;
 *   - 6to4 `2002:AABB:CCDD::/48`: bits 16 to 48;
 *   - Teredo `2001:0::/32`: the server in bits 32 to 64, the client in the last 32 bits inverted.
 * The local-use NAT64 prefix 64:ff9b:1::/48 is a network's own translator, where the IPv4 address sits
 * wherever its operator's prefix length puts it: it is refused whole (an empty list of nothing public).
 */
export function embeddedIPv4(v6: IPv6): { form: string; addresses: IPv4[] } | null {
  const bytes = v6.toByteArray();
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const ffff = (at: number) => bytes[at] === 0xff && bytes[at + 1] === 0xff;
  const last = () => [ipv4At(bytes, 12)];
  if (zeros(0, 12)) return { form: 'IPv4-compatible', addresses: last() };
  if (zeros(0, 10) && ffff(10)) return { form: 'IPv4-mapped', addresses: last() };
  if (zeros(0, 8) && ffff(8) && zeros(10, 12)) return { form: 'SIIT', addresses: last() };
  const [p0, p1, p2] = v6.parts;
  if (p0 === 0x64 && p1 === 0xff9b && zeros(4, 12)) return { form: 'NAT64', addresses: last() };
  if (p0 === 0x64 && p1 === 0xff9b && p2 === 0x1) return { form: 'local NAT64', addresses: [] };
  if (p0 === 0x2002) return { form: '6to4', addresses: [ipv4At(bytes, 2)] };
  if (p0 === 0x2001 && p1 === 0)
    return { form: 'Teredo', addresses: [ipv4At(bytes, 4), ipv4At(bytes, 12, 0xff)] };
  return null;
}

/** Why an address is refused, or null when a website check may connect to it. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (range === 'loopback' && allowLoopback) return null;
  if (range === 'unspecified' || range === 'loopback') return `${range} address`;
  const embedded = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as IPv6) : null;
  if (embedded) {
    const inner = embedded.addresses.map((a) => a.range()).find((r) => r !== 'unicast');
    if (inner || embedded.addresses.length === 0) {
      return `${embedded.form} IPv6 address${inner ? ` of a ${inner} IPv4 address` : ''}`;
    }
    return null;
  }
  if (range === 'unicast') return null;
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
