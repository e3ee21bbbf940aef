import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCLink } from '@trpc/client';
import type { AppRouter } from '../routers/app';

export interface HttpClientOptions {
  /** Base URL of the service, e.g. http://localhost:3000 */
  baseUrl: string;
  /** An API key (fk_...) or a session token (fs_...). */
  token: string;
  fetch?: typeof fetch;
}

/** Per-call options: `client.x.mutate(input, { context: { idempotencyKey, ifMatch } })`. */
export interface CallContext {
  idempotencyKey?: string;
  ifMatch?: string;
}

/**
 * Typed client over /trpc. Queries are batched; mutations go one per request, so an
 * Idempotency-Key or If-Match belongs to exactly one write.
 */
export function createHttpClient(opts: HttpClientOptions) {
  const url = `${opts.baseUrl.replace(/\/$/, '')}/trpc`;
  const headers = ({ op }: { op: { context: Record<string, unknown> } }) => {
    const ctx = op.context as CallContext;
    return {
      authorization: `Bearer ${opts.token}`,
      ...(ctx.idempotencyKey ? { 'idempotency-key': ctx.idempotencyKey } : {}),
      ...(ctx.ifMatch ? { 'if-match': ctx.ifMatch } : {}),
    };
  };
  const links: TRPCLink<AppRouter>[] = [
    splitLink({
      condition: (op) => op.type === 'mutation',
      true: httpLink({ url, headers: ({ op }) => headers({ op }), fetch: opts.fetch }),
      false: httpBatchLink({ url, headers: ({ opList }) => headers({ op: opList[0] ?? { context: {} } }), fetch: opts.fetch }),
    }),
  ];
  return createTRPCClient<AppRouter>({ links });
}

export type HttpClient = ReturnType<typeof createHttpClient>;
