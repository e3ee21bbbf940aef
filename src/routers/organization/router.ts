import { router } from '../trpc';
import { apiKeysRouter } from './api-keys/router';
import { membersRouter } from './members/router';
import { rolesRouter } from './roles/router';
import { profileRouterShape } from './profile';
import { readinessProcedure } from './readiness';
import { listSettingsHistoryProcedure } from './settings-history';
import { eventsRouter } from './events';
import { webhookEndpointsRouter } from './webhooks/router';

/** organization.*: the organization's profile, members, roles, settings history and readiness (tRPC only), integration keys, events and webhook endpoints. */
export const organizationRouter = router({
  settingsHistory: router({ list: listSettingsHistoryProcedure }),
  members: membersRouter,
  roles: rolesRouter,
  profile: router(profileRouterShape),
  readiness: readinessProcedure,
  apiKeys: apiKeysRouter,
  events: eventsRouter,
  webhookEndpoints: webhookEndpointsRouter,
});
