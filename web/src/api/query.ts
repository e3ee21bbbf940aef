import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { problemOf } from './problem';

/**
 * TanStack Query for every server read: keys are the procedure path and its input
 * (`['claims.get', { id }]`), so invalidating `['claims.get']` refreshes every claim shown.
 * A 4xx is an answer, not a glitch: never retried. A 401 anywhere (the session ended or expired)
 * sends the person to sign in, then back where they were.
 */
export function createQueryClient(onUnauthenticated: () => void): QueryClient {
  const on401 = (error: unknown) => {
    if (problemOf(error).status === 401) onUnauthenticated();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: on401 }),
    mutationCache: new MutationCache({ onError: on401 }),
    defaultOptions: {
      queries: {
        retry: (failures, error) => {
          const { status } = problemOf(error);
          if (status >= 400 && status < 500) return false;
          return failures < 2;
        },
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
