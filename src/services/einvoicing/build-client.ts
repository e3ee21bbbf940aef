/**
 * A MyInvois client for one organization's credentials, as the jobs and the settings' credential
 * check build it: tokens cached for this organization and secret only, every request through the
 * outbound guard of the process (OUTBOUND_ALLOWED_NETWORKS and the origins the process runs itself).
 */
import { MyInvoisClient, type TokenCache } from '../../integrations/myinvois/client';
import { outboundPolicy, type FetchLike, type OutboundPolicy } from '../../integrations/outbound';
import type { Config } from '../../config';

/** What the jobs need from the server: the key secrets are sealed under, the outbound policy, and test seams. */
export interface MyinvoisDeps {
  key: Buffer;
  /** Which internal addresses MyInvois requests may reach (deps.outbound, or the configuration's). */
  outbound: OutboundPolicy;
  /** The HTTP function (tests wrap it to lose answers); the guarded one by default. */
  fetch?: FetchLike;
  /** Per-request time limit (30 s by default). */
  timeoutMs?: number;
  tokens?: TokenCache;
}

export function buildClient(organizationId: string, creds: { apiBaseUrl: string; clientId: string; clientSecret: string }, deps: Omit<MyinvoisDeps, 'key'>, now: () => Date): MyInvoisClient {
  return new MyInvoisClient({
    tenant: organizationId,
    apiBaseUrl: creds.apiBaseUrl,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    outbound: deps.outbound,
    now,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
    ...(deps.tokens ? { tokens: deps.tokens } : {}),
  });
}

const fromConfig = new WeakMap<object, OutboundPolicy>();

/**
 * The process's outbound policy: the one main.ts set (the operator's networks plus the origins it
 * runs itself), else the configuration's networks alone (one policy object per configuration, so
 * its connections are pooled once).
 */
export function outboundOf(deps: { outbound?: OutboundPolicy | undefined; config: Pick<Config, 'OUTBOUND_ALLOWED_NETWORKS'> }): OutboundPolicy {
  if (deps.outbound) return deps.outbound;
  let policy = fromConfig.get(deps.config);
  if (!policy) {
    policy = outboundPolicy(deps.config.OUTBOUND_ALLOWED_NETWORKS);
    fromConfig.set(deps.config, policy);
  }
  return policy;
}
