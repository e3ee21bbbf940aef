/**
 * Signing a claim's shares at the same moment (docs/design.md §11 and §17), on PostgreSQL (PGlite has
 * one connection and cannot race): the claim row is locked by every decision, so two approvers
 * signing the last two shares at once move the claim exactly once, and two identical sign requests
 * give one signature and one refusal (409 revision_mismatch, or already_signed once re-read).
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimDecisions, claimSignoffs } from '../../src/db/schema';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { decide, insertAssignment, insertGrant, retireGrants } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData } from '../factories/claims';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';
import { callerFor, refusal } from '../helpers/settings';

describe.skipIf(!onPostgres)('signing at the same moment', () => {
  const t = useTestApp();

  async function inFinance() {
    const org = await createTestOrganization(t.db);
    const ref = await createClaimReferenceData(t.db, org.id);
    const m = () => createTestMember(t.db, org.id, { role: 'employee' });
    const [employee, head, pm1, pm2] = [await m(), await m(), await m(), await m()];
    const unit = await createOrgUnit(t.db, { organizationId: org.id, code: 'U', name: 'Unit' });
    const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: unit.id, title: 'Head', isUnitHead: true });
    const staff = await createPosition(t.db, { organizationId: org.id, orgUnitId: unit.id, title: 'Staff' });
    await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
    await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: staff.id, validFrom: '2020-01-01' });
    await retireGrants(t.db, org.id);
    await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
    await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
    await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm1.id });
    await insertAssignment(t.db, org.id, { analyticAccountId: ref.alpha.id, memberId: pm2.id });
    const claim = await fileTestClaim(t, employee);
    for (const [amount, account] of [['40.00', ref.zeta.id], ['60.00', ref.alpha.id]] as const) {
      await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-10', categoryId: ref.meals.id, description: 'Fuel', amount, documentBasis: 'relaxation_receipt', relaxationReason: 'Pump', shares: [{ analyticAccountId: account, percentage: '100' }] });
    }
    await decide(t, employee.session, claim.id, 'submit');
    const finance = await decide(t, head.session, claim.id, 'approve');
    return { org, claim: finance.claim as { id: string; revision: number }, pm1, pm2 };
  }

  const sign = (session: string, id: string, revision: number) => callerFor(t, session, revision).expenses.claims.transition({ id, action_key: 'approve' });
  const outcome = (p: Promise<any>) => p.then((a) => ({ ok: true as const, a }), (e) => ({ ok: false as const, e }));

  it('two approvers signing the last two shares at once: the claim moves exactly once', async () => {
    for (let round = 0; round < 5; round++) {
      const w = await inFinance();
      const [one, two] = await Promise.all([outcome(sign(w.pm1.session, w.claim.id, w.claim.revision)), outcome(sign(w.pm2.session, w.claim.id, w.claim.revision))]);
      const won = [one, two].filter((o) => o.ok);
      expect(won).toHaveLength(1);
      const lost = [one, two].find((o) => !o.ok)!;
      expect((lost as any).e.appCode).toBe('revision_mismatch');
      // The loser reads again and signs: now the claim moves, once.
      const loserSession = one.ok ? w.pm2.session : w.pm1.session;
      const final = await decide(t, loserSession, w.claim.id, 'approve');
      expect(final.claim.state).toBe('approved');
      const moves = await t.db.select().from(claimDecisions).where(and(eq(claimDecisions.claimId, w.claim.id), eq(claimDecisions.toState, 'approved')));
      expect(moves).toHaveLength(1);
      const signed = await t.db.select().from(claimSignoffs).where(and(eq(claimSignoffs.claimId, w.claim.id), eq(claimSignoffs.state, 'finance')));
      expect(signed.map((s) => Boolean(s.signatureId))).toEqual([true, true]);
    }
  }, 120_000);

  it('two identical sign requests: one signature, the other refused', async () => {
    const w = await inFinance();
    const results = await Promise.all([outcome(sign(w.pm1.session, w.claim.id, w.claim.revision)), outcome(sign(w.pm1.session, w.claim.id, w.claim.revision))]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((results.find((r) => !r.ok) as any).e.appCode).toBe('revision_mismatch');
    // Sent again with the fresh revision, it is already signed.
    const e: any = await refusal(decide(t, w.pm1.session, w.claim.id, 'approve'));
    expect(e.extensions?.refusal?.code).toBe('already_signed');
    const rows = await t.db.select().from(claimSignoffs).where(and(eq(claimSignoffs.claimId, w.claim.id), eq(claimSignoffs.signedActorMemberId, w.pm1.id)));
    expect(rows).toHaveLength(1);
  }, 60_000);
});
