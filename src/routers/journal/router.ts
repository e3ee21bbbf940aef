import { router } from '../trpc';
import { listJournalAccountsProcedure, setJournalAccountProcedure } from './accounts';
import { createExportProcedure, getExportProcedure, listExportsProcedure } from './exports';
import { trialBalanceProcedure } from './trial-balance';

export const journalRouter = router({
  accounts: router({ list: listJournalAccountsProcedure, set: setJournalAccountProcedure }),
  exports: router({ create: createExportProcedure, list: listExportsProcedure, get: getExportProcedure }),
  trialBalance: trialBalanceProcedure,
});
