/**
 * MyInvois access tokens, kept per (organization, API base URL, client id, on-behalf-of TIN, SHA-256 of
 * the client secret): a token is only ever handed to the organization whose own credentials fetched
 * it, so another organization naming the same client id (with any secret) never gets it and asks
 * LHDN itself, which refuses a wrong secret. LHDN's tokens last an
 * hour and its token endpoint allows 12 requests a minute per client, so one token serves every job
 * until 5 minutes before it expires (a request may take that long to reach LHDN), and callers that
 * need one at the same moment share a single token request. Memory only: a token is never written
 * anywhere.
 */

import { createHash } from 'node:crypto';

export interface CachedToken {
  accessToken: string;
  /** Epoch milliseconds, on the clock of whoever fetched it. */
  expiresAt: number;
}

/** A token is not used in its last 5 minutes. */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;

export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly inFlight = new Map<string, Promise<CachedToken>>();

  static key(scope: { tenant: string; apiBaseUrl: string; clientId: string; clientSecret: string; onBehalfOf?: string | null | undefined }): string {
    const secret = createHash('sha256').update(scope.clientSecret, 'utf8').digest('hex');
    return JSON.stringify([scope.tenant, scope.apiBaseUrl.replace(/\/+$/, ''), scope.clientId, scope.onBehalfOf ?? null, secret]);
  }

  /** A token good at `now`, else the one being fetched, else a new one from `fetchToken`. */
  async get(key: string, now: Date, fetchToken: () => Promise<CachedToken>): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached && now.getTime() < cached.expiresAt - TOKEN_REFRESH_MARGIN_MS) return cached.accessToken;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = fetchToken().then(
        (token) => {
          this.tokens.set(key, token);
          return token;
        },
      ).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return (await pending).accessToken;
  }

  /** Forgets `accessToken` (LHDN refused it), unless another caller has replaced it already. */
  drop(key: string, accessToken: string): void {
    if (this.tokens.get(key)?.accessToken === accessToken) this.tokens.delete(key);
  }

  clear(): void {
    this.tokens.clear();
  }
}

/** The process's cache, used by every client not given its own. */
export const defaultTokenCache = new TokenCache();
