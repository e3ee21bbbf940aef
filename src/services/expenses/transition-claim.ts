/**
 * People's decisions on a claim (DESIGN section 11): every one goes through the one transition step
 * with the claims adapter. Paying is the `pay` edge carrying the payout's data.
 */
import type { ServiceContext } from '../context';
import { takeTransition, type TakeTransitionInput, type TakeTransitionOptions } from '../workflow/take-transition';
import type { PayClaimInput } from './claim-settlements';
import { claimTransitionAdapter } from './claim-transition-adapter';

export function transitionClaim(ctx: ServiceContext, input: TakeTransitionInput, options?: TakeTransitionOptions) {
  return takeTransition(ctx, claimTransitionAdapter(), input, options);
}

export function payClaim(ctx: ServiceContext, input: PayClaimInput & { id: string; expected_revision?: number }) {
  const { id, expected_revision, ...pay } = input;
  return takeTransition(ctx, claimTransitionAdapter(pay), { id, action_key: 'pay', expected_revision });
}
