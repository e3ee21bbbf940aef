/**
 * The facts a claim's workflow gates are evaluated on, for the caller: the approval engine's step
 * (sign-offs, what the caller may sign, their authority) and whether a draft may be submitted. The
 * read answer's available_transitions and the transition step both come from here.
 */
import type { ClaimRow } from '../../db/queries/claims';
import type { ServiceContext } from '../context';
import { claimStepFacts, type ClaimStepFacts } from '../workflow/approvals/claim-step';
import type { RecordFacts } from '../workflow/transitions';
import { claimLineGaps } from './claim-completeness';

/** The facts of one claim for the caller: what the gates read, and the engine's step for the on-enter work. */
export async function claimFacts(ctx: ServiceContext, claim: ClaimRow, semanticOf: (state: string) => string): Promise<{ facts: RecordFacts; step: ClaimStepFacts }> {
  const step = await claimStepFacts(ctx, claim);
  const unmet: RecordFacts['unmet'] = {};
  if (semanticOf(claim.state) === 'draft') {
    const gaps = await claimLineGaps(ctx, claim.id);
    if (gaps.activeLines === 0) unmet.claim_has_lines = 'The claim has no active line to submit';
    if (gaps.incomplete.length) unmet.claim_lines_complete = `Lines are not complete: ${gaps.incomplete.join('; ')}`;
  }
  const facts: RecordFacts = {
    state: claim.state,
    reporterMemberId: claim.claimantMemberId,
    raiserMemberId: claim.disputeRaisedBy,
    stepComplete: step.complete,
    unmet,
    soleOwnerException: step.soleOwnerException,
    signing: step.signing,
    stepAuthority: step.signing.stepAuthority,
    accountAuthority: step.signing.accountAuthority,
  };
  return { facts, step };
}

