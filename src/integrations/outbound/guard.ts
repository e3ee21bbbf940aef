/**
 * The outbound address guard: every request this service sends to an address a tenant configured
 * (the MyInvois base URL; webhooks later) goes through it. A base URL is https (http only to a network
 * the operator allowed, or to an origin the service runs itself), carries no userinfo, query or
 * fragment, and its host must not be, or resolve to, an internal address (networks.ts) unless the
 * operator lists that network in OUTBOUND_ALLOWED_NETWORKS. The same check runs when the URL is saved
 * and, through `guardedLookup`, on every connection, so a name that resolves elsewhere later (DNS
 * rebinding) is refused at connect time. Never follows redirects (see fetch.ts).
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { effectiveAddress, inNetwork, internalRange, parseAddress, type IpAddress, type Network } from './networks';

export interface OutboundPolicy {
  /** Internal networks the operator allows (OUTBOUND_ALLOWED_NETWORKS). */
  networks: readonly Network[];
  /**
   * Exact origins (`http://127.0.0.1:8765`) the service runs itself, such as the in-process MyInvois
   * simulator: allowed whatever their address, never by configuration.
   */
  origins: readonly string[];
  /** How host names are resolved (the system's resolver unless a test gives its own). */
  resolve?: Resolve;
}

/** Nothing internal allowed: the policy of a client given none. */
export const STRICT_POLICY: OutboundPolicy = { networks: [], origins: [] };

export function outboundPolicy(networks: readonly Network[], origins: readonly string[] = []): OutboundPolicy {
  return { networks, origins: origins.map((o) => new URL(o).origin) };
}

/** The policy with one more origin the service runs itself. */
export function trustingOrigin(policy: OutboundPolicy, url: string): OutboundPolicy {
  return { ...policy, origins: [...policy.origins, new URL(url).origin] };
}

/** Host names of cloud metadata services, refused whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.internal', 'metadata.tencentyun.com']);

/** Why a connection may not be made; `reason` is safe to show the person who configured the URL. */
export class OutboundRefused extends Error {
  constructor(readonly reason: string) {
    super(`outbound address refused: ${reason}`);
    this.name = 'OutboundRefused';
  }
}

/**
 * The URL if its form is acceptable for an outbound address (before any DNS), else why not: absolute
 * http(s), no user name or password, no fragment, and no query unless `allowQuery` (a webhook
 * endpoint may carry one; a base URL that paths are appended to may not).
 */
export function parseOutboundUrl(value: string, { allowQuery }: { allowQuery: boolean }): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(value)) return 'must not carry a user name or password';
  // `new URL` drops an empty `?` or `#`: look at the text too.
  if (url.hash || value.includes('#')) return allowQuery ? 'must not carry a fragment' : 'must not carry a query or fragment';
  if (!allowQuery && (url.search || value.includes('?'))) return 'must not carry a query or fragment';
  return url;
}

/** The URL if its form is acceptable as a base URL (before any DNS), else why not. */
export function parseBaseUrl(value: string): URL | string {
  return parseOutboundUrl(value, { allowQuery: false });
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');

/** Whether the service runs this origin itself. */
export function isTrustedOrigin(url: URL, policy: OutboundPolicy): boolean {
  return policy.origins.includes(url.origin);
}

/** Why `ip` may not be reached under `policy` (null: it may); `http` needs an operator-allowed network. */
export function addressProblem(ip: IpAddress, policy: OutboundPolicy, opts: { http: boolean }): string | null {
  const effective = effectiveAddress(ip);
  if (policy.networks.some((n) => inNetwork(effective, n) || inNetwork(ip, n))) return null;
  const internal = internalRange(ip);
  if (internal) return `resolves to a ${internal} address, which is not reachable from this service`;
  if (opts.http) return 'must be an https URL';
  return null;
}

function hostProblem(host: string): string | null {
  if (METADATA_HOSTS.has(host)) return 'names a cloud metadata service';
  return null;
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/**
 * The save-time check of a base URL: its form, then every address its host resolves to now. Answers
 * why it is refused, or null. The same rules run again on every connection (guardedLookup).
 */
export async function checkBaseUrl(value: string, policy: OutboundPolicy, resolve: Resolve = policy.resolve ?? systemResolve): Promise<string | null> {
  const url = parseBaseUrl(value);
  if (typeof url === 'string') return url;
  return checkUrlAddresses(url, policy, resolve);
}

/**
 * The save-time check of a URL whose form the caller checked (a webhook endpoint may carry a query):
 * every address its host resolves to now. Answers why it is refused, or null.
 */
export async function checkUrlAddresses(url: URL, policy: OutboundPolicy, resolve: Resolve = policy.resolve ?? systemResolve): Promise<string | null> {
  if (isTrustedOrigin(url, policy)) return null;
  const host = hostOf(url);
  const named = hostProblem(host);
  if (named) return named;
  const http = url.protocol === 'http:';
  const literal = parseAddress(host);
  if (literal) return addressProblem(literal, policy, { http });
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'its host name does not resolve';
  }
  if (addresses.length === 0) return 'its host name does not resolve';
  for (const { address } of addresses) {
    const ip = parseAddress(address);
    const problem = ip ? addressProblem(ip, policy, { http }) : 'resolves to an unreadable address';
    if (problem) return problem;
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls connections: resolves the host, refuses the connection (OutboundRefused)
 * unless every address passes, and connects to the addresses it checked, so the name cannot be
 * swapped between the check and the connection.
 */
export function guardedLookup(policy: OutboundPolicy, opts: { http: boolean }) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions | number | undefined, callback: LookupCallback): void => {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
    const all = typeof options === 'object' && options !== null && options.all === true;
    const named = hostProblem(host);
    if (named) return void callback(new OutboundRefused(named), all ? [] : '');
    (policy.resolve ?? systemResolve)(host).then(
      (addresses) => {
        for (const { address } of addresses) {
          const ip = parseAddress(address);
          const problem = ip ? addressProblem(ip, policy, opts) : 'resolves to an unreadable address';
          if (problem) return void callback(new OutboundRefused(problem), all ? [] : '');
        }
        if (addresses.length === 0) return void callback(new OutboundRefused('its host name does not resolve'), all ? [] : '');
        if (all) return void callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, all ? [] : ''),
    );
  };
}
