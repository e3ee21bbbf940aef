import type { Database } from '../../db/client';
import { bumpClaimRevision, insertClaimSignoff, listClaimLines, listLineShares, lockClaim, signOpenClaimSignoff } from '../../db/queries/claims';
import { findOrganization } from '../../db/queries/organizations';
import type { SignoffGap } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';

/**
 * The sign-offs a claim needs to leave `state`: one per analytic account its active lines' shares
 * charge, for the base amount that account carries. `eligible` and `gaps` come from whoever
 * resolves approvers (grants, positions); here they are given.
 */
export async function openClaimSignoffs(
  db: Database,
  input: {
    organizationId: string;
    claimId: string;
    state: string;
    eligible: (analyticAccountId: string) => string[];
    gap?: (analyticAccountId: string) => SignoffGap | undefined;
  },
) {
  const claim = await lockClaim(db, { organizationId: input.organizationId, id: input.claimId });
  if (!claim) throw new AppError('not_found');
  const org = await findOrganization(db, { organizationId: input.organizationId });
  if (!org) throw new AppError('not_found');
  const lines = (await listClaimLines(db, { organizationId: input.organizationId, claimId: claim.id })).filter((l) => !l.withdrawn);
  const shares = await listLineShares(db, { organizationId: input.organizationId, lineIds: lines.map((l) => l.id) });

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
      organizationId: input.organizationId,
      claimId: claim.id,
      state: input.state,
      analyticAccountId: accountId,
      axisId: entry.axisId,
      accountCode: entry.code,
      accountName: entry.name,
      amount: formatAmount(entry.amount, org.baseCurrency),
      currency: org.baseCurrency,
      eligible: input.eligible(accountId),
      gap: input.gap?.(accountId) ?? null,
    });
    rows.push(row);
  }
  await bumpClaimRevision(db, { organizationId: input.organizationId, id: claim.id });
  return rows;
}

/** Signs one open sign-off. */
export async function signClaimSignoff(
  db: Database,
  input: {
    organizationId: string;
    signoffId: string;
    actorMemberId: string;
    authorityMemberId?: string;
    via: 'grant' | 'delegation' | 'escalation';
    approverAssignmentId?: string | null;
    now: Date;
  },
) {
  const row = await signOpenClaimSignoff(
    db,
    { organizationId: input.organizationId, id: input.signoffId },
    {
      signatureId: crypto.randomUUID(),
      signedActorMemberId: input.actorMemberId,
      signedAuthorityMemberId: input.authorityMemberId ?? input.actorMemberId,
      signedAt: input.now,
      signedVia: input.via,
      approverAssignmentId: input.approverAssignmentId ?? null,
    },
  );
  if (!row) throw new AppError('conflict', { detail: 'No such open sign-off (already signed?)' });
  await bumpClaimRevision(db, { organizationId: input.organizationId, id: row.claimId });
  return row;
}
