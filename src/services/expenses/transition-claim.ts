/**
 * People's decisions on a claim (docs/design.md §11): every one goes through the one transition step
 * with the claims adapter. Paying is the `pay` edge carrying the payout's data; referring a bank
 * difference is the `refer_difference` edge carrying the bank figures.
 */
import type { ServiceContext } from '../context';
import { takeTransition, type TakeTransitionInput, type TakeTransitionOptions } from '../workflow/take-transition';
import type { ReferDifferenceInput } from './claim-bank-difference';
import type { PayClaimInput } from './claim-settlements';
import { claimTransitionAdapter } from './claim-transition-adapter';

export function transitionClaim(ctx: ServiceContext, input: TakeTransitionInput, options?: TakeTransitionOptions) {
  return takeTransition(ctx, claimTransitionAdapter(), input, options);
}

export function payClaim(ctx: ServiceContext, input: PayClaimInput & { id: string; expected_revision?: number }) {
  const { id, expected_revision, ...pay } = input;
  return takeTransition(ctx, claimTransitionAdapter(pay), { id, action_key: 'pay', expected_revision });
}

/** The payer refers the bank figures beyond the payout tolerance for approval of their difference (`refer_difference`). */
export function referClaimDifference(ctx: ServiceContext, input: ReferDifferenceInput & { id: string; reason?: string; expected_revision?: number }) {
  const { id, expected_revision, reason, ...refer } = input;
  return takeTransition(ctx, claimTransitionAdapter(refer), { id, action_key: 'refer_difference', reason, expected_revision });
}
