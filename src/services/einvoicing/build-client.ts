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
  /**
   * The operator's own MyInvois intermediary system (MYINVOIS_INTERMEDIARY_CLIENT_ID and _SECRET):
   * what an organization in intermediary mode logs in with, on behalf of its TIN. Absent: not configured.
   */
  intermediary?: { clientId: string; clientSecret: string } | undefined;
}

/** `creds.onBehalfOf`: the represented taxpayer's TIN, when logging in as an intermediary (the `onbehalfof` header). */
export function buildClient(organizationId: string, creds: { apiBaseUrl: string; clientId: string; clientSecret: string; onBehalfOf?: string }, deps: Omit<MyinvoisDeps, 'key'>, now: () => Date): MyInvoisClient {
  return new MyInvoisClient({
    tenant: organizationId,
    apiBaseUrl: creds.apiBaseUrl,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    ...(creds.onBehalfOf ? { onBehalfOf: creds.onBehalfOf } : {}),
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

/** The operator's intermediary credentials from the configuration, when both are set. */
export function intermediaryOf(config: Pick<Config, 'MYINVOIS_INTERMEDIARY_CLIENT_ID' | 'MYINVOIS_INTERMEDIARY_CLIENT_SECRET'>): MyinvoisDeps['intermediary'] {
  const clientId = config.MYINVOIS_INTERMEDIARY_CLIENT_ID;
  const clientSecret = config.MYINVOIS_INTERMEDIARY_CLIENT_SECRET;
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}
