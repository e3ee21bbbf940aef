import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { appRoute } from '../app-route';

/** Bank statements: upload a bank account's CSV and work through its credits (loaded on first visit). */

export const bankStatementsSearch = z.object({
  account: z.uuid().optional().catch(undefined),
  show: z.enum(['open', 'matched', 'ignored', 'all']).optional().catch(undefined),
});

export const bankStatementsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/bank-statements',
  validateSearch: bankStatementsSearch,
  component: lazyRouteComponent(() => import('./page'), 'BankStatementsRoute'),
});

export const bankStatementsRoutes = [bankStatementsRoute] as const;
