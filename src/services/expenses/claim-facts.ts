/**
 * The facts a claim's workflow gates are evaluated on, for the caller: the approval engine's step
 * (sign-offs, what the caller may sign, their authority) and whether a draft may be submitted. The
 * read answer's available_transitions and the transition step both come from here.
 */
import type { ClaimRow } from '../../db/queries/claims';
import type { ServiceContext } from '../context';
import { claimStepFactsOf, type ClaimStepFacts, type EngineSetup } from '../workflow/approvals/claim-step';
import type { RecordFacts } from '../workflow/transitions';
import { claimLineGaps } from './claim-completeness';
import { claimLineLoader, type ClaimLineLoader } from './claim-line-batch';

/** The facts of one claim for the caller: what the gates read, and the engine's step for the on-enter work. */
export async function claimFacts(ctx: ServiceContext, claim: ClaimRow, semanticOf: (state: string) => string): Promise<{ facts: RecordFacts; step: ClaimStepFacts }> {
  return (await claimFactsOf(ctx, [claim], semanticOf))[0]!;
}

/**
 * claimFacts of several claims (a page of the claim list): the engine's steps and the lines of the
 * committed ones in statements that do not grow with their number; a draft's completeness is read
 * per draft (drafts have no sign-offs, so the to_act list never asks for one). Lines come through
 * `loader` (the page's, when a page asks), read once whatever reads them; the engine's set-up through
 * `setup` (afresh unless a read passes the cached one).
 */
export async function claimFactsOf(
  ctx: ServiceContext,
  claims: readonly ClaimRow[],
  semanticOf: (state: string) => string,
  loader: ClaimLineLoader = claimLineLoader(ctx),
  setup?: EngineSetup,
): Promise<{ facts: RecordFacts; step: ClaimStepFacts }[]> {
  const committed = claims.filter((c) => semanticOf(c.state) === 'committed').map((c) => c.id);
  const [steps, committedLines] = await Promise.all([claimStepFactsOf(ctx, claims, loader, setup), committed.length ? loader.load(committed) : undefined]);
  const out: { facts: RecordFacts; step: ClaimStepFacts }[] = [];
  for (const [i, claim] of claims.entries()) {
    const step = steps[i]!;
    const unmet: RecordFacts['unmet'] = {};
    if (semanticOf(claim.state) === 'draft') {
      const gaps = await claimLineGaps(ctx, claim.id);
      if (gaps.activeLines === 0) unmet.claim_has_lines = 'The claim has no active line to submit';
      if (gaps.incomplete.length) unmet.claim_lines_complete = `Lines are not complete: ${gaps.incomplete.join('; ')}`;
    }
    if (semanticOf(claim.state) === 'committed') {
      const lines = committedLines?.linesOf(claim.id) ?? [];
      if (!lines.some((l) => !l.withdrawn && l.reimbursementBasis === 'bank_charged')) {
        unmet.claim_has_bank_charged_lines = 'The claim has no active bank-charged line: there is no bank figure to refer';
      }
    }
    out.push({
      facts: {
        state: claim.state,
        reporterMemberId: claim.claimantMemberId,
        raiserMemberId: claim.disputeRaisedBy,
        stepComplete: step.complete,
        unmet,
        soleOwnerException: step.soleOwnerException,
        signing: step.signing,
        stepAuthority: step.signing.stepAuthority,
        accountAuthority: step.signing.accountAuthority,
      },
      step,
    });
  }
  return out;
}
