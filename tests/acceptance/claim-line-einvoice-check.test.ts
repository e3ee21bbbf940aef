import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimLines, claims } from '../../src/db/schema';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine } from '../factories/claims';
import { createExpenseCategory } from '../factories/setup';
import { createTestMember } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { BUYER, useMyinvois, type MyinvoisHarness, type MyinvoisWorld } from '../helpers/myinvois-world';
import { envelopeEntry, inv, minimalInvoice } from '../myinvois-simulator/helpers';

/**
 * Claim lines backed by a supplier's e-invoice to the company (docs/myinvois.md point 7): the check job
 * reads the document at LHDN as its receiver and sets `einvoice_validated_at` only when it is a
 * valid invoice to this organization for at least the line's amount; after the supplier's 72-hour
 * window it looks again, and a document cancelled meanwhile no longer backs the line. An e-invoice
 * to the employee is never checked.
 */
const t = useTestApp();
const m = useMyinvois(t);
const HOUR = 3_600_000;

/** A supplier (the harness's other taxpayer) e-invoices the organization for 216.00 through LHDN. */
async function supplierInvoice(h: MyinvoisHarness, w: MyinvoisWorld, number: string) {
  h.sim.control.registerClient({ clientId: 'supplier-of-org', clientSecret: 'supplier-secret', tin: BUYER.tin });
  const doc = minimalInvoice(number);
  const root = inv(doc);
  // Issued just now (LHDN refuses a document issued more than 72 hours before it is submitted).
  const issued = new Date(h.now().getTime() - 60_000).toISOString();
  root.IssueDate = [{ _: issued.slice(0, 10) }];
  root.IssueTime = [{ _: `${issued.slice(11, 19)}Z` }];
  root.AccountingSupplierParty[0].Party[0].PartyIdentification = [{ ID: [{ _: BUYER.tin, schemeID: 'TIN' }] }, { ID: [{ _: BUYER.brn, schemeID: 'BRN' }] }, { ID: [{ _: 'NA', schemeID: 'SST' }] }, { ID: [{ _: 'NA', schemeID: 'TTX' }] }];
  root.AccountingCustomerParty[0].Party[0].PartyIdentification = [{ ID: [{ _: w.tin, schemeID: 'TIN' }] }, { ID: [{ _: '202001234567', schemeID: 'BRN' }] }, { ID: [{ _: 'NA', schemeID: 'SST' }] }];
  const token = async () =>
    (await h.sim.app.inject({ method: 'POST', url: '/connect/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=client_credentials&client_id=supplier-of-org&client_secret=supplier-secret&scope=InvoicingAPI' })).json().access_token as string;
  const bearer = await token();
  const res = await h.sim.app.inject({ method: 'POST', url: '/api/v1.0/documentsubmissions', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, payload: JSON.stringify({ documents: [envelopeEntry(doc)] }) });
  expect(res.statusCode, res.body).toBe(202);
  const uuid = res.json().acceptedDocuments[0].uuid as string;
  h.sim.control.validatePending();
  const cancel = async () =>
    h.sim.app.inject({ method: 'PUT', url: `/api/v1.0/documents/state/${uuid}/state`, headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' }, payload: { status: 'cancelled', reason: 'Issued twice' } });
  return { uuid, cancel };
}

async function claimWithLine(w: Awaited<ReturnType<MyinvoisHarness['world']>>, line: { documentBasis: 'einvoice_company' | 'einvoice_employee'; uuid: string; amount: string }) {
  const meals = await createExpenseCategory(t.db, { organizationId: w.org.id, code: `MEAL-${Math.random().toString(36).slice(2, 8)}`, name: 'Meals' });
  const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
  const claim = await fileTestClaim(t, employee);
  const added = await addClaimLine(t.db, {
    organizationId: w.org.id,
    claimId: claim.id,
    now: m.now(),
    type: 'receipt',
    expenseDate: '2026-08-01',
    categoryId: meals.id,
    description: 'Team lunch',
    amount: line.amount,
    supplierName: BUYER.name,
    supplierTin: BUYER.tin,
    documentBasis: line.documentBasis,
    einvoiceUuid: line.uuid,
    shares: [{ analyticAccountId: w.ref.alpha.id, percentage: '100' }],
  });
  const row = async () => (await t.db.select().from(claimLines).where(eq(claimLines.id, added.id)))[0]!;
  const revision = async () => (await t.db.select().from(claims).where(eq(claims.id, claim.id)))[0]!.revision;
  return { claim, line: added, row, revision };
}

describe('claim lines with an e-invoice to the company', () => {
  it('are validated against LHDN, and re-checked after 72 hours: a cancelled e-invoice no longer backs the line', async () => {
    const w = await m.world();
    const supplier = await supplierInvoice(m, w, 'SUP-0001');
    const c = await claimWithLine(w, { documentBasis: 'einvoice_company', uuid: supplier.uuid, amount: '216.00' });
    expect(c.line.einvoice_validated_at).toBeNull();
    const before = await c.revision();

    await m.runJobs();
    const lhdn = m.sim.control.document(supplier.uuid)!;
    const checked = await c.row();
    expect(checked.einvoiceValidatedAt?.toISOString()).toBe(new Date(lhdn.dateTimeValidated!).toISOString());
    expect(checked.einvoiceCheckDetail).toMatch(/^Valid at LHDN/);
    expect(await c.revision()).toBe(before + 1);
    expect(checked.einvoiceCheckDueAt!.getTime()).toBeGreaterThan(lhdn.dateTimeValidated! + 72 * HOUR);

    // The supplier cancels within its window; after the window the line is checked again.
    m.advance(70 * HOUR);
    expect((await supplier.cancel()).statusCode).toBe(200);
    await m.runJobs();
    expect((await c.row()).einvoiceValidatedAt).not.toBeNull();
    m.advance(3 * HOUR);
    await m.runJobs();
    const after = await c.row();
    expect(after.einvoiceValidatedAt).toBeNull();
    expect(after.einvoiceCheckDetail).toMatch(/cancelled/);
    expect(after.einvoiceCheckDueAt).toBeNull();
  });

  it('a line claiming more than the e-invoice, or a UUID LHDN does not show, is not validated and says why', async () => {
    const w = await m.world();
    const supplier = await supplierInvoice(m, w, 'SUP-0002');
    const over = await claimWithLine(w, { documentBasis: 'einvoice_company', uuid: supplier.uuid, amount: '300.00' });
    const unknown = await claimWithLine(w, { documentBasis: 'einvoice_company', uuid: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', amount: '10.00' });
    await m.runJobs();
    expect(await over.row()).toMatchObject({ einvoiceValidatedAt: null, einvoiceCheckDetail: expect.stringContaining('more than the e-invoice') });
    expect(await unknown.row()).toMatchObject({ einvoiceValidatedAt: null, einvoiceCheckDetail: expect.stringContaining('no valid e-invoice') });
    // Asked again later (it may still be in validation).
    expect((await unknown.row()).einvoiceCheckDueAt).not.toBeNull();
  });

  it('an e-invoice to the employee is never checked and says so', async () => {
    const w = await m.world();
    const supplier = await supplierInvoice(m, w, 'SUP-0003');
    const c = await claimWithLine(w, { documentBasis: 'einvoice_employee', uuid: supplier.uuid, amount: '20.00' });
    const details = m.sim.control.requestCount('details');
    await m.runJobs();
    expect(m.sim.control.requestCount('details')).toBe(details);
    expect(await c.row()).toMatchObject({ einvoiceValidatedAt: null, einvoiceCheckDueAt: null, einvoiceCheckDetail: expect.stringContaining('cannot be read by the employer') });
  });
});
