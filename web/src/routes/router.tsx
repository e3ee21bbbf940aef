import type { QueryClient } from '@tanstack/react-query';
import { createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { lazy } from 'react';
import { z } from 'zod';
import { accountRoutes } from './account/routes';
import { appRoute, Lazy, rootRoute, signInRoute } from './app-route';
import { journalRoutes } from './journal/routes';
import { bankStatementsRoutes } from './bank-statements/routes';
import { customerRoutes } from './receivables/customer-routes';
import { eventsRoutes } from './events/routes';
import { MePage } from './me';
import { ownerRoutes } from './owner/routes';
import { receivablesRoutes } from './receivables/routes';
import { reportsRoutes } from './reports/routes';
import { TodoPage } from './todo';

/**
 * Every screen's address (code-based routes): the claims screens here, each other area's in its own
 * `routes.tsx` (receivables/, owner/, events/), all children of `appRoute` (app-route.tsx). URL search
 * parameters are validated with zod: a bad value falls back rather than breaking the page.
 */

const todoRoute = createRoute({ getParentRoute: () => appRoute, path: '/', component: TodoPage });

const meRoute = createRoute({ getParentRoute: () => appRoute, path: '/me', component: MePage });

export const claimsSearch = z.object({
  state: z.string().optional().catch(undefined),
  q: z.string().max(100).optional().catch(undefined),
  cursor: z.string().optional().catch(undefined),
});

// The claimant's screens load on first visit (their own chunk: the line form, the photo handling).
const ClaimsPage = lazy(() => import('./claims').then((m) => ({ default: m.ClaimsPage })));
const ClaimPage = lazy(() => import('./claim').then((m) => ({ default: m.ClaimPage })));
const NewClaimPage = lazy(() => import('./claim').then((m) => ({ default: m.NewClaimPage })));

const claimsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/claims',
  validateSearch: claimsSearch,
  component: function ClaimsRoute() {
    const search = claimsRoute.useSearch();
    return <Lazy>{<ClaimsPage {...search} />}</Lazy>;
  },
});

const newClaimRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/claims/new',
  component: () => <Lazy>{<NewClaimPage />}</Lazy>,
});

const claimRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/claims/$claimId',
  component: function ClaimRoute() {
    const { claimId } = claimRoute.useParams();
    return <Lazy>{<ClaimPage key={claimId} claimId={claimId} />}</Lazy>;
  },
});

const inboxRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/inbox',
  validateSearch: z.object({ claim: z.string().optional().catch(undefined) }),
  // Loaded when first visited: the sign-in and To do screens stay small.
  component: lazyRouteComponent(() => import('./approver/inbox'), 'InboxRoute'),
});

const paymentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payments',
  component: lazyRouteComponent(() => import('./approver/payments'), 'PaymentsPage'),
});

const routeTree = rootRoute.addChildren([signInRoute, ...accountRoutes, appRoute.addChildren([todoRoute, meRoute, claimsRoute, newClaimRoute, claimRoute, inboxRoute, paymentsRoute, ...receivablesRoutes, ...reportsRoutes, ...customerRoutes, ...ownerRoutes, ...eventsRoutes, ...bankStatementsRoutes, ...journalRoutes])]);

export function createConsoleRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createConsoleRouter>;
  }
}
