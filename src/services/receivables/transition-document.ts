/**
 * A person's decision on a receivables document (receivables.invoices.transition): the one
 * transition step with the receivables adapter. The gates, the sole-owner exception, the edge
 * conditions and the on-enter work are theirs; this only names the adapter.
 */
import type { ServiceContext } from '../context';
import { takeTransition, type TakeTransitionInput } from '../workflow/take-transition';
import { receivableTransitionAdapter } from './transition-adapter';

export async function transitionDocument(ctx: ServiceContext, input: TakeTransitionInput) {
  return takeTransition(ctx, receivableTransitionAdapter, input);
}
