import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../app-route';

/** The journal export: create a batch and download it in the accounting system's layout (loaded on first visit). */
export const journalRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/journal',
  component: lazyRouteComponent(() => import('./page'), 'JournalPage'),
});

export const journalRoutes = [journalRoute] as const;
