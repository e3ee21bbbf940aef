/**
 * What the simulator's routes share: the store, the clock (the injected one plus any `advance`), the
 * rate limits, the signature verifier, the validation delay and the fault switch. Also LHDN's date
 * format (ISO 8601 UTC, seconds) for the times it answers.
 */
import type { SimStore } from './store';
import type { Endpoint, RateLimits, SignatureVerifier } from './types';
import { settle } from './validator';

export type FaultMode = 'error' | 'hang';

export interface Fault {
  mode: FaultMode;
  /** Endpoints affected; every endpoint when absent. */
  endpoints?: Endpoint[];
}

export interface SimContext {
  store: SimStore;
  now: () => number;
  offsetMs: number;
  limits: RateLimits;
  verify: SignatureVerifier;
  delayMs: number;
  fault: Fault | null;
  tokenSecret: string;
  /** Resolvers of requests held by a `hang` fault, released when the app closes. */
  hanging: Set<() => void>;
}

/** Validates the documents whose validation time has come. */
export function settleDue(ctx: SimContext, force = false): void {
  settle(ctx.store, ctx.verify, ctx.now(), ctx.delayMs, force);
}

export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The raw JSON body as received (submission size and duplicate payload checks). */
    rawBody?: string;
    /** The token's client id and taxpayer TIN, set by the auth hook. */
    caller?: { clientId: string; tin: string };
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
    /** Whether the route needs a bearer token (every route but the token endpoint). */
    auth?: boolean;
  }
}
