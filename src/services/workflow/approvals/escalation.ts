/**
 * Escalation of unsigned sign-offs (docs/design.md §17): a sign-off of a claim still in its step,
 * unsigned after the organization's number of working days (weekends by the organization's state)
 * since it was opened or last escalated, gets its next hop — the next covering superior, or the
 * grant's fallback — added to who may sign (`via: escalation`), up to the policy's number of hops.
 * The original approvers stay eligible; nothing is ever approved by the job. Each hop is kept on the
 * sign-off (its authorities carry the hop number) and logged.
 */
import { recordEvent } from '../../events/append';
import type { Database } from '../../../db/client';
import { addSignoffHop, findClaimPolicyFacts, listAssignmentsOn, listDueSignoffs, listGrants, loadOrgChart, type SignoffRow } from '../../../db/queries/approval-engine';
import { findClaim } from '../../../db/queries/claims';
import { todayIn } from '../../../lib/dates';
import { Dec, formatAmount } from '../../../lib/money';
import { weekendDaysForState, workingDaysBetween } from '../../../lib/working-days';
import { systemContextFor } from '../../settings/setup';
import { activeLinesWithShares } from './claim-step';
import { OrgChart } from './org-chart';
import { resolveSignoff } from './resolve';
import { notify } from '../../mail/notify';

export interface EscalationResult {
  examined: number;
  escalated: { signoff_id: string; claim_id: string; hop: number; member_ids: string[] }[];
}

/** One pass over the sign-offs that may be due, at `now`; at most `limit` of them. */
export async function escalateDueSignoffs(db: Database, now: Date, limit = 200): Promise<EscalationResult> {
  const due = await listDueSignoffs(db, { limit });
  const out: EscalationResult = { examined: due.length, escalated: [] };
  for (const s of due) {
    const hop = await escalateOne(db, s, now);
    if (hop) out.escalated.push(hop);
  }
  return out;
}

async function escalateOne(db: Database, s: SignoffRow, now: Date) {
  const organizationId = s.organizationId;
  const ctx = await systemContextFor(db, organizationId, now);
  const policy = await findClaimPolicyFacts(db, { organizationId });
  if (s.escalationHops >= policy.escalationMaxHops) return undefined;
  const weekend = policy.weekendDays ?? weekendDaysForState(policy.sellerState);
  const since = todayIn(ctx.org.timeZone, s.escalatedAt ?? s.createdAt);
  if (workingDaysBetween(since, ctx.today, weekend) < policy.escalationWorkingDays) return undefined;

  const claim = await findClaim(db, { organizationId, id: s.claimId });
  if (!claim) return undefined;
  const lines = await activeLinesWithShares(ctx, claim.id);
  const total = formatAmount(lines.reduce((sum, l) => sum.plus(l.base_amount), new Dec(0)), s.currency);
  const [chartRows, grants, assignments] = await Promise.all([
    loadOrgChart(db, { organizationId, day: ctx.today }),
    listGrants(db, { organizationId }),
    listAssignmentsOn(db, { organizationId, analyticAccountIds: [s.analyticAccountId], day: ctx.today }),
  ]);
  const res = resolveSignoff({
    chart: new OrgChart(chartRows, now),
    grants,
    assignments,
    claimantMemberId: claim.claimantMemberId,
    claimantPositionId: claim.claimantPositionId,
    step: s.state === 'review' ? 'review' : 'finance',
    amount: s.state === 'review' ? total : s.amount,
    currency: s.currency,
    analyticAccountId: s.analyticAccountId,
    axisId: s.axisId,
  });
  const have = new Set(s.authorities.map((a) => a.member_id));
  const next = res.groups.map((g) => g.filter((a) => !have.has(a.member_id))).find((g) => g.length > 0);
  const hop = s.escalationHops + 1;
  if (!next) {
    // Nobody further up: wait another period before looking again.
    await addSignoffHop(db, { organizationId, id: s.id, authorities: s.authorities, eligible: s.eligible, hops: s.escalationHops, at: now });
    return undefined;
  }
  const added = next.map((a) => ({ ...a, via: 'escalation' as const, hop }));
  await addSignoffHop(db, {
    organizationId,
    id: s.id,
    authorities: [...s.authorities, ...added],
    eligible: [...s.eligible, ...added.map((a) => a.member_id)],
    hops: hop,
    at: now,
  });
  await notify(ctx, 'signoff_requested', { memberIds: added.map((a) => a.member_id), claimId: s.claimId });
  await recordEvent(ctx, 'expenses.signoff.escalated', { type: 'expense_claim', id: claim.id, revision: claim.revision }, {
    signoff_id: s.id,
    hop,
    added_member_ids: added.map((a) => a.member_id),
  });
  return { signoff_id: s.id, claim_id: s.claimId, hop, member_ids: added.map((a) => a.member_id) };
}
