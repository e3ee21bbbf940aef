/**
 * What the claim read rule and `scope=to_act` look at, written straight to the tables so a read test
 * controls exactly who is eligible: delegations (drizzle inserts), a claim submitted with open
 * sign-offs of its current round (the engine's work on entering a step), and a signature on one of
 * them (the engine's work on approve). Decisions themselves go through expenses.claims.transition
 * (tests/factories/approvals.ts `decide`).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { analyticAccounts, claims, claimSignoffs, delegations } from '../../src/db/schema';
import type { DelegationScope } from '../../src/domain/approvals';
import { Dec } from '../../src/lib/money';
import { signSignoff } from '../../src/db/queries/approval-engine';
import { addClaimLine } from './claims';

export async function insertDelegation(
  db: Database,
  q: {
    organizationId: string;
    delegatorMemberId: string;
    delegateMemberId: string;
    validFrom: string;
    validTo: string;
    scope?: DelegationScope;
    grantId?: string;
    axisId?: string;
    analyticAccountId?: string;
    active?: boolean;
  },
) {
  const [row] = await db
    .insert(delegations)
    .values({
      organizationId: q.organizationId,
      delegatorMemberId: q.delegatorMemberId,
      delegateMemberId: q.delegateMemberId,
      validFrom: q.validFrom,
      validTo: q.validTo,
      scope: q.scope ?? 'all',
      grantId: q.grantId ?? null,
      axisId: q.axisId ?? null,
      analyticAccountId: q.analyticAccountId ?? null,
      active: q.active ?? true,
    })
    .returning();
  return row!;
}

/**
 * Puts a draft claim in the sign-off step `submitted`: one MYR line charged to the given analytic
 * accounts (equal shares given as percentages), the submit decision, round 1 (what the engine sets on
 * submission) and one open sign-off per account with `eligible(accountId)`.
 */
export async function submitForSignoff(
  db: Database,
  q: {
    organizationId: string;
    claimId: string;
    categoryId: string;
    amount: string;
    shares: { analyticAccountId: string; percentage: string }[];
    eligible: (analyticAccountId: string) => string[];
    now: Date;
  },
) {
  await addClaimLine(db, {
    organizationId: q.organizationId,
    claimId: q.claimId,
    now: q.now,
    type: 'receipt',
    expenseDate: '2026-01-05',
    categoryId: q.categoryId,
    description: 'Taxi',
    amount: q.amount,
    documentBasis: 'relaxation_receipt',
    relaxationReason: 'Roadside taxi, no receipt',
    shares: q.shares,
  });
  // The engine's work on submission, staged as rows: the claim in `review` at round 1, one open
  // sign-off per account naming `eligible` as its authorities (the tests choose who may sign).
  const base = new Dec(q.amount).div(q.shares.length);
  await db.update(claims).set({ state: 'review', round: 1, submittedAt: q.now, revision: sql`${claims.revision} + 1` }).where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.claimId)));
  const rows = [];
  for (const share of q.shares) {
    const [account] = await db.select().from(analyticAccounts).where(and(eq(analyticAccounts.organizationId, q.organizationId), eq(analyticAccounts.id, share.analyticAccountId)));
    const eligible = q.eligible(share.analyticAccountId);
    const [row] = await db
      .insert(claimSignoffs)
      .values({
        organizationId: q.organizationId,
        claimId: q.claimId,
        round: 1,
        state: 'review',
        analyticAccountId: account!.id,
        axisId: account!.axisId,
        accountCode: account!.code,
        accountName: account!.name,
        amount: base.toFixed(2),
        currency: 'MYR',
        eligible,
        authorities: eligible.map((member_id) => ({ member_id, via: 'grant' as const, grant_id: STAGED_GRANT, approver_assignment_id: null })),
        createdAt: q.now,
      })
      .returning();
    rows.push(row!);
  }
  return rows;
}

/** The grant staged sign-offs name (a stand-in: these tests are about reading, not about grants). */
const STAGED_GRANT = '00000000-0000-4000-8000-000000000001';

/** Moves the claim to another approval round (returning and resubmitting does this in the engine). */
export async function setClaimRound(db: Database, q: { organizationId: string; claimId: string; round: number }) {
  await db.update(claims).set({ round: q.round }).where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.claimId)));
}

/** Sets the sign-offs' round (an earlier round's sign-offs stay for the record and no longer count). */
export async function setSignoffRound(db: Database, q: { organizationId: string; claimId: string; round: number }) {
  await db.update(claimSignoffs).set({ round: q.round }).where(and(eq(claimSignoffs.organizationId, q.organizationId), eq(claimSignoffs.claimId, q.claimId)));
}

/** Sets the claim's created_at (the list's order and month filter). */
export async function setClaimCreatedAt(db: Database, q: { organizationId: string; claimId: string; createdAt: Date }) {
  await db.update(claims).set({ createdAt: q.createdAt }).where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.claimId)));
}

/** Signs one sign-off row as the engine does on approve (who, on whose authority, how). */
export async function signSignoffRow(
  db: Database,
  q: { organizationId: string; signoffId: string; actorMemberId: string; authorityMemberId?: string; via: 'grant' | 'delegation' | 'escalation'; now: Date },
) {
  const signed = await signSignoff(
    db,
    { organizationId: q.organizationId, id: q.signoffId },
    {
      signatureId: crypto.randomUUID(),
      signedActorMemberId: q.actorMemberId,
      signedAuthorityMemberId: q.authorityMemberId ?? q.actorMemberId,
      signedAt: q.now,
      signedVia: q.via,
      approverAssignmentId: null,
    },
  );
  if (!signed) throw new Error(`sign-off ${q.signoffId} is signed already`);
}
