/**
 * Issuing a receivables document: the `issue` edge taken through the one transition step
 * (services/workflow/take-transition.ts, receivables adapter). Kept for the demo seed, the CLI and
 * test factories: with a person's principal the gates apply as for `receivables.invoices.transition`;
 * the system acting on a member's behalf is trusted with the gates (logged `via: system`). Either
 * way it never issues a credit note beyond what is left to credit on its invoice.
 */
import type { ServiceContext } from '../context';
import { takeTransition } from '../workflow/take-transition';
import { receivableTransitionAdapter } from './transition-adapter';

export interface IssueDocumentInput {
  id: string;
  /** Recorded on the timeline; required for the sole-owner exception. */
  reason?: string;
  /** Ignored (the step derives it from the gate); kept so older callers compile. */
  via?: 'grant' | 'sole_owner_exception';
  expected_revision?: number;
}

/** Takes the `issue` edge as the caller and answers the issued document's reference. */
export async function issueDocument(ctx: ServiceContext, input: IssueDocumentInput) {
  const doc = await takeTransition(
    ctx,
    receivableTransitionAdapter,
    { id: input.id, action_key: 'issue', ...(input.reason !== undefined ? { reason: input.reason } : {}), ...(input.expected_revision !== undefined ? { expected_revision: input.expected_revision } : {}) },
    { systemOverridesGates: true },
  );
  return { reference: doc.reference as string, document: doc };
}
