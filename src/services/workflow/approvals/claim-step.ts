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
  loadOrgChart,
  type SignoffRow,
} from '../../../db/queries/approval-engine';
import { listClaimLines, listLineShares, type ClaimRow } from '../../../db/queries/claims';
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

/** Opens the sign-offs of `step` for the claim's current round: one per analytic account its active lines charge. */
export async function openSignoffs(ctx: ServiceContext, claim: Pick<ClaimRow, 'id' | 'claimantMemberId' | 'claimantPositionId' | 'round'>, step: ApprovalStep) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const base = ctx.org.baseCurrency;
  const lines = await activeLinesWithShares(ctx, claim.id);
  const total = formatAmount(lines.reduce((sum, l) => sum.plus(l.base_amount), new Dec(0)), base);
  const amounts = accountAmounts(lines, base);
  const [chartRows, grants, assignments] = await Promise.all([
    loadOrgChart(db, { organizationId, day: ctx.today }),
    listGrants(db, { organizationId }),
    listAssignmentsOn(db, { organizationId, analyticAccountIds: amounts.map((a) => a.analytic_account_id), day: ctx.today }),
  ]);
  const chart = new OrgChart(chartRows, ctx.now);
  const rows = amounts.map((a) => {
    const amount = fromMinor(a.minor, base);
    const res = resolveSignoff({
      chart,
      grants,
      assignments,
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
  const signoffs = await listRoundSignoffs(db, { organizationId, claimId: claim.id, round: claim.round, state: step });
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
