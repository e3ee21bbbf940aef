import { router } from '../trpc';
import { accountsRouter } from './accounts/router';
import { analyticAccountsRouter } from './analytic-accounts/router';
import { analyticAxesRouter } from './analytic-axes/router';
import { companyGroupsRouter } from './company-groups/router';
import { counterpartyMappingsRouter } from './counterparty-mappings/router';
import { customFieldsRouter } from './custom-fields/router';
import { taxCodesRouter } from './tax-codes/router';
import { tradeLinesRouter } from './trade-lines/router';

/** settings.<entity>.list|create|update|deactivate: the organization's reference data (tRPC only, DESIGN section 15). */
export const settingsRouter = router({
  accounts: accountsRouter,
  taxCodes: taxCodesRouter,
  analyticAxes: analyticAxesRouter,
  analyticAccounts: analyticAccountsRouter,
  customFields: customFieldsRouter,
  tradeLines: tradeLinesRouter,
  companyGroups: companyGroupsRouter,
  counterpartyMappings: counterpartyMappingsRouter,
});
