import { router } from '../../trpc';
import { createMileageRateProcedure } from './create-mileage-rate';
import { deactivateMileageRateProcedure } from './deactivate-mileage-rate';
import { listMileageRatesProcedure } from './list-mileage-rates';
import { updateMileageRateProcedure } from './update-mileage-rate';

/** settings.mileageRates.*: dated rates per km with distance bands. */
export const mileageRatesRouter = router({
  list: listMileageRatesProcedure,
  create: createMileageRateProcedure,
  update: updateMileageRateProcedure,
  deactivate: deactivateMileageRateProcedure,
});
