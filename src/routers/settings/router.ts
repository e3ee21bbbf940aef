import { router } from '../trpc';
import { accountsRouter } from './accounts/router';
import { ageingSettingsRouter } from './ageing/router';
import { analyticAccountsRouter } from './analytic-accounts/router';
import { analyticAxesRouter } from './analytic-axes/router';
import { approvalGrantsRouter } from './approval-grants/router';
import { approverAssignmentsRouter } from './approver-assignments/router';
import { claimPolicyRouter } from './claim-policy/router';
import { paymentRemindersRouter } from './payment-reminders/router';
import { claimGroupsRouter } from './claim-groups/router';
import { companyGroupsRouter } from './company-groups/router';
import { counterpartyMappingsRouter } from './counterparty-mappings/router';
import { customFieldsRouter } from './custom-fields/router';
import { delegationsRouter } from './delegations/router';
import { einvoicingRouter } from './einvoicing/router';
import { exchangeRatesRouter } from './exchange-rates/router';
import { expenseCategoriesRouter } from './expense-categories/router';
import { mileageRatesRouter } from './mileage-rates/router';
import { orgUnitsRouter } from './org-units/router';
import { perDiemRatesRouter } from './per-diem-rates/router';
import { positionAssignmentsRouter } from './position-assignments/router';
import { positionsRouter } from './positions/router';
import { taxCodesRouter } from './tax-codes/router';
import { tradeLinesRouter } from './trade-lines/router';

/** settings.<entity>.list|create|update|deactivate: the organization's reference data (tRPC only, docs/design.md §15). */
export const settingsRouter = router({
  orgUnits: orgUnitsRouter,
  positions: positionsRouter,
  positionAssignments: positionAssignmentsRouter,
  expenseCategories: expenseCategoriesRouter,
  claimGroups: claimGroupsRouter,
  mileageRates: mileageRatesRouter,
  perDiemRates: perDiemRatesRouter,
  exchangeRates: exchangeRatesRouter,
  accounts: accountsRouter,
  taxCodes: taxCodesRouter,
  analyticAxes: analyticAxesRouter,
  analyticAccounts: analyticAccountsRouter,
  customFields: customFieldsRouter,
  tradeLines: tradeLinesRouter,
  companyGroups: companyGroupsRouter,
  counterpartyMappings: counterpartyMappingsRouter,
  approvalGrants: approvalGrantsRouter,
  approverAssignments: approverAssignmentsRouter,
  delegations: delegationsRouter,
  claimPolicy: claimPolicyRouter,
  paymentReminders: paymentRemindersRouter,
  einvoicing: einvoicingRouter,
  ageing: ageingSettingsRouter,
});
