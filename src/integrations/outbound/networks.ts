/**
 * IP addresses and CIDR networks as numbers, and the internal ranges an outbound request must never
 * reach on its own (loopback, private, link-local with the cloud metadata address, CGNAT, multicast,
 * unspecified, reserved; IPv6 unique-local and link-local; IPv4 embedded in IPv6 is judged as the
 * IPv4 address it carries). Pure: no DNS, no sockets.
 */
import { isIP } from 'node:net';

export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

export interface Network {
  family: 4 | 6;
  base: bigint;
  prefix: number;
  /** As written (`10.0.0.0/8`). */
  text: string;
}

function parseV4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseV6(text: string): bigint | null {
  let rest = text.split('%')[0]!;
  let tail: bigint[] = [];
  // A trailing dotted IPv4 (`::ffff:127.0.0.1`) counts as two groups.
  const lastColon = rest.lastIndexOf(':');
  if (lastColon >= 0 && rest.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(rest.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [v4 >> 16n, v4 & 0xffffn];
    rest = rest.slice(0, lastColon + 1);
    if (!rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const back = halves.length === 2 ? groups(halves[1]!) : [];
  const written = head.length + back.length + tail.length;
  if (halves.length === 1 ? written !== 8 : written > 7) return null;
  const all = [...head, ...Array(8 - written).fill('0'), ...back];
  let value = 0n;
  for (const group of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  for (const group of tail) value = (value << 16n) | group;
  return value;
}

/** An IPv4 or IPv6 address (brackets and zone ids allowed), or null. */
export function parseAddress(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) {
    const value = parseV4(bare);
    return value === null ? null : { family: 4, value };
  }
  if (family === 6) {
    const value = parseV6(bare);
    return value === null ? null : { family: 6, value };
  }
  return null;
}

/** `address/prefix` or a bare address (a network of one); null when malformed. */
export function parseNetwork(text: string): Network | null {
  const [address, prefix, ...more] = text.trim().split('/');
  if (more.length > 0 || !address) return null;
  const ip = parseAddress(address);
  if (!ip) return null;
  const bits = ip.family === 4 ? 32 : 128;
  if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits)) return null;
  const length = prefix === undefined ? bits : Number(prefix);
  const mask = ((1n << BigInt(length)) - 1n) << BigInt(bits - length);
  return { family: ip.family, base: ip.value & mask, prefix: length, text: text.trim() };
}

/** OUTBOUND_ALLOWED_NETWORKS: comma-separated CIDRs; the malformed entries are answered apart. */
export function parseNetworkList(value: string): { networks: Network[]; wrong: string[] } {
  const networks: Network[] = [];
  const wrong: string[] = [];
  for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
    const network = parseNetwork(entry);
    if (network) networks.push(network);
    else wrong.push(entry);
  }
  return { networks, wrong };
}

export function inNetwork(ip: IpAddress, network: Network): boolean {
  if (ip.family !== network.family) return false;
  const bits = ip.family === 4 ? 32 : 128;
  return ip.value >> BigInt(bits - network.prefix) === network.base >> BigInt(bits - network.prefix);
}

const range = (text: string, name: string) => ({ network: parseNetwork(text)!, name });

const INTERNAL_V4 = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local (cloud metadata)'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'documentation'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
];

const INTERNAL_V6 = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible'),
  range('100::/64', 'discard'),
  range('2001:db8::/32', 'documentation'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

/** IPv6 forms that carry an IPv4 address: mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedV4(ip: IpAddress): IpAddress | null {
  if (ip.family !== 6) return null;
  if (ip.value >> 32n === 0xffffn || ip.value >> 32n === 0x64ff9b0000000000000000n) return { family: 4, value: ip.value & 0xffffffffn };
  if (ip.value >> 112n === 0x2002n) return { family: 4, value: (ip.value >> 80n) & 0xffffffffn };
  return null;
}

/** The IPv4 address an IPv6 one stands for, else the address itself: what every check compares. */
export function effectiveAddress(ip: IpAddress): IpAddress {
  return embeddedV4(ip) ?? ip;
}

/** The name of the internal range `ip` is in (`loopback`, `private`, …), or null for a public address. */
export function internalRange(ip: IpAddress): string | null {
  const effective = effectiveAddress(ip);
  for (const r of effective.family === 4 ? INTERNAL_V4 : INTERNAL_V6) if (inNetwork(effective, r.network)) return r.name;
  return null;
}
