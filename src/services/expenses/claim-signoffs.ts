/**
 * The sign-offs of a claim: opening the ones a step needs, and signing one as the caller. Who is
 * eligible and why a natural approver was passed over come from whoever resolves approvers (grants,
 * positions); here they are given. This never decides eligibility and never signs a sign-off twice.
 */
import { bumpClaimRevision, insertClaimSignoff, listClaimLines, listLineShares, lockClaim, signOpenClaimSignoff } from '../../db/queries/claims';
import type { SignoffGap } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import type { ServiceContext } from '../context';

export interface OpenClaimSignoffsInput {
  /** The claim. */
  id: string;
  /** The step (state) the sign-offs are needed to leave. */
  state: string;
  eligible: (analyticAccountId: string) => string[];
  gap?: (analyticAccountId: string) => SignoffGap | undefined;
}

/**
 * The sign-offs a claim needs to leave `state`: one per analytic account its active lines' shares
 * charge, for the base amount that account carries.
 */
export async function openClaimSignoffs(ctx: ServiceContext, input: OpenClaimSignoffsInput) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const base = ctx.org.baseCurrency;
  const claim = await lockClaim(db, { organizationId, id: input.id });
  if (!claim) throw new AppError('not_found');
  const lines = (await listClaimLines(db, { organizationId, claimId: claim.id })).filter((l) => !l.withdrawn);
  const shares = await listLineShares(db, { organizationId, lineIds: lines.map((l) => l.id) });

  const byAccount = new Map<string, { axisId: string; code: string; name: string; amount: InstanceType<typeof Dec> }>();
  for (const share of shares) {
    const line = lines.find((l) => l.id === share.lineId);
    if (!line) continue;
    const part = new Dec(line.baseAmount).times(share.percentage).div(100);
    const entry = byAccount.get(share.analyticAccountId) ?? { axisId: share.axisId, code: share.accountCode, name: share.accountName, amount: new Dec(0) };
    entry.amount = entry.amount.plus(part);
    byAccount.set(share.analyticAccountId, entry);
  }
  const rows = [];
  for (const [accountId, entry] of byAccount) {
    const row = await insertClaimSignoff(db, {
      organizationId,
      claimId: claim.id,
      state: input.state,
      analyticAccountId: accountId,
      axisId: entry.axisId,
      accountCode: entry.code,
      accountName: entry.name,
      amount: formatAmount(entry.amount, base),
      currency: base,
      eligible: input.eligible(accountId),
      gap: input.gap?.(accountId) ?? null,
    });
    rows.push(row);
  }
  await bumpClaimRevision(db, { organizationId, id: claim.id });
  return rows;
}

export interface SignClaimSignoffInput {
  signoff_id: string;
  /** Whose authority the caller signs on; the caller's own when absent. */
  authority_member_id?: string;
  via: 'grant' | 'delegation' | 'escalation';
  approver_assignment_id?: string | null;
}

/** Signs one open sign-off as the caller. */
export async function signClaimSignoff(ctx: ServiceContext, input: SignClaimSignoffInput) {
  const organizationId = ctx.principal.organizationId;
  const actorMemberId = ctx.principal.memberId;
  const row = await signOpenClaimSignoff(
    ctx.db,
    { organizationId, id: input.signoff_id },
    {
      signatureId: crypto.randomUUID(),
      signedActorMemberId: actorMemberId,
      signedAuthorityMemberId: input.authority_member_id ?? actorMemberId,
      signedAt: ctx.now,
      signedVia: input.via,
      approverAssignmentId: input.approver_assignment_id ?? null,
    },
  );
  if (!row) throw new AppError('conflict', { detail: 'No such open sign-off (already signed?)' });
  await bumpClaimRevision(ctx.db, { organizationId, id: row.claimId });
  return row;
}
