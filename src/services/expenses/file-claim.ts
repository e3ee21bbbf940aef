/**
 * Filing an expense claim (POST /v1/expenses/claims) for the caller: with an API key, for the key's
 * owner. Nobody files for anybody else, and a claim never starts anywhere but in the workflow's
 * initial (draft) state, in the organization's base currency, at revision 1.
 */
import { recordEvent } from '../events/append';
import { findClaimGroup, insertClaim } from '../../db/queries/claims';
import { findPayoutChannel } from '../../db/queries/people';
import { nextSequenceValue } from '../../db/queries/sequences';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { loadWorkflow } from '../workflow/workflows';
import { checkClaimTitle } from './claim-title';
import { claimAnswer, type ClaimAnswer } from './read-claim';

export interface FileClaimInput {
  title: string;
  group_id?: string | null;
  payout_channel_id?: string | null;
}

/** EC-YYYY-NNNN; a year past 9999 claims simply grows the number. */
export function claimReference(year: number, n: number): string {
  return `EC-${year}-${String(n).padStart(4, '0')}`;
}

/** Files the claim with the next reference of the organization's sequence for the current year. */
export async function fileClaim(ctx: ServiceContext, input: FileClaimInput): Promise<ClaimAnswer> {
  const { db, principal, org } = ctx;
  const organizationId = org.id;

  // Every rule is checked before refusing, so one answer names every field at fault.
  const r = new Refusals();
  const title = checkClaimTitle(input.title, org.recordLanguages);
  const titleValue = title.ok ? title.value : '';
  if (!title.ok) r.add('/title', title.reason);
  if (input.group_id) {
    const group = await findClaimGroup(db, { organizationId, id: input.group_id });
    if (!group) r.add('/group_id', 'is not a claim group of this organization');
    else if (group.retiredAt) r.add('/group_id', 'names a retired claim group');
  }
  if (input.payout_channel_id) {
    const channel = await findPayoutChannel(db, { organizationId, id: input.payout_channel_id });
    r.check(Boolean(channel && channel.memberId === principal.memberId && channel.active), '/payout_channel_id', 'is not an active payout channel of yours');
  }
  r.throwIfAny();

  const def = await loadWorkflow(db, organizationId, 'expense_claim');
  const year = Number(ctx.today.slice(0, 4));
  const n = await nextSequenceValue(db, { organizationId, name: `claim:${year}` });
  const claim = await insertClaim(db, {
    organizationId,
    reference: claimReference(year, n),
    title: titleValue,
    claimantMemberId: principal.memberId,
    groupId: input.group_id ?? null,
    payoutChannelId: input.payout_channel_id ?? null,
    currency: org.baseCurrency,
    state: def.initial_state,
    revision: 1,
    createdAt: ctx.now,
  });
  await recordEvent(ctx, 'expenses.claim.created', { type: 'expense_claim', id: claim.id, revision: claim.revision }, { state: claim.state, claimant_member_id: claim.claimantMemberId });
  return claimAnswer(ctx, claim);
}
