import { router } from '../trpc';
import { profileRouterShape } from './profile';
import { listSettingsHistoryProcedure } from './settings-history';

/** organization.*: the organization's profile, members, roles and settings history (tRPC only). */
export const organizationRouter = router({
  settingsHistory: router({ list: listSettingsHistoryProcedure }),
  profile: router(profileRouterShape),
});
