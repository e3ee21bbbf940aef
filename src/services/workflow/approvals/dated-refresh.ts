/**
 * The calendar's refresh of open sign-offs (docs/design.md §17). Authority is weighed on the day:
 * an approver assignment or a position held until yesterday no longer signs today, and a sign-off
 * left with nobody in force falls back the way opening would. Reads apply that at once; what they
 * cannot do is add the fallback to the sign-off's `eligible`, which is what lets the fallback
 * approver read the claim and find it under `to_act`. Set-up writes do that when they change who may
 * approve (refreshOpenSignoffs); this pass does it when a dated start or end passes with no write.
 */
import type { Database } from '../../../db/client';
import { listDatedRefreshDue, markSignoffsRefreshed } from '../../../db/queries/approval-engine';
import { systemContextFor } from '../../settings/setup';
import { refreshOpenSignoffs } from './claim-step';

export interface DatedRefreshResult {
  /** The organizations refreshed, with the day they were refreshed as of. */
  refreshed: { organization_id: string; day: string }[];
}

/**
 * One pass at `now`: each organization due (listDatedRefreshDue: at most `limit`, the rest on the
 * next pass) has its open sign-offs refreshed as of its own day, then that day recorded.
 */
export async function refreshSignoffsOnPassingDates(db: Database, now: Date, limit = 50): Promise<DatedRefreshResult> {
  const due = await listDatedRefreshDue(db, { now, limit });
  const out: DatedRefreshResult = { refreshed: [] };
  for (const organizationId of due) {
    const ctx = await systemContextFor(db, organizationId, now);
    await refreshOpenSignoffs(ctx);
    // The day the refresh judged by (the context's), which is the organization's day at `now`.
    await markSignoffsRefreshed(db, { organizationId, day: ctx.today });
    out.refreshed.push({ organization_id: organizationId, day: ctx.today });
  }
  return out;
}
