import { customersRouter } from './receivables/customers/router';
import { router } from './trpc';

export const appRouter = router({
  receivables: router({
    customers: customersRouter,
  }),
});

export type AppRouter = typeof appRouter;
