/**
 * Escalation of unsigned sign-offs (docs/design.md §14 and §17), through the job runner on a test
 * clock: after the organization's working days (3 by default; weekends by the seller's state), the
 * next covering superior is added to who may sign, the original approver stays, weekends are skipped,
 * and the hop signs with `via: escalation`. Dates are in early 2025 so that no other test's sign-off
 * (opened later) is ever due at these instants.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { claimSignoffs, organizations } from '../../src/db/schema';
import { loadConfig } from '../../src/config';
import { JobRunner } from '../../src/jobs/runner';
import { buildJobRegistry } from '../../src/jobs/standard-jobs';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { decide, insertGrant, readClaim, retireGrants, setClaimPolicy } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData } from '../factories/claims';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();
afterEach(() => t.setNow(undefined));

const runner = () =>
  new JobRunner({ db: t.db, registry: buildJobRegistry(loadConfig({ IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '0', LOGIN_FAILURE_PURGE_INTERVAL_SECONDS: '0' } as NodeJS.ProcessEnv)), random: () => 0 });
/** 10:00 in Kuala Lumpur on the day (`hour` later for another run: a periodic job runs once per period). */
const at = (day: string, hour = 2) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);

async function world(opts: { sellerState?: string } = {}) {
  const org = await createTestOrganization(t.db);
  if (opts.sellerState) await t.db.update(organizations).set({ seller: { address: { state: opts.sellerState } } }).where(eq(organizations.id, org.id));
  const ref = await createClaimReferenceData(t.db, org.id);
  const m = () => createTestMember(t.db, org.id, { role: 'employee' });
  const [employee, head, divHead] = [await m(), await m(), await m()];
  const division = await createOrgUnit(t.db, { organizationId: org.id, code: 'DIV', name: 'Division' });
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT', name: 'Department', parentId: division.id });
  const top = await createPosition(t.db, { organizationId: org.id, orgUnitId: division.id, title: 'Division head', isUnitHead: true });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Department head', isUnitHead: true });
  const staff = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Officer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: divHead.id, positionId: top.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: staff.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  const superior = await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
  return { org, ref, employee, head, divHead, superior };
}

/** A claim submitted at `when` (its review sign-off opened then). */
async function submittedAt(w: Awaited<ReturnType<typeof world>>, when: Date) {
  t.setNow(when);
  const claim = await fileTestClaim(t, w.employee);
  await addClaimLine(t.db, { organizationId: w.org.id, claimId: claim.id, now: when, type: 'receipt', expenseDate: '2025-01-02', categoryId: w.ref.meals.id, description: 'Courier', amount: '45.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Counter slip', shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '100' }] });
  return (await decide(t, w.employee.session, claim.id, 'submit')).claim.id as string;
}

const signoffOf = async (claimId: string) => (await t.db.select().from(claimSignoffs).where(eq(claimSignoffs.claimId, claimId)))[0]!;

describe('escalation of an unsigned sign-off', () => {
  it('after three working days (a weekend skipped) the next superior may sign too, and signs via escalation', async () => {
    const w = await world();
    // Thursday 2 January 2025: Friday is 1, Monday 2, Tuesday 3 (Saturday and Sunday are the weekend).
    const id = await submittedAt(w, at('2025-01-02'));
    await runner().runOnce(at('2025-01-06'));
    expect((await signoffOf(id)).eligible).toEqual([w.head.id]);

    await runner().runOnce(at('2025-01-07'));
    const hop = await signoffOf(id);
    expect(hop).toMatchObject({ eligible: [w.head.id, w.divHead.id], escalationHops: 1, escalatedAt: at('2025-01-07') });
    expect(hop.authorities).toEqual([
      { member_id: w.head.id, via: 'grant', grant_id: w.superior.id, approver_assignment_id: null },
      { member_id: w.divHead.id, via: 'escalation', grant_id: w.superior.id, approver_assignment_id: null, hop: 1 },
    ]);
    // Later the same day: nothing more (the next hop waits another three working days).
    await runner().runOnce(at('2025-01-07', 4));
    expect((await signoffOf(id)).escalationHops).toBe(1);

    t.setNow(at('2025-01-07'));
    const shown = await readClaim(t, w.divHead.session, id);
    expect(shown.signoffs[0].eligible).toEqual([w.head.id, w.divHead.id]);
    expect(shown.available_transitions.find((d: any) => d.action_key === 'approve')).toMatchObject({ allowed: true, signs: [{ amount: '45.00' }] });
    const signed = await decide(t, w.divHead.session, id, 'approve');
    expect(signed.claim.state).toBe('finance');
    expect(signed.decisions.at(-1)).toMatchObject({ actor_member_id: w.divHead.id, authority_member_id: w.divHead.id, via: 'escalation', from: 'review', to: 'finance' });
  });

  it('weekends follow the seller’s state: in Kedah (Friday and Saturday off) a Friday submission escalates on Tuesday', async () => {
    const kedah = await world({ sellerState: '02' });
    const selangor = await world({ sellerState: '10' });
    // Friday 3 January 2025. Kedah: Sunday 1, Monday 2, Tuesday 3. Selangor: Monday 1, Tuesday 2, Wednesday 3.
    const inKedah = await submittedAt(kedah, at('2025-01-03'));
    const inSelangor = await submittedAt(selangor, at('2025-01-03'));
    await runner().runOnce(at('2025-01-07', 5));
    expect((await signoffOf(inKedah)).escalationHops).toBe(1);
    expect((await signoffOf(inSelangor)).escalationHops).toBe(0);
    await runner().runOnce(at('2025-01-08', 5));
    expect((await signoffOf(inSelangor)).escalationHops).toBe(1);
  });

  it('stops at the organization’s number of hops, and never signs anything itself', async () => {
    const w = await world();
    await setClaimPolicy(t.db, w.org.id, { escalationMaxHops: 0 });
    const id = await submittedAt(w, at('2025-01-02'));
    await runner().runOnce(at('2025-01-20', 7));
    const s = await signoffOf(id);
    expect(s).toMatchObject({ escalationHops: 0, eligible: [w.head.id], signatureId: null });
  });
});
