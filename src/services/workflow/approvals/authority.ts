/**
 * What one actor may do on a claim's sign-off step (docs/design.md §17), pure: which unsigned shares
 * they may sign now and on whose authority (their own, or a delegator's through a delegation in
 * force), or the refusal in the contract's order: self_approval, already_signed,
 * no_band_covers_amount, not_in_band. The descriptor and the act both come from here.
 */
import type { DelegationRow, SignoffRow } from '../../../db/queries/approval-engine';
import type { SignoffAuthority } from '../../../db/schema';
import type { DescriptorGap } from '../types';
import type { AuthorityPath, SigningFacts } from '../transitions';
import { formatAmount } from '../../../lib/money';

/** One share the actor signs, with the authority they sign it on. */
export interface SignPath extends AuthorityPath {
  signoff: SignoffRow;
  approverAssignmentId: string | null;
}

function delegationCovers(d: DelegationRow, a: SignoffAuthority, s: SignoffRow): boolean {
  switch (d.scope) {
    case 'all':
      return true;
    case 'grant':
      return d.grantId === a.grant_id;
    case 'axis':
      return d.axisId === s.axisId;
    case 'analytic_account':
      return d.analyticAccountId === s.analyticAccountId;
  }
}

/** The actor's ways to sign one sign-off: their own authority first, else a delegator's (one hop only). */
export function pathsOn(s: SignoffRow, actorId: string, delegations: DelegationRow[]): SignPath[] {
  const own = s.authorities
    .filter((a) => a.member_id === actorId)
    .map((a) => ({ signoff: s, authorityMemberId: actorId, via: a.via, approverAssignmentId: a.approver_assignment_id }));
  if (own.length) return own;
  return s.authorities.flatMap((a) =>
    delegations
      .filter((d) => d.delegatorMemberId === a.member_id && d.delegateMemberId === actorId && delegationCovers(d, a, s))
      .map(() => ({ signoff: s, authorityMemberId: a.member_id, via: 'delegation' as const, approverAssignmentId: a.approver_assignment_id })),
  );
}

/** Members who may sign the sign-off now: its authorities and their delegates in force. */
export function eligibleNow(s: SignoffRow, delegationsFromAuthorities: DelegationRow[]): string[] {
  const out = s.authorities.map((a) => a.member_id);
  for (const a of s.authorities) {
    for (const d of delegationsFromAuthorities) {
      if (d.delegatorMemberId === a.member_id && delegationCovers(d, a, s) && !out.includes(d.delegateMemberId)) out.push(d.delegateMemberId);
    }
  }
  return out;
}

export interface ActorSigningInput {
  signoffs: SignoffRow[];
  actorId: string;
  claimantId: string;
  /** Delegations to the actor in force today. */
  delegations: DelegationRow[];
  /** Axes the claim must be allocated on but is not (each a gap that blocks the step). */
  unallocated: DescriptorGap[];
  /** The organization turned the sole-owner exception on for claims and the actor is its one active member. */
  soleOwner: boolean;
}

export interface ActorSigning extends SigningFacts {
  paths: SignPath[];
  stepAuthority: AuthorityPath | null;
  accountAuthority: AuthorityPath | null;
}

const SELF_APPROVAL = 'You may not approve your own claim, nor on the authority of the claimant (segregation of duties)';

function gapOf(s: SignoffRow): DescriptorGap | undefined {
  if (!s.gap) return undefined;
  return { ...s.gap, analytic_account_id: s.analyticAccountId, axis_id: s.axisId };
}

export function actorSigning(input: ActorSigningInput): ActorSigning {
  const { signoffs, actorId, claimantId, delegations } = input;
  const unsigned = signoffs.filter((s) => !s.signatureId);
  const gaps = [...unsigned.filter((s) => s.authorities.length === 0).flatMap((s) => gapOf(s) ?? []), ...input.unallocated];
  const view = (p: SignPath) => ({
    account_code: p.signoff.accountCode,
    account_name: p.signoff.accountName,
    amount: formatAmount(p.signoff.amount, p.signoff.currency),
    analytic_account_id: p.signoff.analyticAccountId,
    axis_id: p.signoff.axisId,
    authority_member_id: p.authorityMemberId,
    via: p.via,
  });

  const allPaths = signoffs.flatMap((s) => pathsOn(s, actorId, delegations));
  // Acting on the claimant's authority is self-approval whoever the actor is.
  const usable = allPaths.filter((p) => p.authorityMemberId !== claimantId);
  const open = usable.filter((p) => !p.signoff.signatureId);
  const passed = unsigned.filter((s) =>
    s.passedOver.some((p) => p.member_id === actorId || delegations.some((d) => d.delegatorMemberId === p.member_id && d.delegateMemberId === actorId)),
  );
  const first = usable[0] ?? null;
  const stepAuthority: AuthorityPath | null = first
    ? { authorityMemberId: first.authorityMemberId, via: first.via }
    : passed.length
      ? { authorityMemberId: actorId, via: 'grant' }
      : null;
  const account = open.find((p) => p.approverAssignmentId !== null);
  const accountAuthority = account ? { authorityMemberId: account.authorityMemberId, via: account.via } : null;
  const base = { gaps, stepAuthority, accountAuthority };

  if (actorId === claimantId) {
    if (input.soleOwner && unsigned.length) {
      const paths = unsigned.map((s) => ({ signoff: s, authorityMemberId: actorId, via: 'grant' as const, approverAssignmentId: null }));
      return { ...base, paths, signs: paths.map(view), soleOwnerException: true };
    }
    return { ...base, paths: [], signs: [], refusal: { code: 'self_approval', detail: SELF_APPROVAL } };
  }
  // One path per sign-off: the first (own authority before a delegator's).
  const paths = open.filter((p, i) => open.findIndex((q) => q.signoff.id === p.signoff.id) === i);
  if (paths.length) return { ...base, paths, signs: paths.map(view) };

  if (allPaths.length && usable.length === 0) return { ...base, paths: [], signs: [], refusal: { code: 'self_approval', detail: SELF_APPROVAL } };
  if (usable.length) {
    return { ...base, paths: [], signs: [], refusal: { code: 'already_signed', detail: 'Every share you may sign on this claim is already signed' } };
  }
  const nobody = passed.find((s) => s.authorities.length === 0);
  if (nobody) {
    return {
      ...base,
      paths: [],
      signs: [],
      refusal: { code: 'no_band_covers_amount', detail: `Nobody's band covers the ${nobody.accountCode} share of ${formatAmount(nobody.amount, nobody.currency)} ${nobody.currency}` },
    };
  }
  if (passed.length) {
    const s = passed[0]!;
    const p = s.passedOver.find((x) => x.member_id === actorId) ?? s.passedOver[0]!;
    return { ...base, paths: [], signs: [], refusal: { code: 'not_in_band', detail: `${s.accountCode}: your ${p.band}` } };
  }
  return { ...base, paths: [], signs: [] };
}
