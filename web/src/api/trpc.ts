import { createTRPCClient, httpLink } from '@trpc/client';
import type { CallContext } from '../../../src/client/http';
import type { AppRouter } from '../../../src/routers/app';

/**
 * The console's one way to the API: the typed tRPC client over /trpc on the same origin. The session
 * is the HttpOnly cookie set at sign-in (never visible here); every request says it comes from the
 * console (`X-Requested-With`), which the server requires of a cookie-authenticated request.
 *
 * Unbatched (httpLink): a batch shares one set of headers, and each write carries its own If-Match
 * and Idempotency-Key, passed per call:
 *   trpc.claims.submit.mutate({ id }, write({ revision: claim.revision }))
 */
export const trpc = createTRPCClient<AppRouter>({
  links: [
    httpLink({
      url: '/trpc',
      headers: ({ op }) => {
        const ctx = op.context as CallContext;
        return {
          'X-Requested-With': 'console',
          ...(ctx.idempotencyKey ? { 'Idempotency-Key': ctx.idempotencyKey } : {}),
          ...(ctx.ifMatch ? { 'If-Match': ctx.ifMatch } : {}),
        };
      },
      fetch: (url, init) => fetch(url, { ...(init as RequestInit), credentials: 'same-origin' }),
    }),
  ],
});

export type ConsoleClient = typeof trpc;

/** A fresh Idempotency-Key for one intent (keep it across retries of that same intent). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * The per-call options of a write: the record's revision as If-Match (`"3"`, as the ETag gives it)
 * and an Idempotency-Key (a new one unless the caller keeps one across retries).
 */
export function write(opts: { revision?: number; idempotencyKey?: string } = {}): { context: CallContext & Record<string, unknown> } {
  return {
    context: {
      idempotencyKey: opts.idempotencyKey ?? newIdempotencyKey(),
      ...(opts.revision === undefined ? {} : { ifMatch: `"${opts.revision}"` }),
    },
  };
}
