import type { Database } from '../../db/client';
import { findClaimGroup, insertClaim } from '../../db/queries/claims';
import { nextSequenceValue } from '../../db/queries/sequences';
import { findOrganization } from '../../db/queries/organizations';
import { findPayoutChannel } from '../../db/queries/people';
import { todayIn } from '../../lib/dates';
import { AppError, pointerLabel, type FieldError } from '../../lib/errors';
import type { Principal } from '../access/principal';
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

/**
 * Files a claim for the caller (with an API key, the key's owner): nobody files for anybody else.
 * The claim starts in the workflow's initial (draft) state, in the organization's base currency, at
 * revision 1, with the next reference of the organization's sequence for the current year.
 */
export async function fileClaim(db: Database, principal: Principal, input: FileClaimInput, now: Date): Promise<ClaimAnswer> {
  const organizationId = principal.organizationId;
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');

  // Every rule is checked before refusing, so one answer names every field at fault.
  const errors: FieldError[] = [];
  const title = checkClaimTitle(input.title, org.recordLanguages);
  if (!title.ok) errors.push({ pointer: '/title', detail: title.reason });
  if (input.group_id) {
    const group = await findClaimGroup(db, { organizationId, id: input.group_id });
    if (!group) errors.push({ pointer: '/group_id', detail: 'is not a claim group of this organization' });
    else if (group.retiredAt) errors.push({ pointer: '/group_id', detail: 'names a retired claim group' });
  }
  if (input.payout_channel_id) {
    const channel = await findPayoutChannel(db, { organizationId, id: input.payout_channel_id });
    if (!channel || channel.memberId !== principal.memberId || !channel.active) {
      errors.push({ pointer: '/payout_channel_id', detail: 'is not an active payout channel of yours' });
    }
  }
  if (!title.ok || errors.length) {
    throw new AppError('validation', { detail: errors.map((e) => `${pointerLabel(e.pointer)}: ${e.detail}`).join('; '), errors });
  }

  const def = await loadWorkflow(db, organizationId, 'expense_claim');
  const year = Number(todayIn(org.timeZone, now).slice(0, 4));
  const n = await nextSequenceValue(db, { organizationId, name: `claim:${year}` });
  const claim = await insertClaim(db, {
    organizationId,
    reference: claimReference(year, n),
    title: title.value,
    claimantMemberId: principal.memberId,
    groupId: input.group_id ?? null,
    payoutChannelId: input.payout_channel_id ?? null,
    currency: org.baseCurrency,
    state: def.initial_state,
    revision: 1,
    createdAt: now,
  });
  return claimAnswer(db, principal, claim, now);
}
