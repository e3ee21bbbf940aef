import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../app-route';

/** Webhook endpoints and their deliveries (in the owner's area), loaded on first visit. */

const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/webhooks',
  component: lazyRouteComponent(() => import('./webhooks'), 'WebhooksPage'),
});

export const eventsRoutes = [webhooksRoute] as const;
