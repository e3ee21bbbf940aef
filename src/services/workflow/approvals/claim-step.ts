/**
 * The approval engine on one claim (docs/design.md §17): opening the sign-offs of a step when the
 * claim enters it, and what the caller may do on the step now. The claim's read answer and its
 * transition step both take their facts from `claimStepFacts`, so what is shown is what is enforced.
 */
import { recordEvent } from '../../events/append';
import {
  findClaimPolicyFacts,
  insertSignoffs,
  listAssignmentsOn,
  listDelegationsInForce,
  listGrants,
  listRequiredClaimAxes,
  listRoundSignoffsOf,
  listOpenSignoffsPage,
  loadOrgChart,
  replaceSignoffAuthorities,
  type AssignmentRow,
  type GrantRow,
  type OpenSignoffRow,
  type SignoffRow,
} from '../../../db/queries/approval-engine';
import type { ClaimRow } from '../../../db/queries/claims';
import type { SignoffAuthority } from '../../../db/schema';
import { APPROVAL_STEPS, type ApprovalStep } from '../../../domain/approvals';
import { groupBy } from '../../../lib/group-by';
import { claimLineLoader, type ClaimLineLoader, type ClaimLinesOf } from '../../expenses/claim-line-batch';
import { Dec, formatAmount } from '../../../lib/money';
import type { ServiceContext } from '../../context';
import type { DescriptorGap } from '../types';
import { accountAmounts, fromMinor, unallocatedAxes, type AmountLine } from './amounts';
import { actorSigning, eligibleNow, type ActorSigning } from './authority';
import { OrgChart } from './org-chart';
import { ownBand, primaryGrant, resolveSignoff, type Resolution } from './resolve';
import { notify } from '../../mail/notify';

/**
 * Where a claim state's sign-offs are: the state they are stored under and the grants' step they are
 * resolved on. Review and finance are their own; a disputed claim is still in finance's; a claim
 * whose bank difference is being approved (`difference`) has its own sign-offs, resolved as finance's
 * (each account's approvers, their bands compared with that account's part of the difference).
 */
export function signoffPlaceOf(state: string): { state: string; step: ApprovalStep } | undefined {
  if (state === 'disputed') return { state: 'finance', step: 'finance' };
  if (state === DIFFERENCE_STATE) return { state, step: 'finance' };
  return (APPROVAL_STEPS as readonly string[]).includes(state) ? { state, step: state as ApprovalStep } : undefined;
}

/** The sign-off step a claim state belongs to (the grants' step), if any. */
export function signoffStepOf(state: string): ApprovalStep | undefined {
  return signoffPlaceOf(state)?.step;
}

/** The claim state in which the difference between a bank figure and the approved amount is signed. */
export const DIFFERENCE_STATE = 'difference';

/** The grants' step a stored sign-off resolves on: review's own, finance's for finance and difference. */
const resolutionStep = (signoffState: string): ApprovalStep => (signoffState === 'review' ? 'review' : 'finance');

/** The claim's active lines with their shares, as the amounts need them. */
export async function activeLinesWithShares(ctx: ServiceContext, claimId: string): Promise<AmountLine[]> {
  return (await activeLinesWithSharesOf(ctx, [claimId])).get(claimId) ?? [];
}

/**
 * The active lines with their shares of several claims, by claim, in two statements side by side
 * whatever their number (none for claims the loader has read already).
 */
export async function activeLinesWithSharesOf(ctx: ServiceContext, claimIds: string[], loader: ClaimLineLoader = claimLineLoader(ctx)): Promise<Map<string, AmountLine[]>> {
  if (claimIds.length === 0) return new Map();
  const of = await loader.load(claimIds);
  return new Map(claimIds.map((id) => [id, amountLinesOf(of, id)]));
}

/** The claim's active lines with their shares, as the amounts need them, from lines already read. */
function amountLinesOf(of: ClaimLinesOf, claimId: string): AmountLine[] {
  return of
    .linesOf(claimId)
    .filter((l) => !l.withdrawn)
    .map((l) => ({
      base_amount: l.baseAmount,
      shares: of.sharesOf(l.id).map((s) => ({ analytic_account_id: s.analyticAccountId, axis_id: s.axisId, percentage: s.percentage, account_code: s.accountCode, account_name: s.accountName })),
    }));
}

/**
 * What the resolution of a claim's sign-offs reads, as of today: the chart (who is active only among
 * those it can name on these accounts), the grants (unless read already), the assignments in force.
 */
async function resolutionToday(ctx: ServiceContext, analyticAccountIds: string[], knownGrants?: GrantRow[]) {
  const [resolution, grants] = await Promise.all([freshChartAndAssignments(ctx, analyticAccountIds), knownGrants ?? listGrants(ctx.db, { organizationId: ctx.org.id })]);
  return { ...resolution, grants };
}

/** Today's chart (who is active only among those it can name on these accounts) and the accounts' assignments in force, read now. */
async function freshChartAndAssignments(ctx: ServiceContext, analyticAccountIds: string[]): Promise<ChartAndAssignments> {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const [chartRows, assignments] = await Promise.all([
    loadOrgChart(db, { organizationId, day: ctx.today, analyticAccountIds }),
    listAssignmentsOn(db, { organizationId, analyticAccountIds, day: ctx.today }),
  ]);
  return { chart: new OrgChart(chartRows, ctx.now), assignments, assignmentsByAccount: groupBy(assignments, (a) => a.analyticAccountId) };
}

type Today = Awaited<ReturnType<typeof resolutionToday>>;

/** The claim total in base (what review's bands compare). */
function claimTotal(lines: AmountLine[], base: string): string {
  return formatAmount(lines.reduce((sum, l) => sum.plus(l.base_amount), new Dec(0)), base);
}

const authorityKey = (a: Pick<SignoffAuthority, 'member_id' | 'grant_id' | 'approver_assignment_id'>) => `${a.member_id}|${a.grant_id}|${a.approver_assignment_id ?? ''}`;

/** One sign-off's resolution today, and the keys of every authority it gives (authorityKey). */
interface Resolved {
  res: Resolution;
  now: Set<string>;
}

const ownBandsIn = new WeakMap<readonly AssignmentRow[], boolean>();

/** Whether any of the assignments has a band of its own: once per list (the process's cached set-up hands the same list to every read). */
function someOwnBand(assignments: readonly AssignmentRow[]): boolean {
  let some = ownBandsIn.get(assignments);
  if (some === undefined) ownBandsIn.set(assignments, (some = assignments.some((a) => ownBand(a) !== null)));
  return some;
}

/**
 * Resolves unsigned sign-offs against one `today`. Sign-offs that resolve alike share one resolution:
 * the same step, claimant, claimant's position, account and axis, and, when some band of today's
 * grants or assignments compares amounts, the same amount and currency (without bands neither is
 * read: every holder covers, nobody is passed over). On a page of `to_act`, where an approver's
 * claims come from a few claimants on a few accounts, most sign-offs find theirs resolved already.
 */
function resolutionsOn(today: Today): (claim: Pick<ClaimRow, 'claimantMemberId' | 'claimantPositionId'>, s: SignoffRow, total: () => string) => Resolved {
  const amountsCompared = today.grants.some((g) => g.bands.length > 0) || someOwnBand(today.assignments);
  const seen = new Map<string, Resolved>();
  return (claim, s, total) => {
    const step = resolutionStep(s.state);
    // Review's bands compare the claim total (computed only when asked); finance's the share.
    const amount = () => (step === 'review' ? total() : s.amount);
    const key = `${step}|${claim.claimantMemberId}|${claim.claimantPositionId ?? ''}|${s.analyticAccountId}|${s.axisId}${amountsCompared ? `|${amount()}|${s.currency}` : ''}`;
    let resolved = seen.get(key);
    if (!resolved) {
      const res = resolveSignoff({
        ...today,
        claimantMemberId: claim.claimantMemberId,
        claimantPositionId: claim.claimantPositionId,
        step,
        amount: amount(),
        currency: s.currency,
        analyticAccountId: s.analyticAccountId,
        axisId: s.axisId,
      });
      resolved = { res, now: new Set(res.groups.flat().map(authorityKey)) };
      seen.set(key, resolved);
    }
    return resolved;
  };
}

/**
 * One unsigned sign-off's authority today. A stored authority is in force while today's resolution
 * still gives that member that grant (and that approver assignment): an assignment ended or
 * deactivated, a grant deactivated, a position left, a member deactivated or a band no longer
 * covering withdraws it. When none is left, the sign-off falls back the way opening does: today's
 * first group (the natural approver, else the grant's fallback). `added` are those not stored yet.
 */
function authorityInForce(s: SignoffRow, { res, now }: Resolved): { signoff: SignoffRow; added: SignoffAuthority[] } {
  const kept = s.authorities.filter((a) => now.has(authorityKey(a)));
  // Every stored authority still in force (the usual case): the sign-off as it is.
  if (kept.length === s.authorities.length && kept.length) return { signoff: s, added: [] };
  if (kept.length) return { signoff: { ...s, authorities: kept }, added: [] };
  const fallback = [...(res.groups[0] ?? [])];
  const stored = new Set(s.authorities.map(authorityKey));
  return {
    signoff: { ...s, authorities: fallback, gap: fallback.length ? s.gap : (res.gap ?? s.gap) },
    added: fallback.filter((a) => !stored.has(authorityKey(a))),
  };
}

/** Open sign-offs refreshed a page at a time (memory and statements per page, whatever their number). */
const REFRESH_PAGE = 500;

/**
 * After a change of who may approve (grants, approver assignments): every open sign-off of the
 * organization left with nobody in force gets today's fallback added to its authorities and
 * `eligible`, so the new approver can read the claim and finds it under to_act. Withdrawn
 * authorities stay stored (they no longer sign: claimStepFacts filters them). The open sign-offs are
 * walked a page at a time, each page in a bounded number of statements (its claims come with it;
 * lines only for review's totals), plus one write per sign-off that changes. With
 * `analyticAccountIds`, only the sign-offs on those accounts: a change that can move nothing else
 * (an approver assignment: a sign-off's resolution reads the assignments of its own account alone).
 */
export async function refreshOpenSignoffs(ctx: ServiceContext, opts: { analyticAccountIds?: string[]; pageSize?: number } = {}): Promise<void> {
  const organizationId = ctx.org.id;
  const { analyticAccountIds, pageSize = REFRESH_PAGE } = opts;
  let grants: GrantRow[] | undefined;
  let after: { value: string; id: string } | undefined;
  for (;;) {
    const page = await listOpenSignoffsPage(ctx.db, { organizationId, analyticAccountIds, after, limit: pageSize });
    if (page.length === 0) return;
    // The grants once, and only when there is something to resolve (most set-up changes find nothing open).
    grants ??= await listGrants(ctx.db, { organizationId });
    await refreshPage(ctx, page, grants);
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.after;
  }
}

async function refreshPage(ctx: ServiceContext, page: OpenSignoffRow[], grants: GrantRow[]): Promise<void> {
  const organizationId = ctx.org.id;
  const today = await resolutionToday(ctx, [...new Set(page.map((r) => r.signoff.analyticAccountId))], grants);
  const resolve = resolutionsOn(today);
  // Review's bands compare the claim total: the lines of the page's review claims, read once.
  const reviewed = [...new Set(page.filter((r) => r.signoff.state === 'review').map((r) => r.signoff.claimId))];
  const lines = reviewed.length ? await claimLineLoader(ctx).load(reviewed) : undefined;
  const totals = new Map<string, string>();
  const totalOf = (claimId: string) => () => {
    let total = totals.get(claimId);
    if (total === undefined) totals.set(claimId, (total = claimTotal(lines ? amountLinesOf(lines, claimId) : [], ctx.org.baseCurrency)));
    return total;
  };
  for (const { signoff: s, claim } of page) {
    const { added } = authorityInForce(s, resolve(claim, s, totalOf(s.claimId)));
    if (added.length === 0) continue;
    const eligible = [...new Set([...s.eligible, ...added.map((a) => a.member_id)])];
    await replaceSignoffAuthorities(ctx.db, { organizationId, id: s.id, authorities: [...s.authorities, ...added], eligible });
    await notify(ctx, 'signoff_requested', { memberIds: added.map((a) => a.member_id), claimId: s.claimId });
  }
}

/**
 * Opens the sign-offs of the claim state `state` for the claim's current round: one per analytic
 * account the lines charge — the active lines, or `lines` as given (a bank difference: each referred
 * line's difference over its approved amount, with its shares).
 */
export async function openSignoffs(
  ctx: ServiceContext,
  claim: Pick<ClaimRow, 'id' | 'claimantMemberId' | 'claimantPositionId' | 'round' | 'revision'>,
  state: string,
  given?: AmountLine[],
) {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;
  const place = signoffPlaceOf(state);
  if (!place) throw new Error(`claim state ${state} has no sign-offs`);
  const step = place.step;
  const lines = given ?? (await activeLinesWithShares(ctx, claim.id));
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
      state: place.state,
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
  const opened = await insertSignoffs(db, rows);
  // Each approver who may sign now is told (once, however many accounts they sign for).
  await notify(ctx, 'signoff_requested', { memberIds: rows.flatMap((r) => r.eligible), claimId: claim.id, exceptMemberId: ctx.principal.memberId });
  // Opened within the claim's step: the claim is at its next revision when the step commits.
  for (const signoff of opened) {
    await recordEvent(ctx, 'expenses.signoff.requested', { type: 'expense_claim', id: claim.id, revision: claim.revision + 1 }, {
      signoff_id: signoff.id,
      state: signoff.state,
      analytic_account_id: signoff.analyticAccountId,
      amount: signoff.amount,
      currency: signoff.currency,
      eligible_member_ids: signoff.eligible,
    });
  }
  return opened;
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
  /** The organization's count of active members (the workflow's actor reads it too). */
  activeMembers: number;
}

/** The step's sign-offs and what the caller may do on them, today. */
export async function claimStepFacts(ctx: ServiceContext, claim: ClaimRow): Promise<ClaimStepFacts> {
  return (await claimStepFactsOf(ctx, [claim]))[0]!;
}

/**
 * claimStepFacts of several claims (a page of the claim list), in two round trips whatever their
 * number: first, side by side, the policy, the sign-offs of every claim's round and step, the required
 * axes, the delegations in force, the grants, and the lines and shares (through `loader`, so the page
 * reuses them); then, when a sign-off is unsigned, today's chart and the approver assignments of the
 * accounts the unsigned sign-offs charge. The judgement of each claim is pure over what was read, and
 * each answer is the one claimStepFacts gives for that claim.
 */
/**
 * The organization's set-up the engine judges by: read afresh (freshEngineSetup: the transition step,
 * and anything that may write), or from the process cache under the organization's epoch for reads
 * (org-config-cache's cachedEngineSetup).
 */
export interface EngineSetup {
  policy(): Promise<Awaited<ReturnType<typeof findClaimPolicyFacts>>>;
  grants(): Promise<GrantRow[]>;
  requiredAxes(): Promise<Awaited<ReturnType<typeof listRequiredClaimAxes>>>;
  /** Every active delegation in force today (ctx.today), with whether its delegator and delegate are active. */
  delegations(): Promise<Awaited<ReturnType<typeof listDelegationsInForce>>>;
  /** Today's chart and the approver assignments in force on these accounts (at least: more do no harm, resolution filters by account). */
  chartAndAssignments(analyticAccountIds: string[]): Promise<ChartAndAssignments>;
}

export interface ChartAndAssignments {
  chart: OrgChart;
  assignments: AssignmentRow[];
  /** The assignments by account (resolution looks them up per sign-off). */
  assignmentsByAccount: Map<string, AssignmentRow[]>;
}

export function freshEngineSetup(ctx: ServiceContext): EngineSetup {
  const organizationId = ctx.org.id;
  return {
    policy: () => findClaimPolicyFacts(ctx.db, { organizationId }),
    grants: () => listGrants(ctx.db, { organizationId }),
    requiredAxes: () => listRequiredClaimAxes(ctx.db, { organizationId }),
    delegations: () => listDelegationsInForce(ctx.db, { organizationId, day: ctx.today }),
    chartAndAssignments: (analyticAccountIds) => freshChartAndAssignments(ctx, analyticAccountIds),
  };
}

export async function claimStepFactsOf(
  ctx: ServiceContext,
  claims: readonly ClaimRow[],
  loader: ClaimLineLoader = claimLineLoader(ctx),
  setup: EngineSetup = freshEngineSetup(ctx),
): Promise<ClaimStepFacts[]> {
  if (claims.length === 0) return [];
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const actorId = ctx.principal.memberId;
  const placed = claims.flatMap((claim) => {
    const place = signoffPlaceOf(claim.state);
    return place ? [{ claim, place }] : [];
  });
  const some = placed.length > 0;
  const [policy, storedRows, required, delegations, grants, linesRead] = await Promise.all([
    setup.policy(),
    listRoundSignoffsOf(db, { organizationId, keys: placed.map(({ claim, place }) => ({ claimId: claim.id, round: claim.round, state: place.state })) }),
    some ? setup.requiredAxes() : [],
    some ? setup.delegations() : [],
    some ? setup.grants() : [],
    some ? loader.load(placed.map(({ claim }) => claim.id)) : undefined,
  ]);
  const stored = groupBy(storedRows, (s) => s.claimId);
  const unsignedOf = (claimId: string) => (stored.get(claimId) ?? []).filter((s) => !s.signatureId);
  const unsignedAccounts = [...new Set(placed.flatMap(({ claim }) => unsignedOf(claim.id).map((s) => s.analyticAccountId)))];
  const today = unsignedAccounts.length ? { ...(await setup.chartAndAssignments(unsignedAccounts)), grants } : undefined;
  const resolve = today && resolutionsOn(today);
  // Each claim's amount lines built once, when something asks (the total on review, the required axes).
  const amountLines = new Map<string, AmountLine[]>();
  const linesOf = (claimId: string) => {
    let lines = amountLines.get(claimId);
    if (!lines) amountLines.set(claimId, (lines = linesRead ? amountLinesOf(linesRead, claimId) : []));
    return lines;
  };
  // Authority is weighed at signing as at opening: only what is still in force today signs (and is shown).
  const inForce = new Map(
    placed.map(({ claim }) => {
      const signoffs = stored.get(claim.id) ?? [];
      if (!today || !signoffs.some((s) => !s.signatureId)) return [claim.id, signoffs];
      // The claim's total once, for however many of its review sign-offs ask.
      let sum: string | undefined;
      const total = () => (sum ??= claimTotal(linesOf(claim.id), ctx.org.baseCurrency));
      return [claim.id, signoffs.map((s) => (s.signatureId || !resolve ? s : authorityInForce(s, resolve(claim, s, total)).signoff))];
    }),
  );
  const authorityIds = new Set([...inForce.values()].flatMap((signoffs) => signoffs.flatMap((s) => s.authorities.map((a) => a.member_id))));
  // Delegations to the caller from active delegators; from the authorities to active delegates.
  const delegationsTo = delegations.filter((d) => d.delegateMemberId === actorId && d.delegatorActive);
  const delegationsFrom = delegations.filter((d) => d.delegateActive && authorityIds.has(d.delegatorMemberId));
  const axesOf = (claimId: string) => (required.length ? unallocatedAxes(linesOf(claimId), required.map((a) => a.id)) : []);

  return claims.map((claim) => {
    const soleOwner = policy.soleOwnerException && policy.activeMembers === 1 && actorId === claim.claimantMemberId;
    const common = { soleOwnerException: policy.soleOwnerException, activeMembers: policy.activeMembers };
    const step = signoffPlaceOf(claim.state)?.step;
    if (!step) {
      return {
        signoffs: [],
        eligible: new Map(),
        signing: actorSigning({ signoffs: [], actorId, claimantId: claim.claimantMemberId, delegations: [], unallocated: [], soleOwner }),
        complete: false,
        ...common,
      };
    }
    const signoffs = inForce.get(claim.id) ?? [];
    const unallocated = unallocatedGaps(grants, axesOf(claim.id), step);
    const signing = actorSigning({ signoffs, actorId, claimantId: claim.claimantMemberId, delegations: delegationsTo, unallocated, soleOwner });
    return {
      step,
      signoffs,
      eligible: new Map(signoffs.map((s) => [s.id, eligibleNow(s, delegationsFrom)])),
      signing,
      complete: signoffs.length > 0 && signoffs.every((s) => s.signatureId) && unallocated.length === 0,
      ...common,
    };
  });
}

/** Required axes the claim's active lines leave unallocated: each blocks the step (gap `unallocated`). */
function unallocatedGaps(grants: GrantRow[], axes: string[], step: ApprovalStep): DescriptorGap[] {
  return axes.flatMap((axis) => {
    const grant = primaryGrant(grants, step, axis);
    return grant ? [{ grant_id: grant.id, reason: 'unallocated' as const, axis_id: axis }] : [];
  });
}
