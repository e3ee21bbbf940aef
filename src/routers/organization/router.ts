import { router } from '../trpc';
import { membersRouter } from './members/router';
import { rolesRouter } from './roles/router';
import { profileRouterShape } from './profile';
import { listSettingsHistoryProcedure } from './settings-history';

/** organization.*: the organization's profile, members, roles and settings history (tRPC only). */
export const organizationRouter = router({
  settingsHistory: router({ list: listSettingsHistoryProcedure }),
  members: membersRouter,
  roles: rolesRouter,
  profile: router(profileRouterShape),
});
