import { analyticAccountContract } from '../../../contract/settings/analytic-accounts';
import { createAnalyticAccount, deactivateAnalyticAccount, listAnalyticAccountsPage, updateAnalyticAccount } from '../../../services/settings/analytic-accounts';
import { setupRouter } from '../setup-router';

/** settings.analyticAccounts.*: departments, projects and the like, each on one axis. */
export const analyticAccountsRouter = setupRouter(analyticAccountContract, { list: listAnalyticAccountsPage, create: createAnalyticAccount, update: updateAnalyticAccount, deactivate: deactivateAnalyticAccount });
