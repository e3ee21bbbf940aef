import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, Link, Outlet, redirect } from '@tanstack/react-router';
import { Suspense, type ReactNode } from 'react';
import { z } from 'zod';
import { problemOf } from '../api/problem';
import { meQuery } from '../api/session';
import { useI18n } from '../i18n';
import { AppLayout, PageTitle } from './layout';
import { SignInPage } from './sign-in';

/**
 * The two routes every screen hangs from: the root (sign-in and not-found) and `app`, whose
 * beforeLoad makes sure of the session (401 → /sign-in?next=<where they were>). Each area of the
 * console declares its screens in its own `routes.tsx` as children of `appRoute`; router.tsx joins
 * them into one tree.
 */

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

/** A path on this site only (never `//host` or a full URL): where to go after signing in. */
const localPath = z
  .string()
  .regex(/^\/(?!\/)/)
  .optional()
  .catch(undefined);

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: z.object({ next: localPath, expired: z.boolean().optional().catch(undefined) }),
  component: function SignInRoute() {
    const { next, expired } = signInRoute.useSearch();
    return <SignInPage next={next} expired={expired} />;
  },
});

export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(meQuery);
    } catch (error) {
      if (problemOf(error).status === 401) throw redirect({ to: '/sign-in', search: { next: location.href } });
      throw error;
    }
  },
  component: AppLayout,
});

/** A screen loaded on demand, with the loading line while its chunk arrives. */
export function Lazy({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  return <Suspense fallback={<p role="status">{t('app.loading')}</p>}>{children}</Suspense>;
}

function NotFound() {
  const { t } = useI18n();
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-10">
      <PageTitle>{t('app.notFound')}</PageTitle>
      <Link to="/" className="text-blue-800 underline">
        {t('app.backHome')}
      </Link>
    </main>
  );
}
