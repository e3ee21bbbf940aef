import { z } from 'zod';
import { listSettingsHistoryPage } from '../../services/settings/history';
import { svc } from '../context';
import { settingsReadProcedure } from '../procedures';
import { pageInputShape, pageOutput, uuid } from '../../contract/fields';

const entrySchema = z.object({
  id: uuid(),
  entity: z.string(),
  record_id: uuid(),
  action: z.string(),
  actor_member_id: uuid().nullable(),
  actor_via: z.string(),
  changed_at: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});

/** organization.settingsHistory.list: who changed which reference data or authority, when, before and after; newest first. */
export const listSettingsHistoryProcedure = settingsReadProcedure
  .input(z.strictObject({ entity: z.string().min(1).max(100).optional(), record_id: uuid().optional(), ...pageInputShape }))
  .output(pageOutput(entrySchema))
  .query(({ ctx, input }) => listSettingsHistoryPage(svc(ctx), input));
