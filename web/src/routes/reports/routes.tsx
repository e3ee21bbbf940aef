import { createRoute } from '@tanstack/react-router';
import { lazy } from 'react';
import { z } from 'zod';
import { appRoute, Lazy } from '../app-route';

/** The receivables reports: the ageing as at a day (loaded when first visited). */

const AgeingPage = lazy(() => import('./ageing').then((m) => ({ default: m.AgeingPage })));

export const ageingSearch = z.object({
  as_of: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
  group: z.enum(['only', 'none']).optional().catch(undefined),
});

const ageingRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/ageing',
  validateSearch: ageingSearch,
  component: function AgeingRoute() {
    const search = ageingRoute.useSearch();
    return <Lazy>{<AgeingPage {...search} />}</Lazy>;
  },
});

export const reportsRoutes = [ageingRoute] as const;
