import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Lazy, rootRoute } from '../app-route';
import { lazy } from 'react';

/**
 * The account pages reached from e-mail, children of the root (no session needed): an invitation's
 * link, a password reset's link and the request for one. Loaded on demand.
 */

const LinkPasswordPage = lazy(() => import('./link-pages').then((m) => ({ default: m.LinkPasswordPage })));

const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invitation/$token',
  component: function InvitationRoute() {
    const { token } = invitationRoute.useParams();
    return <Lazy>{<LinkPasswordPage key={token} token={token} purpose="invitation" />}</Lazy>;
  },
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/$token',
  component: function ResetPasswordRoute() {
    const { token } = resetPasswordRoute.useParams();
    return <Lazy>{<LinkPasswordPage key={token} token={token} purpose="password_reset" />}</Lazy>;
  },
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: lazyRouteComponent(() => import('./link-pages'), 'ForgotPasswordPage'),
});

export const accountRoutes = [invitationRoute, resetPasswordRoute, forgotPasswordRoute] as const;
