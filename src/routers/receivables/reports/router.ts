import { router } from '../../trpc';
import { ageingProcedure } from './ageing';
import { figuresProcedure } from './figures';

export const reportsRouter = router({
  ageing: ageingProcedure,
  figures: figuresProcedure,
});
