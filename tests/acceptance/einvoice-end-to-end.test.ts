import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { journalEntries } from '../../src/db/schema';
import { verifySignature } from '../../src/integrations/myinvois/signature';
import { useTestApp } from '../helpers/app';
import { pdfQrCodes, pdfText } from '../helpers/pdf';
import { makeCertificate, SELLER_SUBJECT } from '../helpers/einvoicing';
import { BUYER, PORTAL, SELLER_TIN, useMyinvois } from '../helpers/myinvois-world';

/**
 * Issue 12, end to end against the MyInvois simulator on a test clock: an invoice issued goes to
 * `submitted`, the submit job sends it, the simulator validates it, the poll job makes it `issued`
 * with LHDN's uuid, longId, validation time and link; a credit note against it refers to its UUID
 * and number and validates too. Every step is read back the way a client would.
 */
const t = useTestApp();
const m = useMyinvois(t);

describe('an e-invoice from issue to valid', () => {
  it('is submitted by the job, validated by LHDN, and issued with its uuid, long id and validation link; its credit note refers to it', async () => {
    const w = await m.world();
    const draft = await m.draft(w);
    const issuedAt = m.now().toISOString();

    // Issuing: numbered, frozen, and waiting for LHDN; no person can move it meanwhile.
    const submitted = await m.issue(w, draft);
    expect(submitted).toMatchObject({ state: 'submitted', semantic: 'pending', reference: expect.stringMatching(/^INV-2026-\d{5}$/), available_transitions: [] });
    expect(await m.einvoice(w, draft.id)).toEqual({
      status: 'submitted',
      uuid: null,
      long_id: null,
      validation_link: null,
      submitted_at: null,
      validated_at: null,
      cancelled_at: null,
      errors: [],
      preflight: [],
      document: null,
      last_error: null,
      attempts: 0,
      next_attempt_at: expect.any(String),
    });
    expect(m.sim.control.submissionCount(submitted.reference, w.clientId)).toBe(0);

    // The submit job sends it once, with the document stored byte for byte.
    await m.runJobs();
    expect(m.sim.control.submissionCount(submitted.reference, w.clientId)).toBe(1);
    const [row] = await m.rows(draft.id);
    expect(row).toMatchObject({ state: 'submitted', codeNumber: submitted.reference, uuid: expect.stringMatching(/^[A-Z0-9]{26}$/) });
    const atLhdn = m.sim.control.document(row!.uuid!)!;
    expect(atLhdn.raw).toBe(row!.document);
    const pending = await m.einvoice(w, draft.id);
    expect(pending).toMatchObject({ status: 'submitted', uuid: row!.uuid, submitted_at: issuedAt, validated_at: null });
    expect(pending.document).toEqual(JSON.parse(row!.document!));
    expect((await m.read(w, draft.id)).state).toBe('submitted');

    // LHDN validates; the poll job finds it valid and the document is issued.
    m.advance(15_000);
    await m.runJobs();
    const valid = await m.einvoice(w, draft.id);
    const lhdn = m.sim.control.document(row!.uuid!)!;
    expect(lhdn.status).toBe('Valid');
    expect(valid).toMatchObject({
      status: 'valid',
      uuid: row!.uuid,
      long_id: lhdn.longId,
      validation_link: `${PORTAL}/${row!.uuid}/share/${lhdn.longId}`,
      submitted_at: issuedAt,
      validated_at: new Date(lhdn.dateTimeValidated!).toISOString(),
      errors: [],
    });
    const invoice = await m.read(w, draft.id);
    expect(invoice).toMatchObject({ state: 'issued', semantic: 'accrual', reference: submitted.reference, revision: submitted.revision + 1 });
    expect(invoice.timeline.map((e: any) => [e.action_key, e.from, e.to])).toEqual([
      ['issue', 'draft', 'submitted'],
      ['validate', 'submitted', 'issued'],
    ]);
    // The document as LHDN holds it: seller and buyer TINs, the number, the payable amount.
    const inv = JSON.parse(row!.document!).Invoice[0];
    expect(inv.ID[0]._).toBe(submitted.reference);
    expect(JSON.stringify(inv.AccountingSupplierParty)).toContain(w.tin);
    expect(JSON.stringify(inv.AccountingCustomerParty)).toContain(BUYER.tin);
    expect(inv.LegalMonetaryTotal[0].PayableAmount[0]._).toBe(Number(invoice.gross_amount));

    // The PDF the customer receives: both TINs, the number, each line, the totals, the validation
    // link as text and as a QR code that decodes to it.
    const pdf = await t.app.inject({ method: 'GET', url: `/v1/receivables/invoices/${draft.id}/pdf`, headers: { authorization: `Bearer ${w.accountant.apiKey}` } });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`TIN: ${w.tin}`);
    expect(text).toContain(`TIN: ${BUYER.tin}`);
    expect(text).toContain(submitted.reference);
    for (const l of invoice.lines) expect(text).toContain(l.description);
    expect(text).toContain(`Total payable (MYR) ${invoice.gross_amount}`);
    expect(text).toContain(valid.validation_link);
    expect(text).toContain(valid.uuid);
    expect(await pdfQrCodes(pdf.rawPayload)).toEqual([valid.validation_link]);

    // A credit note against it: refers to the invoice's UUID and number, and validates too.
    const cnDraft = await m.draft(w, { kind: 'customer_credit_note', original_invoice_id: draft.id, reason: 'Returned goods', lines: [w.line({ quantity: '1', unit_price: '10.00', discount_amount: '0.00' })] });
    expect((await m.einvoice(w, cnDraft.id)).preflight).toEqual([]);
    const cn = await m.issue(w, cnDraft);
    expect(cn.state).toBe('submitted');
    await m.runJobs();
    m.advance(15_000);
    await m.runJobs();
    const cnEinvoice = await m.einvoice(w, cnDraft.id);
    expect(cnEinvoice).toMatchObject({ status: 'valid', uuid: expect.stringMatching(/^[A-Z0-9]{26}$/) });
    const cnDoc = cnEinvoice.document.Invoice[0];
    expect(cnDoc.InvoiceTypeCode[0]._).toBe('02');
    expect(cnDoc.BillingReference[0].InvoiceDocumentReference[0]).toMatchObject({ ID: [{ _: submitted.reference }], UUID: [{ _: row!.uuid }] });
    expect((await m.read(w, cnDraft.id)).state).toBe('issued');
    expect(m.sim.control.submissionCount(cn.reference, w.clientId)).toBe(1);
  });

  it('an invalid document goes back to draft with LHDN’s errors, keeps its number, and validates once corrected and issued again', async () => {
    const w = await m.world();
    const draft = await m.draft(w);
    // LHDN knows the buyer under another BRN than the customer record says (preflight cannot know).
    m.sim.control.registerTaxpayer({ tin: BUYER.tin, idType: 'BRN', idValue: '199901000001', name: BUYER.name });
    try {
      const issued = await m.issue(w, draft);
      await m.runJobs();
      m.advance(15_000);
      await m.runJobs();
      const back = await m.read(w, draft.id);
      expect(back).toMatchObject({ state: 'draft', reference: issued.reference });
      expect(back.timeline.map((e: any) => e.action_key)).toEqual(['issue', 'invalid']);
      const status = await m.einvoice(w, draft.id);
      expect(status).toMatchObject({ status: 'invalid', uuid: expect.any(String), validation_link: null });
      expect(status.errors).toEqual([expect.objectContaining({ code: 'TP302' })]);
      // Waiting for LHDN and found invalid, the document owed nothing: no journal entry yet.
      const journal = async () => (await t.db.select().from(journalEntries).where(eq(journalEntries.sourceId, draft.id))).map((e) => e.kind);
      expect(await journal()).toEqual([]);

      // Corrected at LHDN's side (the registration now agrees) and issued again: a new submission.
      m.sim.control.registerTaxpayer({ tin: BUYER.tin, idType: 'BRN', idValue: BUYER.brn, name: BUYER.name });
      const again = await m.issue(w, back);
      expect(again).toMatchObject({ state: 'submitted', reference: issued.reference });
      await m.runJobs();
      m.advance(15_000);
      await m.runJobs();
      expect(await m.einvoice(w, draft.id)).toMatchObject({ status: 'valid', errors: [] });
      expect((await m.rows(draft.id)).map((r) => r.state).sort()).toEqual(['invalid', 'valid']);
      expect(m.sim.control.submissionCount(issued.reference, w.clientId)).toBe(2);
      // Validated, it owes: its issue entry is written once.
      expect(await journal()).toEqual(['document_issued']);
    } finally {
      m.sim.control.registerTaxpayer({ tin: BUYER.tin, idType: 'BRN', idValue: BUYER.brn, name: BUYER.name });
    }
  });

  it('version 1.1: the document is signed with the organization’s certificate, stored as signed, and LHDN recomputes its digests and validates it', async () => {
    const cert = makeCertificate(SELLER_SUBJECT);
    const w = await m.world({ version: '1.1', certificate: { pem: cert.pem, private_key: cert.private_key }, tin: SELLER_TIN });
    const draft = await m.draft(w);
    const issued = await m.issue(w, draft);
    await m.runJobs();
    m.advance(15_000);
    await m.runJobs();
    const status = await m.einvoice(w, draft.id);
    expect(status).toMatchObject({ status: 'valid', errors: [] });
    const [row] = await m.rows(draft.id);
    expect(row!.version).toBe('1.1');
    expect(verifySignature(row!.document!)).toEqual({ ok: true });
    expect(status.document.Invoice[0].InvoiceTypeCode[0]).toMatchObject({ _: '01', listVersionID: '1.1' });
    expect(status.document.Invoice[0].UBLExtensions).toBeDefined();
    expect(m.sim.control.document(row!.uuid!)!.validationSteps.map((s) => s.status)).not.toContain('Invalid');
    expect((await m.read(w, draft.id)).reference).toBe(issued.reference);
  });
});
