/**
 * Expense claims' part of the one transition step (services/workflow/take-transition.ts): the claim
 * row to lock, the facts the gates are evaluated on (the approval engine's sign-offs for this caller,
 * shared with the claim's read answer), the on-enter work (a new round, the frozen claimant unit and
 * the review sign-offs on submission; signatures on approve, and the next step's sign-offs when the
 * last one is signed; the raiser of a dispute; the settlement on pay) and the decision log entry with
 * its authority. It never decides who may take an edge: transitions.ts does.
 */
import { signSignoff } from '../../db/queries/approval-engine';
import { bumpClaimRevision, findClaim, findReadableClaim, insertClaimDecision, lockClaim, nextClaimDecisionSeq, type ClaimRow } from '../../db/queries/claims';
import { findPrimaryUnitOn } from '../../db/queries/people';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import { DIFFERENCE_STATE, openSignoffs, signoffPlaceOf, type ClaimStepFacts } from '../workflow/approvals/claim-step';
import type { TakenStep, TransitionAdapter, TransitionVia } from '../workflow/take-transition';
import { stateOf } from '../workflow/transitions';
import { claimFacts } from './claim-facts';
import { claimAnswer, claimReader, type ClaimAnswer } from './read-claim';
import { closeBankDifference, referBankDifference } from './claim-bank-difference';
import { writeSettlement, type PayClaimInput } from './claim-settlements';
import { notify } from '../mail/notify';
import { journalClaimApproved, journalClaimDifferenceApproved } from '../journal/record-events';
import type { NotificationKind } from '../../domain/mail';

/** What the claimant is told of a step: returned to them by an approver, rejected, paid; nothing else. */
function claimantNotice(step: TakenStep): NotificationKind | undefined {
  const to = stateOf(step.def, step.to).semantic;
  if (to === 'draft' && step.edge.gate === 'source') return 'claim_returned';
  if (to === 'rejected') return 'claim_rejected';
  if (to === 'payout') return 'claim_paid';
  return undefined;
}

/** Signs what the descriptor showed; answers where the claim goes and how the decision was authorised. */
async function signShares(ctx: ServiceContext, claim: ClaimRow, step: TakenStep, facts: ClaimStepFacts) {
  const paths = facts.signing.paths;
  for (const p of paths) {
    const signed = await signSignoff(
      ctx.db,
      { organizationId: ctx.org.id, id: p.signoff.id },
      {
        signatureId: crypto.randomUUID(),
        signedActorMemberId: ctx.principal.memberId,
        signedAuthorityMemberId: p.authorityMemberId,
        signedAt: ctx.now,
        signedVia: p.via,
        approverAssignmentId: p.approverAssignmentId,
      },
    );
    // The claim row is locked, so nobody signs between the facts and here; a miss is a bug.
    if (!signed) throw new AppError('conflict', { detail: 'A share was signed by someone else meanwhile; read the claim again' });
  }
  const signedIds = new Set(paths.map((p) => p.signoff.id));
  const unallocated = facts.signing.gaps.some((g) => g.reason === 'unallocated');
  const complete = !unallocated && facts.signoffs.every((s) => s.signatureId || signedIds.has(s.id));
  const delegated = paths.find((p) => p.via === 'delegation');
  const via: TransitionVia = delegated ? 'delegation' : paths.some((p) => p.via === 'escalation') ? 'escalation' : 'grant';
  const authority = delegated?.authorityMemberId ?? paths[0]?.authorityMemberId ?? ctx.principal.memberId;
  if (!complete) return { to: step.from, via, authority_member_id: authority };
  if (signoffPlaceOf(step.edge.to)) await openSignoffs(ctx, claim, step.edge.to);
  // Approved: the expense is owed to the claimant (a bank difference approved: the difference only,
  // read before the referred lines are reimbursed at their bank figures).
  if (stateOf(step.def, step.edge.to).semantic === 'committed') {
    if (step.from === DIFFERENCE_STATE) await journalClaimDifferenceApproved(ctx, claim);
    else await journalClaimApproved(ctx, claim);
  }
  if (step.from === DIFFERENCE_STATE) await closeBankDifference(ctx, claim, true);
  return { to: step.edge.to, via, authority_member_id: authority };
}

/**
 * The adapter; `pay` carries the payout's data when the step is paying (expenses.claims.pay), the
 * preferred channel otherwise, and the bank figures when it refers a difference
 * (expenses.claims.referDifference).
 */
export function claimTransitionAdapter(pay: PayClaimInput = {}): TransitionAdapter<ClaimRow, ClaimAnswer> {
  const stepFacts = new WeakMap<ClaimRow, ClaimStepFacts>();
  return {
    recordType: 'expense_claim',
    notFoundDetail: 'No such claim in this organization',
    // A claim the caller may not read is answered as one that does not exist (404), whatever they try.
    async lock(ctx, id) {
      const organizationId = ctx.org.id;
      const claim = await lockClaim(ctx.db, { organizationId, id });
      if (!claim || !(await findReadableClaim(ctx.db, { organizationId, id, reader: claimReader(ctx) }))) return undefined;
      return claim;
    },
    async facts(ctx, claim, def) {
      const { facts, step } = await claimFacts(ctx, claim, (s) => stateOf(def, s).semantic);
      stepFacts.set(claim, step);
      return facts;
    },
    async enter(ctx, claim, step) {
      const facts = stepFacts.get(claim)!;
      const fromDraft = stateOf(step.def, step.from).semantic === 'draft';
      if (fromDraft && stateOf(step.def, step.edge.to).semantic !== 'draft' && stateOf(step.def, step.edge.to).semantic !== 'cancelled') {
        // A new round: the claimant's unit as of today, frozen; the first step's sign-offs opened.
        const unit = await findPrimaryUnitOn(ctx.db, { organizationId: ctx.org.id, memberId: claim.claimantMemberId, day: ctx.today });
        const round = claim.round + 1;
        const set = { round, claimantPositionId: unit?.positionId ?? null, claimantUnitName: unit?.unitName ?? null, submittedAt: claim.submittedAt ?? ctx.now, disputeRaisedBy: null };
        if (signoffPlaceOf(step.edge.to)) await openSignoffs(ctx, { ...claim, ...set }, step.edge.to);
        return { set };
      }
      if (step.edge.signs) return signShares(ctx, claim, step, facts);
      const authority = step.edge.signoff_authority === 'account' ? facts.signing.accountAuthority : step.edge.signoff_authority ? facts.signing.stepAuthority : null;
      const decided = authority ? { via: authority.via, authority_member_id: authority.authorityMemberId } : {};
      if (step.edge.action_key === 'dispute') return { ...decided, set: { disputeRaisedBy: ctx.principal.memberId } };
      if (step.from === 'disputed') return { ...decided, set: { disputeRaisedBy: null } };
      if (step.edge.to === DIFFERENCE_STATE) return { ...decided, set: await referBankDifference(ctx, claim, pay) };
      // The difference declined: the referred figures are dropped, the claim stays at what was approved before.
      if (step.from === DIFFERENCE_STATE) {
        await closeBankDifference(ctx, claim, false);
        return decided;
      }
      if (stateOf(step.def, step.edge.to).semantic === 'payout') await writeSettlement(ctx, claim, pay);
      return decided;
    },
    async save(ctx, claim, change) {
      await bumpClaimRevision(ctx.db, { organizationId: ctx.org.id, id: claim.id, set: { ...change.set, state: change.state } });
    },
    async log(ctx, claim, step) {
      const organizationId = ctx.org.id;
      const via = step.via === 'system' ? (step.edge.gate === 'reporter' ? 'reporter' : 'grant') : step.via;
      await insertClaimDecision(ctx.db, {
        organizationId,
        claimId: claim.id,
        seq: await nextClaimDecisionSeq(ctx.db, { organizationId, claimId: claim.id }),
        actionKey: step.edge.action_key,
        actorMemberId: step.actorMemberId,
        authorityMemberId: step.authorityMemberId,
        decidedAt: step.decidedAt,
        fromState: step.from,
        toState: step.to,
        reason: step.reason,
        via,
      });
      const notice = step.to !== step.from ? claimantNotice(step) : undefined;
      if (notice) await notify(ctx, notice, { memberIds: [claim.claimantMemberId], claimId: claim.id, exceptMemberId: step.actorMemberId });
    },
    // The decider always sees the answer of what they decided, even when it leaves their hands.
    async answer(ctx, id) {
      const claim = await findClaim(ctx.db, { organizationId: ctx.org.id, id });
      if (!claim) throw new AppError('not_found');
      return claimAnswer(ctx, claim);
    },
  };
}
