import type { AppDeps } from '../deps';
import { appRouter } from '../routers/app';
import { createInProcessContext, type RequestInfo } from '../routers/context';
import { createCallerFactory } from '../routers/trpc';

const createCaller = createCallerFactory(appRouter);

/**
 * In-process client: calls the procedures directly, through the same authentication, permission,
 * idempotency and transaction steps as HTTP callers. Without a token it calls as nobody (auth.login).
 */
export function createInProcessClient(deps: AppDeps, opts: { token?: string } & Partial<Omit<RequestInfo, 'authorization'>>) {
  const { token, ...info } = opts;
  return createCaller(createInProcessContext(deps, { ...info, authorization: token === undefined ? undefined : `Bearer ${token}` }));
}

export type InProcessClient = ReturnType<typeof createInProcessClient>;
