/**
 * An organization where claims go through a two-step approval and get paid: a claimant in a
 * department, the department's head (review, as superior), a CFO approving every project (finance,
 * as account approver), an accountant who pays, and the claimant's payout channel. Built in a new
 * organization, or in one a test already has (a receivables world, say), so that claims and
 * receivables can share one journal.
 */
import type { TestApp } from '../helpers/app';
import { decide, insertAssignment, insertGrant, pay, retireGrants } from './approvals';
import { createClaimReferenceData, createTestPayoutChannel } from './claims';
import { createTestMember, createTestOrganization, type TestOrganization } from './organization';
import { assignPosition, createAnalyticAccount, createOrgUnit, createPosition } from './setup';

let counter = 0;

export async function createClaimApprovalWorld(t: Pick<TestApp, 'db'>, existing?: TestOrganization) {
  counter += 1;
  const org = existing ?? (await createTestOrganization(t.db));
  const ref = await createClaimReferenceData(t.db, org.id);
  const omega = await createAnalyticAccount(t.db, org.id, { axisId: ref.projects.id, code: `P-OMEGA-${counter}`, name: 'Omega Yard' });
  const member = (role: 'employee' | 'accountant' = 'employee') => createTestMember(t.db, org.id, { role });
  const [employee, head, cfo, payer] = [await member(), await member(), await member(), await member('accountant')];
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: `DEPT-${counter}`, name: 'Structures' });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head', isUnitHead: true });
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
  for (const a of [ref.alpha, omega, ref.zeta]) await insertAssignment(t.db, org.id, { analyticAccountId: a.id, memberId: cfo.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  return { org, ref, omega, employee, head, cfo, payer, channel, projects: [ref.alpha, omega, ref.zeta] };
}

export type ClaimApprovalWorld = Awaited<ReturnType<typeof createClaimApprovalWorld>>;

/** Submitted by the claimant, approved by the head and then the CFO: answers the CFO's answer (the claim approved). */
export async function approveTestClaim(t: Pick<TestApp, 'deps'>, w: ClaimApprovalWorld, claimId: string) {
  await decide(t, w.employee.session, claimId, 'submit');
  await decide(t, w.head.session, claimId, 'approve');
  return decide(t, w.cfo.session, claimId, 'approve');
}

/** Paid by the accountant, with the bank's figure for bank-charged lines. */
export function payTestClaim(t: Pick<TestApp, 'deps'>, w: ClaimApprovalWorld, claimId: string, bank: { line_id: string; amount: string }[] = []) {
  return pay(t, w.payer.session, claimId, bank.length ? { bank_charged_amounts: bank } : {});
}
