/**
 * The approval engine on one claim (DESIGN section 17): opening the sign-offs of a step when the
 * claim enters it, and what the caller may do on the step now. The claim's read answer and its
 * transition step both take their facts from `claimStepFacts`, so what is shown is what is enforced.
 */
import {
  findClaimPolicyFacts,
  insertSignoffs,
  listAssignmentsOn,
  listDelegationsFrom,
  listDelegationsTo,
  listGrants,
  listRequiredClaimAxes,
  listRoundSignoffs,
  listOpenSignoffs,
  loadOrgChart,
  replaceSignoffAuthorities,
  type SignoffRow,
} from '../../../db/queries/approval-engine';
import { findClaim, listClaimLines, listLineShares, type ClaimRow } from '../../../db/queries/claims';
import type { SignoffAuthority } from '../../../db/schema';
import { APPROVAL_STEPS, type ApprovalStep } from '../../../domain/approvals';
import { Dec, formatAmount } from '../../../lib/money';
import type { ServiceContext } from '../../context';
import type { DescriptorGap } from '../types';
import { accountAmounts, fromMinor, unallocatedAxes, type AmountLine } from './amounts';
import { actorSigning, eligibleNow, type ActorSigning } from './authority';
import { OrgChart } from './org-chart';
import { primaryGrant, resolveSignoff } from './resolve';

/** The sign-off step a claim state belongs to: its own for review and finance; a disputed claim is still in finance's. */
export function signoffStepOf(state: string): ApprovalStep | undefined {
  if (state === 'disputed') return 'finance';
  return (APPROVAL_STEPS as readonly string[]).includes(state) ? (state as ApprovalStep) : undefined;
}

/** The claim's active lines with their shares, as the amounts need them. */
export async function activeLinesWithShares(ctx: ServiceContext, claimId: string): Promise<AmountLine[]> {
  const organizationId = ctx.principal.organizationId;
  const lines = (await listClaimLines(ctx.db, { organizationId, claimId })).filter((l) => !l.withdrawn);
  const shares = await listLineShares(ctx.db, { organizationId, lineIds: lines.map((l) => l.id) });
  return lines.map((l) => ({
    base_amount: l.baseAmount,
    shares: shares
      .filter((s) => s.lineId === l.id)
      .map((s) => ({ analytic_account_id: s.analyticAccountId, axis_id: s.axisId, percentage: s.percentage, account_code: s.accountCode, account_name: s.accountName })),
  }));
}

/** What the resolution of a claim's sign-offs reads, as of today: the chart, the grants, the assignments in force. */
async function resolutionToday(ctx: ServiceContext, analyticAccountIds: string[]) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const [chartRows, grants, assignments] = await Promise.all([
    loadOrgChart(db, { organizationId, day: ctx.today }),
    listGrants(db, { organizationId }),
    listAssignmentsOn(db, { organizationId, analyticAccountIds, day: ctx.today }),
  ]);
  return { chart: new OrgChart(chartRows, ctx.now), grants, assignments };
}

type Today = Awaited<ReturnType<typeof resolutionToday>>;

/** The claim total in base (what review's bands compare). */
function claimTotal(lines: AmountLine[], base: string): string {
  return formatAmount(lines.reduce((sum, l) => sum.plus(l.base_amount), new Dec(0)), base);
}

const authorityKey = (a: Pick<SignoffAuthority, 'member_id' | 'grant_id' | 'approver_assignment_id'>) => `${a.member_id}|${a.grant_id}|${a.approver_assignment_id ?? ''}`;

/**
 * One unsigned sign-off's authority today. A stored authority is in force while today's resolution
 * still gives that member that grant (and that approver assignment): an assignment ended or
 * deactivated, a grant deactivated, a position left, a member deactivated or a band no longer
 * covering withdraws it. When none is left, the sign-off falls back the way opening does: today's
 * first group (the natural approver, else the grant's fallback). `added` are those not stored yet.
 */
function authorityInForce(
  today: Today,
  claim: Pick<ClaimRow, 'claimantMemberId' | 'claimantPositionId'>,
  s: SignoffRow,
  total: string,
): { signoff: SignoffRow; added: SignoffAuthority[] } {
  const step: ApprovalStep = s.state === 'review' ? 'review' : 'finance';
  const res = resolveSignoff({
    ...today,
    claimantMemberId: claim.claimantMemberId,
    claimantPositionId: claim.claimantPositionId,
    step,
    amount: step === 'review' ? total : s.amount,
    currency: s.currency,
    analyticAccountId: s.analyticAccountId,
    axisId: s.axisId,
  });
  const now = new Set(res.groups.flat().map(authorityKey));
  const kept = s.authorities.filter((a) => now.has(authorityKey(a)));
  if (kept.length) return { signoff: { ...s, authorities: kept }, added: [] };
  const fallback = res.groups[0] ?? [];
  const stored = new Set(s.authorities.map(authorityKey));
  return {
    signoff: { ...s, authorities: fallback, gap: fallback.length ? s.gap : (res.gap ?? s.gap) },
    added: fallback.filter((a) => !stored.has(authorityKey(a))),
  };
}

/** The step's sign-offs with each unsigned one's authority as in force today (signed ones as they are). */
async function signoffsInForce(ctx: ServiceContext, claim: ClaimRow, signoffs: SignoffRow[]): Promise<SignoffRow[]> {
  const unsigned = signoffs.filter((s) => !s.signatureId);
  if (unsigned.length === 0) return signoffs;
  const [today, lines] = await Promise.all([resolutionToday(ctx, unsigned.map((s) => s.analyticAccountId)), activeLinesWithShares(ctx, claim.id)]);
  const total = claimTotal(lines, ctx.org.baseCurrency);
  return signoffs.map((s) => (s.signatureId ? s : authorityInForce(today, claim, s, total).signoff));
}

/**
 * After a change of who may approve (grants, approver assignments): every open sign-off of the
 * organization left with nobody in force gets today's fallback added to its authorities and
 * `eligible`, so the new approver can read the claim and finds it under to_act. Withdrawn
 * authorities stay stored (they no longer sign: claimStepFacts filters them).
 */
export async function refreshOpenSignoffs(ctx: ServiceContext): Promise<void> {
  const organizationId = ctx.principal.organizationId;
  const open = await listOpenSignoffs(ctx.db, { organizationId });
  if (open.length === 0) return;
  const today = await resolutionToday(ctx, [...new Set(open.map((s) => s.analyticAccountId))]);
  const totals = new Map<string, string>();
  for (const s of open) {
    const claim = await findClaim(ctx.db, { organizationId, id: s.claimId });
    if (!claim) continue;
    let total = totals.get(claim.id);
    if (total === undefined) {
      total = claimTotal(await activeLinesWithShares(ctx, claim.id), ctx.org.baseCurrency);
      totals.set(claim.id, total);
    }
    const { added } = authorityInForce(today, claim, s, total);
    if (added.length === 0) continue;
    const eligible = [...new Set([...s.eligible, ...added.map((a) => a.member_id)])];
    await replaceSignoffAuthorities(ctx.db, { organizationId, id: s.id, authorities: [...s.authorities, ...added], eligible });
  }
}

/** Opens the sign-offs of `step` for the claim's current round: one per analytic account its active lines charge. */
export async function openSignoffs(ctx: ServiceContext, claim: Pick<ClaimRow, 'id' | 'claimantMemberId' | 'claimantPositionId' | 'round'>, step: ApprovalStep) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const base = ctx.org.baseCurrency;
  const lines = await activeLinesWithShares(ctx, claim.id);
  const total = claimTotal(lines, base);
  const amounts = accountAmounts(lines, base);
  const today = await resolutionToday(ctx, amounts.map((a) => a.analytic_account_id));
  const rows = amounts.map((a) => {
    const amount = fromMinor(a.minor, base);
    const res = resolveSignoff({
      ...today,
      claimantMemberId: claim.claimantMemberId,
      claimantPositionId: claim.claimantPositionId,
      step,
      amount: step === 'review' ? total : amount,
      currency: base,
      analyticAccountId: a.analytic_account_id,
      axisId: a.axis_id,
    });
    const authorities = res.groups[0] ?? [];
    return {
      organizationId,
      claimId: claim.id,
      round: claim.round,
      state: step,
      analyticAccountId: a.analytic_account_id,
      axisId: a.axis_id,
      accountCode: a.account_code,
      accountName: a.account_name,
      amount,
      currency: base,
      eligible: authorities.map((x) => x.member_id),
      authorities,
      passedOver: res.passedOver,
      gap: res.gap ?? null,
      escalatedAt: ctx.now,
      createdAt: ctx.now,
    };
  });
  return insertSignoffs(db, rows);
}

export interface ClaimStepFacts {
  step?: ApprovalStep;
  signoffs: SignoffRow[];
  /** Each sign-off's eligible members now: authorities and their delegates in force. */
  eligible: Map<string, string[]>;
  signing: ActorSigning;
  /** Every sign-off of the step signed and nothing left unallocated: the step is done. */
  complete: boolean;
  soleOwnerException: boolean;
}

/** The step's sign-offs and what the caller may do on them, today. */
export async function claimStepFacts(ctx: ServiceContext, claim: ClaimRow): Promise<ClaimStepFacts> {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const actorId = ctx.principal.memberId;
  const step = signoffStepOf(claim.state);
  const policy = await findClaimPolicyFacts(db, { organizationId });
  const soleOwner = policy.soleOwnerException && policy.activeMembers === 1 && actorId === claim.claimantMemberId;
  if (!step) {
    return {
      signoffs: [],
      eligible: new Map(),
      signing: actorSigning({ signoffs: [], actorId, claimantId: claim.claimantMemberId, delegations: [], unallocated: [], soleOwner }),
      complete: false,
      soleOwnerException: policy.soleOwnerException,
    };
  }
  // Authority is weighed at signing as at opening: only what is still in force today signs (and is shown).
  const signoffs = await signoffsInForce(ctx, claim, await listRoundSignoffs(db, { organizationId, claimId: claim.id, round: claim.round, state: step }));
  const authorityIds = [...new Set(signoffs.flatMap((s) => s.authorities.map((a) => a.member_id)))];
  const [delegationsTo, delegationsFrom, unallocated] = await Promise.all([
    listDelegationsTo(db, { organizationId, delegateMemberId: actorId, day: ctx.today }),
    listDelegationsFrom(db, { organizationId, delegatorMemberIds: authorityIds, day: ctx.today }),
    unallocatedGaps(ctx, claim, step),
  ]);
  const signing = actorSigning({ signoffs, actorId, claimantId: claim.claimantMemberId, delegations: delegationsTo, unallocated, soleOwner });
  return {
    step,
    signoffs,
    eligible: new Map(signoffs.map((s) => [s.id, eligibleNow(s, delegationsFrom)])),
    signing,
    complete: signoffs.length > 0 && signoffs.every((s) => s.signatureId) && unallocated.length === 0,
    soleOwnerException: policy.soleOwnerException,
  };
}

/** Required axes the claim's active lines leave unallocated: each blocks the step (gap `unallocated`). */
async function unallocatedGaps(ctx: ServiceContext, claim: ClaimRow, step: ApprovalStep): Promise<DescriptorGap[]> {
  const organizationId = ctx.principal.organizationId;
  const required = await listRequiredClaimAxes(ctx.db, { organizationId });
  if (required.length === 0) return [];
  const axes = unallocatedAxes(await activeLinesWithShares(ctx, claim.id), required.map((a) => a.id));
  if (axes.length === 0) return [];
  const grants = await listGrants(ctx.db, { organizationId });
  return axes.flatMap((axis) => {
    const grant = primaryGrant(grants, step, axis);
    return grant ? [{ grant_id: grant.id, reason: 'unallocated' as const, axis_id: axis }] : [];
  });
}
