import { analyticAxisContract } from '../../../contract/settings/analytic-axes';
import { createAnalyticAxis, deactivateAnalyticAxis, listAnalyticAxesPage, updateAnalyticAxis } from '../../../services/settings/analytic-axes';
import { setupRouter } from '../setup-router';

/** settings.analyticAxes.*: analytic axes; at most one is the organization's project axis. */
export const analyticAxesRouter = setupRouter(analyticAxisContract, { list: listAnalyticAxesPage, create: createAnalyticAxis, update: updateAnalyticAxis, deactivate: deactivateAnalyticAxis });
