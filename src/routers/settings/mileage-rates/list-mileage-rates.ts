import { z } from 'zod';
import { listMileageRates } from '../../../services/expenses/mileage-rates';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../schemas';
import { listInputShape } from '../fields';
import { mileageRateSchema, rateListFilters } from './schemas';

/** settings.mileageRates.list: by valid_from; `on` for the rates in force that day; deactivated ones with include_inactive. */
export const listMileageRatesProcedure = settingsReadProcedure
  .input(z.strictObject({ ...rateListFilters, ...listInputShape }))
  .output(pageOutput(mileageRateSchema))
  .query(({ ctx, input }) => listMileageRates(svc(ctx), input));
