import { z } from 'zod';
import { listPerDiemRates } from '../../../services/expenses/per-diem-rates';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../schemas';
import { listInputShape } from '../fields';
import { rateListFilters } from '../mileage-rates/schemas';
import { perDiemRateSchema } from './schemas';

/** settings.perDiemRates.list: by valid_from; `on` for the rates in force that day; deactivated ones with include_inactive. */
export const listPerDiemRatesProcedure = settingsReadProcedure
  .input(z.strictObject({ ...rateListFilters, ...listInputShape }))
  .output(pageOutput(perDiemRateSchema))
  .query(({ ctx, input }) => listPerDiemRates(svc(ctx), input));
