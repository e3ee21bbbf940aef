import { router } from '../../trpc';
import { createPerDiemRateProcedure } from './create-per-diem-rate';
import { deactivatePerDiemRateProcedure } from './deactivate-per-diem-rate';
import { listPerDiemRatesProcedure } from './list-per-diem-rates';
import { updatePerDiemRateProcedure } from './update-per-diem-rate';

/** settings.perDiemRates.*: dated daily allowances with bands. */
export const perDiemRatesRouter = router({
  list: listPerDiemRatesProcedure,
  create: createPerDiemRateProcedure,
  update: updatePerDiemRateProcedure,
  deactivate: deactivatePerDiemRateProcedure,
});
