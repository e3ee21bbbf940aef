/**
 * me.todo: the counts of the console's To do, each what the caller can act on now (claims to sign
 * with the sum of their shares, claims to pay, their own claims returned; drafts, invalid e-invoices
 * and overdue invoices), null where the caller's permissions do not reach, never another
 * organization's records.
 */
import { describe, expect, it } from 'vitest';
import { einvoices } from '../../src/db/schema';
import { prepareDocument } from '../../src/services/receivables/prepare-document';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { decide, insertAssignment, insertGrant, retireGrants } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData, createTestPayoutChannel } from '../factories/claims';
import { contextFor } from '../factories/context';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup, issueTestDocument } from '../factories/receivables';
import { createTestCustomer } from '../factories/customer';
import { useTestApp } from '../helpers/app';
import { callerFor } from '../helpers/settings';

const t = useTestApp();

/** An organization where a head signs the review step and a project manager the finance step; an accountant pays. */
async function claimsWorld() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const member = (role: 'employee' | 'accountant' = 'employee') => createTestMember(t.db, org.id, { role });
  const [employee, head, pm, payer] = [await member(), await member(), await member(), await member('accountant')];
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT', name: 'Structures' });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head', isUnitHead: true });
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  /** A submitted claim of one MYR line of `amount`, charged to Zeta. */
  const submitted = async (title: string, amount: string) => {
    const claim = await fileTestClaim(t, employee, { title, payout_channel_id: channel.id });
    await addClaimLine(t.db, {
      organizationId: org.id,
      claimId: claim.id,
      now: new Date(),
      type: 'receipt',
      expenseDate: '2026-01-13',
      categoryId: ref.meals.id,
      description: title,
      currency: 'MYR',
      amount,
      documentBasis: 'foreign_supplier',
      supplierCountry: 'SG',
      shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }],
    });
    await decide(t, employee.session, claim.id, 'submit');
    return claim;
  };
  return { org, employee, head, pm, payer, submitted };
}

const todoOf = (session: string) => callerFor(t, session).me.todo();

describe('me.todo', () => {
  it('counts the claims each person can act on: the head and the project manager sign, the payer pays, the claimant sees a return', async () => {
    const w = await claimsWorld();
    await w.submitted('Lunch with client', '120.50');
    await w.submitted('Taxi', '33.25');
    const atFinance = await w.submitted('Hotel', '410.00');
    await decide(t, w.head.session, atFinance.id, 'approve');
    const approved = await w.submitted('Flight', '899.90');
    await decide(t, w.head.session, approved.id, 'approve');
    expect((await decide(t, w.pm.session, approved.id, 'approve')).claim.state).toBe('approved');
    const returned = await w.submitted('Parking', '12.00');
    await decide(t, w.head.session, returned.id, 'return', 'Attach the parking receipt');
    const withdrawn = await w.submitted('Snacks', '8.00');
    await decide(t, w.employee.session, withdrawn.id, 'withdraw');

    const head = await todoOf(w.head.session);
    expect(head).toMatchObject({ claims_to_sign: 2, your_share_total: '153.75', claims_to_pay: null, own_claims_returned: 0, currency: 'MYR', cap: 100 });
    // An employee holds no receivables permission: those counts are null, not 0.
    expect(head).toMatchObject({ drafts_to_issue: null, einvoices_needing_attention: null, overdue_invoices: null });

    const pm = await todoOf(w.pm.session);
    expect(pm).toMatchObject({ claims_to_sign: 1, your_share_total: '410.00' });

    const payer = await todoOf(w.payer.session);
    expect(payer).toMatchObject({ claims_to_sign: 0, your_share_total: '0.00', claims_to_pay: 1, own_claims_returned: 0 });

    // Returned by the head counts; withdrawn by the claimant does not.
    const employee = await todoOf(w.employee.session);
    expect(employee).toMatchObject({ claims_to_sign: 0, claims_to_pay: null, own_claims_returned: 1 });

    // Once resubmitted, the returned claim is the head's to sign again and no longer the claimant's.
    await decide(t, w.employee.session, returned.id, 'submit');
    expect((await todoOf(w.employee.session)).own_claims_returned).toBe(0);
    expect(await todoOf(w.head.session)).toMatchObject({ claims_to_sign: 3, your_share_total: '165.75' });
  });

  it("never counts another organization's claims, and a paid claim leaves the payment count", async () => {
    const w = await claimsWorld();
    const other = await claimsWorld();
    const approved = await other.submitted('Elsewhere', '50.00');
    await decide(t, other.head.session, approved.id, 'approve');
    await decide(t, other.pm.session, approved.id, 'approve');
    expect((await todoOf(w.payer.session)).claims_to_pay).toBe(0);
    expect((await todoOf(other.payer.session)).claims_to_pay).toBe(1);
    await callerFor(t, other.payer.session, (await callerFor(t, other.payer.session).expenses.claims.get({ id: approved.id })).claim.revision).expenses.claims.pay({ id: approved.id });
    expect((await todoOf(other.payer.session)).claims_to_pay).toBe(0);
  });

  it('counts drafts to issue and overdue invoices for those who may issue and read them', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const customer = await createTestCustomer(t.db, org.id, { paymentTermsDays: 30 });
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    const body = { kind: 'sales_invoice' as const, customer_id: customer.id, lines: [{ account_id: ref.revenue.id, description: 'Consulting', quantity: '1', unit_price: '100.00', tax_code_id: ref.sv8.id }] };
    const longAgo = new Date(Date.now() - 90 * 86_400_000);
    const ctx = await contextFor(t.db, org.id, accountant.id, longAgo);
    const old = await prepareDocument(ctx, body as never);
    await issueTestDocument(t.db, org.id, old.id, accountant.id, longAgo);
    const recent = await prepareDocument(await contextFor(t.db, org.id, accountant.id), body as never);
    await issueTestDocument(t.db, org.id, recent.id, accountant.id);
    await prepareDocument(await contextFor(t.db, org.id, accountant.id), body as never);
    await prepareDocument(await contextFor(t.db, org.id, accountant.id), body as never);

    expect(await todoOf(accountant.session)).toMatchObject({ drafts_to_issue: 2, einvoices_needing_attention: 0, overdue_invoices: 1 });
    // MyInvois found both e-invoices invalid; the recent one was corrected and sent again (valid): one needs attention.
    const einvoice = (documentId: string, state: 'invalid' | 'valid') =>
      t.db.insert(einvoices).values({ organizationId: org.id, documentId, state, codeNumber: `E-${Math.random()}`, version: '1.1', requestedBy: accountant.id, queuedAt: new Date() });
    await einvoice(old.id, 'invalid');
    await einvoice(recent.id, 'invalid');
    await einvoice(recent.id, 'valid');
    expect((await todoOf(accountant.session)).einvoices_needing_attention).toBe(1);
    // A viewer reads invoices but issues none.
    expect(await todoOf(viewer.session)).toMatchObject({ drafts_to_issue: null, einvoices_needing_attention: null, overdue_invoices: 1, claims_to_pay: null });
    // An API key answers too (the key's permissions).
    expect((await callerFor(t, accountant.apiKey).me.todo()).overdue_invoices).toBe(1);
  });
});
