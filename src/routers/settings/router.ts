import { router } from '../trpc';
import { claimGroupsRouter } from './claim-groups/router';
import { exchangeRatesRouter } from './exchange-rates/router';
import { expenseCategoriesRouter } from './expense-categories/router';
import { mileageRatesRouter } from './mileage-rates/router';
import { orgUnitsRouter } from './org-units/router';
import { perDiemRatesRouter } from './per-diem-rates/router';
import { positionAssignmentsRouter } from './position-assignments/router';
import { positionsRouter } from './positions/router';

/** settings.<entity>.list|create|update|deactivate: the organization's reference data (tRPC only, DESIGN section 15). */
export const settingsRouter = router({
  orgUnits: orgUnitsRouter,
  positions: positionsRouter,
  positionAssignments: positionAssignmentsRouter,
  expenseCategories: expenseCategoriesRouter,
  claimGroups: claimGroupsRouter,
  mileageRates: mileageRatesRouter,
  perDiemRates: perDiemRatesRouter,
  exchangeRates: exchangeRatesRouter,
});
