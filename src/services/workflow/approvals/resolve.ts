/**
 * Who may sign one sign-off (docs/design.md §17), pure: from the step's primary grant (the superior
 * walk on review, the account's approver assignments on finance, or a named holder), then its
 * fallback grants. The answer is an ordered list of groups: the first is who may sign when the step
 * opens, each later one is what an escalation hop adds. `gap` names the first reason the natural
 * approver was passed over; `passedOver` are members with authority whose band does not cover.
 */
import type { AssignmentRow, GrantRow } from '../../../db/queries/approval-engine';
import type { ApprovalBand, PassedOverApprover, SignoffAuthority, SignoffGap } from '../../../db/schema';
import type { ApprovalStep } from '../../../domain/approvals';
import { Dec, formatAmount } from '../../../lib/money';
import { stepUp, type OrgChart } from './org-chart';

export interface ResolveInput {
  chart: OrgChart;
  grants: GrantRow[];
  /** Approver assignments in force, on any account (filtered here). */
  assignments: AssignmentRow[];
  /** The same assignments by account, when the caller has them indexed (a page of sign-offs). */
  assignmentsByAccount?: Map<string, AssignmentRow[]>;
  claimantMemberId: string;
  /** The claimant's primary position on the day of the submission. */
  claimantPositionId: string | null;
  step: ApprovalStep;
  /** What bands compare: the claim total on review, the share on finance. */
  amount: string;
  currency: string;
  analyticAccountId: string;
  axisId: string;
}

export interface Resolution {
  /** The step's primary grant; undefined when the organization has none for this step (nobody can sign). */
  grantId?: string;
  groups: SignoffAuthority[][];
  passedOver: PassedOverApprover[];
  gap?: SignoffGap;
}

/** The grant a step starts from: review, the superior grant; finance, the axis's approver or default grant. */
export function primaryGrant(grants: GrantRow[], step: ApprovalStep, axisId: string): GrantRow | undefined {
  const active = grants.filter((g) => g.active && g.step === step);
  if (step === 'review') return active.find((g) => g.kind === 'superior') ?? active.find((g) => g.kind === 'default' && g.axisId === null);
  return (
    active.find((g) => g.kind === 'account_approver' && g.axisId === axisId) ??
    active.find((g) => g.kind === 'default' && g.axisId === axisId) ??
    active.find((g) => g.kind === 'account_approver' && g.axisId === null)
  );
}

function bandCovers(bands: ApprovalBand[], amount: string, level?: number): boolean {
  if (bands.length === 0) return true;
  const value = new Dec(amount);
  return bands.some((b) => (b.level === undefined || level === undefined || b.level === level) && value.gte(b.min_amount) && (b.max_amount === null || value.lte(b.max_amount)));
}

function bandText(bands: ApprovalBand[], amount: string, currency: string, level?: number): string {
  const applicable = bands.filter((b) => b.level === undefined || level === undefined || b.level === level);
  const ranges = applicable.map((b) => `${formatAmount(b.min_amount, currency)} to ${b.max_amount === null ? 'no limit' : formatAmount(b.max_amount, currency)}`);
  const what = ranges.length ? `band ${ranges.join(', ')}` : 'no band';
  return `${what}${level !== undefined ? ` (level ${level})` : ''} does not cover ${formatAmount(amount, currency)} ${currency}`;
}

const ownBands = new WeakMap<AssignmentRow, ApprovalBand[] | null>();

/**
 * An approver assignment's own band, or null for an open one (0 to no limit), which leaves the
 * grant's bands in force. Worked out once per row (the process's cached set-up hands the same rows
 * to every read).
 */
export function ownBand(a: AssignmentRow): ApprovalBand[] | null {
  let bands = ownBands.get(a);
  if (bands === undefined) {
    bands = a.maxAmount === null && new Dec(a.minAmount).isZero() ? null : [{ min_amount: a.minAmount, max_amount: a.maxAmount }];
    ownBands.set(a, bands);
  }
  return bands;
}

interface Candidate {
  memberId: string;
  approverAssignmentId: string | null;
  bands: ApprovalBand[];
  level?: number;
}

class Resolver {
  gap?: SignoffGap;
  passedOver: PassedOverApprover[] = [];
  /** Whether someone with authority was found at all (for `no_band_covers_amount` at the end). */
  found = false;
  /** Once someone may sign, later findings (higher levels, fallbacks) explain nothing about the natural approver. */
  settled = false;

  constructor(private readonly input: ResolveInput) {}

  noteGap(grantId: string, gap: Omit<SignoffGap, 'grant_id' | 'analytic_account_id' | 'axis_id'>) {
    if (this.settled) return;
    this.gap ??= { grant_id: grantId, ...gap, analytic_account_id: this.input.analyticAccountId, axis_id: this.input.axisId } as SignoffGap;
  }

  /**
   * Screens holders of one place (a position, an assignment, a named member): inactive, the claimant,
   * band. Answers the covering ones; notes the gap when nobody is left before the band.
   */
  screen(grant: GrantRow, candidates: Candidate[], where: { position_id?: string }, collectPassed: boolean): Candidate[] {
    const { chart, claimantMemberId, amount, currency } = this.input;
    if (candidates.length === 0) return [];
    const active = candidates.filter((c) => chart.active.has(c.memberId));
    if (active.length === 0) {
      this.noteGap(grant.id, { reason: 'member_inactive', member_id: candidates[0]!.memberId, ...where });
      return [];
    }
    const others = active.filter((c) => c.memberId !== claimantMemberId);
    if (others.length === 0) {
      this.noteGap(grant.id, { reason: 'only_the_claimant', member_id: claimantMemberId, ...where });
      return [];
    }
    this.found = true;
    const covering = others.filter((c) => bandCovers(c.bands, amount, c.level));
    if (collectPassed) {
      for (const c of others.filter((o) => !covering.includes(o))) {
        if (this.passedOver.some((p) => p.member_id === c.memberId)) continue;
        this.passedOver.push({ member_id: c.memberId, grant_id: grant.id, approver_assignment_id: c.approverAssignmentId, band: bandText(c.bands, amount, currency, c.level) });
      }
    }
    return covering;
  }

  /** Every covering level of the superior walk, nearest first. */
  superiorGroups(grant: GrantRow, collectPassed: boolean): Candidate[][] {
    const { chart, claimantPositionId, claimantMemberId } = this.input;
    const start = claimantPositionId ? chart.positions.get(claimantPositionId) : undefined;
    if (!start) {
      this.noteGap(grant.id, { reason: 'no_primary_position', member_id: claimantMemberId });
      return [];
    }
    const groups: Candidate[][] = [];
    const visited = new Set([start.id]);
    let cur = start;
    let level = 0;
    for (;;) {
      if (grant.maxLevels !== null && level >= grant.maxLevels) break;
      const step = stepUp(chart, cur);
      for (const h of step.headless) this.noteGap(grant.id, { reason: 'no_unit_head', position_id: h.fromPositionId });
      if (!step.next || visited.has(step.next.id)) break;
      const pos = step.next;
      visited.add(pos.id);
      cur = pos;
      level += 1;
      if (pos.retired) {
        this.noteGap(grant.id, { reason: 'position_retired', position_id: pos.id });
        continue;
      }
      const holders = chart.holders.get(pos.id) ?? [];
      if (holders.length === 0) {
        this.noteGap(grant.id, { reason: 'vacant', position_id: pos.id });
        continue;
      }
      const candidates = holders.map((memberId) => ({ memberId, approverAssignmentId: null, bands: grant.bands, level }));
      const covering = this.screen(grant, candidates, { position_id: pos.id }, collectPassed && groups.length === 0);
      if (covering.length) {
        groups.push(covering);
        this.settled = true;
      }
    }
    if (groups.length === 0) {
      if (this.found) this.noteGap(grant.id, { reason: 'no_band_covers_amount' });
      else this.noteGap(grant.id, { reason: 'above_root', position_id: cur.id });
    }
    return groups;
  }

  accountGroups(grant: GrantRow, collectPassed: boolean): Candidate[][] {
    const { assignmentsByAccount, analyticAccountId } = this.input;
    const list = assignmentsByAccount ? (assignmentsByAccount.get(analyticAccountId) ?? []) : this.input.assignments.filter((a) => a.analyticAccountId === analyticAccountId);
    if (list.length === 0) {
      this.noteGap(grant.id, { reason: 'no_account_approver' });
      return [];
    }
    const candidates = list.map((a) => ({ memberId: a.memberId, approverAssignmentId: a.id, bands: ownBand(a) ?? grant.bands }));
    const covering = this.screen(grant, candidates, {}, collectPassed);
    if (covering.length === 0 && this.found) this.noteGap(grant.id, { reason: 'no_band_covers_amount' });
    return covering.length ? [covering] : [];
  }

  defaultGroups(grant: GrantRow, collectPassed: boolean): Candidate[][] {
    const { chart } = this.input;
    let candidates: Candidate[] = [];
    let where: { position_id?: string } = {};
    if (grant.holderMemberId) candidates = [{ memberId: grant.holderMemberId, approverAssignmentId: null, bands: grant.bands }];
    else if (grant.holderPositionId) {
      const pos = chart.positions.get(grant.holderPositionId);
      where = { position_id: grant.holderPositionId };
      if (!pos || pos.retired) {
        this.noteGap(grant.id, { reason: 'position_retired', position_id: grant.holderPositionId });
        return [];
      }
      const holders = chart.holders.get(pos.id) ?? [];
      if (holders.length === 0) {
        this.noteGap(grant.id, { reason: 'vacant', position_id: pos.id });
        return [];
      }
      candidates = holders.map((memberId) => ({ memberId, approverAssignmentId: null, bands: grant.bands }));
    }
    const covering = this.screen(grant, candidates, where, collectPassed);
    if (candidates.length && covering.length === 0 && this.found) this.noteGap(grant.id, { reason: 'no_band_covers_amount' });
    return covering.length ? [covering] : [];
  }

  groupsOf(grant: GrantRow, collectPassed: boolean): Candidate[][] {
    if (grant.kind === 'superior') return this.superiorGroups(grant, collectPassed);
    if (grant.kind === 'account_approver') return this.accountGroups(grant, collectPassed);
    return this.defaultGroups(grant, collectPassed);
  }
}

/** Resolves one sign-off: who may sign now (groups[0]) and what each escalation hop would add. */
export function resolveSignoff(input: ResolveInput): Resolution {
  const primary = primaryGrant(input.grants, input.step, input.axisId);
  if (!primary) return { groups: [], passedOver: [] };
  const resolver = new Resolver(input);
  const groups: SignoffAuthority[][] = [];
  const seen = new Set<string>();
  const add = (grant: GrantRow, found: Candidate[][], viaPrimary: boolean) => {
    for (const g of found) {
      const fresh = g.filter((c) => !seen.has(c.memberId));
      if (fresh.length === 0) continue;
      for (const c of fresh) seen.add(c.memberId);
      const via = viaPrimary && groups.length === 0 ? 'grant' : 'escalation';
      groups.push(fresh.map((c) => ({ member_id: c.memberId, via, grant_id: grant.id, approver_assignment_id: c.approverAssignmentId })));
    }
  };
  add(primary, resolver.groupsOf(primary, true), true);
  if (groups.length) resolver.settled = true;
  // The fallback chain: each grant's fallback in turn (inactive ones passed through, never a cycle).
  const visited = new Set([primary.id]);
  let next = primary.fallbackGrantId;
  while (next && !visited.has(next)) {
    visited.add(next);
    const grant = input.grants.find((g) => g.id === next);
    if (!grant) break;
    if (grant.active) add(grant, resolver.groupsOf(grant, groups.length === 0), false);
    next = grant.fallbackGrantId;
  }
  return { grantId: primary.id, groups, passedOver: resolver.passedOver.filter((p) => !seen.has(p.member_id)), gap: resolver.gap };
}
