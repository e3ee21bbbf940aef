import { router } from '../trpc';

/** settings.<entity>.list|create|update|deactivate: the organization's reference data (tRPC only, DESIGN section 15). */
export const settingsRouter = router({});
