/**
 * Approval set-up rows for engine tests (grants, approver assignments, delegations, the claim policy),
 * written as rows; the end-to-end test builds the same through the settings procedures. And a person
 * deciding on a claim through expenses.claims.transition / pay, with the If-Match of the claim as read.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { approvalGrants, approverAssignments, claimPolicies, claims, delegations, type ApprovalBand } from '../../src/db/schema';
import type { ApprovalGrantKind, ApprovalStep, DelegationScope } from '../../src/domain/approvals';
import { callerFor } from '../helpers/settings';
import type { TestApp } from '../helpers/app';

export async function insertGrant(
  db: Database,
  organizationId: string,
  g: {
    name?: string;
    kind: ApprovalGrantKind;
    step: ApprovalStep;
    axisId?: string | null;
    holderPositionId?: string | null;
    holderMemberId?: string | null;
    maxLevels?: number | null;
    fallbackGrantId?: string | null;
    bands?: ApprovalBand[];
  },
) {
  const [row] = await db
    .insert(approvalGrants)
    .values({
      organizationId,
      name: g.name ?? `${g.kind} ${g.step}`,
      kind: g.kind,
      step: g.step,
      axisId: g.axisId ?? null,
      holderPositionId: g.holderPositionId ?? null,
      holderMemberId: g.holderMemberId ?? null,
      maxLevels: g.maxLevels ?? null,
      fallbackGrantId: g.fallbackGrantId ?? null,
      bands: g.bands ?? [],
    })
    .returning();
  return row!;
}

/** The organization's active grants of this kind and step are set aside (the defaults a new organization gets). */
export async function retireGrants(db: Database, organizationId: string) {
  await db.update(approvalGrants).set({ active: false }).where(eq(approvalGrants.organizationId, organizationId));
}

export async function setFallback(db: Database, organizationId: string, grantId: string, fallbackGrantId: string | null) {
  await db.update(approvalGrants).set({ fallbackGrantId }).where(and(eq(approvalGrants.organizationId, organizationId), eq(approvalGrants.id, grantId)));
}

export async function insertAssignment(
  db: Database,
  organizationId: string,
  a: { analyticAccountId: string; memberId: string; validFrom?: string; validTo?: string | null; minAmount?: string; maxAmount?: string | null },
) {
  const [row] = await db
    .insert(approverAssignments)
    .values({
      organizationId,
      analyticAccountId: a.analyticAccountId,
      memberId: a.memberId,
      validFrom: a.validFrom ?? '2020-01-01',
      validTo: a.validTo ?? null,
      minAmount: a.minAmount ?? '0',
      maxAmount: a.maxAmount ?? null,
    })
    .returning();
  return row!;
}

export async function insertDelegation(
  db: Database,
  organizationId: string,
  d: { delegatorMemberId: string; delegateMemberId: string; validFrom: string; validTo: string; scope?: DelegationScope; grantId?: string; axisId?: string; analyticAccountId?: string },
) {
  const [row] = await db
    .insert(delegations)
    .values({ organizationId, scope: d.scope ?? 'all', ...d })
    .returning();
  return row!;
}

export async function setClaimPolicy(db: Database, organizationId: string, p: { escalationWorkingDays?: number; escalationMaxHops?: number; weekendDays?: number[] | null; soleOwnerException?: boolean }) {
  await db
    .insert(claimPolicies)
    .values({ organizationId, ...p })
    .onConflictDoUpdate({ target: claimPolicies.organizationId, set: p });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

/** Reads the claim as the person with this session. */
export async function readClaim(t: Pick<TestApp, 'deps'>, session: string, id: string): Promise<Answer> {
  return callerFor(t, session).expenses.claims.get({ id });
}

/** Takes `action` on the claim as the person with this session, with the revision they just read. */
export async function decide(t: Pick<TestApp, 'deps'>, session: string, id: string, action: string, reason?: string): Promise<Answer> {
  const current = await readAsDecider(t, session, id);
  return callerFor(t, session, current).expenses.claims.transition({ id, action_key: action, ...(reason !== undefined ? { reason } : {}) });
}

/** Pays the claim as the person with this session. */
export async function pay(t: Pick<TestApp, 'deps'>, session: string, id: string, input: Record<string, unknown> = {}): Promise<Answer> {
  const current = await readAsDecider(t, session, id);
  return callerFor(t, session, current).expenses.claims.pay({ id, ...input });
}

/** Refers bank figures for approval of their difference as the person with this session. */
export async function referDifference(t: Pick<TestApp, 'deps'>, session: string, id: string, input: Record<string, unknown> = {}): Promise<Answer> {
  const current = await readAsDecider(t, session, id);
  return callerFor(t, session, current).expenses.claims.referDifference({ id, ...input });
}

/** The claim's revision as stored (a decider who may not read it still sends a current If-Match, to reach the refusal). */
async function readAsDecider(t: Pick<TestApp, 'deps'>, _session: string, id: string): Promise<number> {
  const [row] = await t.deps.db.select({ revision: claims.revision }).from(claims).where(eq(claims.id, id));
  return row?.revision ?? 1;
}
