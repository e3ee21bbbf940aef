/**
 * Every preflight rule against LHDN as the simulator plays it (docs/myinvois.md, "The simulator"):
 * one row per preflight code. Each row makes a draft through the API, checks that
 * GET /v1/receivables/invoices/{id}/einvoice lists exactly that code, then builds the same document
 * anyway (composeEinvoice → buildDocument), submits it to an in-process simulator and checks that
 * LHDN would have refused it, at the step that catches that fault. Where the builder itself refuses
 * the faulty input, the valid document is built and its JSON patched to carry the same fault.
 * Two rows prove the other direction: a clean draft (and a credit note of a validated invoice)
 * composes into a document the simulator marks Valid.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findCustomer } from '../../src/db/queries/customers';
import { findOrganization } from '../../src/db/queries/organizations';
import { findDocumentRow, findLines } from '../../src/db/queries/receivable-documents';
import { customers, receivableDocumentLines } from '../../src/db/schema';
import { buildDocument, EinvoiceBuildError, type EinvoiceInput, type UblDocument } from '../../src/integrations/myinvois/document';
import { buyerOf, composeEinvoice } from '../../src/services/einvoicing/compose';
import { PREFLIGHT_CODES, type PreflightCode } from '../../src/services/einvoicing/preflight';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization } from '../factories/organization';
import { createInvoiceWorld, createReceivablesSetup, issueTestDocument, type InvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { COMPLETE_SELLER, setSeller } from '../helpers/einvoicing';
import { httpHelpers } from '../helpers/http';
import { setup as simulator, START } from '../myinvois-simulator/helpers';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';
/** Five minutes before the simulator's clock: within LHDN's 72 hours, not in the future. */
const ISSUED_AT = new Date(START - 5 * 60_000);
const TODAY = '2026-08-03';

/** The buyer the simulator has registered (tests/myinvois-simulator/helpers.ts BUYER). */
const COMPLETE_CUSTOMER = {
  tin: 'C9876543210',
  registrationType: 'brn' as const,
  registrationNo: '201901234567',
  phone: '+60355551234',
  address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', postcode: '40000', state: '10' },
};

type World = InvoiceWorld;
type Customer = Partial<typeof customers.$inferInsert>;

/** An organization with the complete seller identity and a customer with everything LHDN needs. */
async function world(customer: Customer = {}): Promise<World> {
  const w = await createInvoiceWorld(t.db);
  await setSeller(t.db, w.org.id);
  await t.db.update(customers).set({ ...COMPLETE_CUSTOMER, ...customer }).where(eq(customers.id, w.customer.id));
  return w;
}

/** The same, in an organization whose base currency is SGD (its documents' rates are to SGD). */
async function sgdWorld(): Promise<World> {
  const org = await createTestOrganization(t.db, { baseCurrency: 'SGD' });
  const ref = await createReceivablesSetup(t.db, org.id);
  const customer = await createTestCustomer(t.db, org.id, { currency: 'SGD', ...COMPLETE_CUSTOMER });
  await setSeller(t.db, org.id);
  const line = (over: Record<string, unknown> = {}) => ({ account_id: ref.revenue.id, description: 'Consulting', quantity: '3', unit_price: '120.50', discount_amount: '10.00', tax_code_id: ref.sv8.id, ...over });
  const body = (over: Record<string, unknown> = {}) => ({ kind: 'sales_invoice', customer_id: customer.id, lines: [line()], ...over });
  return { org, ref, customer, line, body };
}

async function draft(w: World, over: Record<string, unknown> = {}): Promise<string> {
  const res = await post(URL, w.body(over), w.org.owner.apiKey);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function preflightCodes(w: World, id: string): Promise<string[]> {
  const res = await get(`${URL}/${id}/einvoice`, w.org.owner.apiKey);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().status).toBe('not_submitted');
  return res.json().preflight.map((p: { code: string }) => p.code);
}

/** The builder's input for a stored document, read as the submission job will read it. */
async function composeStored(w: World, id: string, opts: { number?: string; original?: { uuid: string; number: string } | null } = {}): Promise<EinvoiceInput> {
  const organizationId = w.org.id;
  const doc = (await findDocumentRow(t.db, { organizationId, id }))!;
  const lines = await findLines(t.db, { organizationId, documentId: id });
  const org = (await findOrganization(t.db, { organizationId }))!;
  const buyer = doc.buyer ?? buyerOf((await findCustomer(t.db, { organizationId, id: doc.customerId, today: TODAY }))!);
  return composeEinvoice({
    doc,
    lines,
    buyer,
    seller: { ...org.seller, name: org.seller.name ?? org.name },
    version: '1.0',
    number: opts.number ?? doc.reference ?? `DRAFT-${id.slice(0, 8)}`,
    issuedAt: ISSUED_AT,
    baseCurrency: org.baseCurrency,
    original: opts.original ?? null,
  });
}

type Sim = ReturnType<typeof simulator>;
type Outcome = { status: 'Valid' | 'Invalid'; uuid: string; faults: string[] } | { status: 'refused'; faults: string[] };

/** Submits one document as the supplier, validates it, and answers `Step name: code` per error. */
async function submit(sim: Sim, doc: UblDocument): Promise<Outcome> {
  const bearer = await sim.token();
  const res = await sim.submit(bearer, doc as unknown as Record<string, unknown>);
  expect(res.statusCode, res.body).toBe(202);
  const body = res.json();
  if (body.rejectedDocuments.length > 0) {
    return { status: 'refused', faults: body.rejectedDocuments.flatMap((r: any) => r.error.details.map((d: any) => `${r.error.code}: ${d.message}`)) };
  }
  const uuid = body.acceptedDocuments[0].uuid as string;
  sim.control.validatePending();
  const details = (await sim.get(bearer, `/api/v1.0/documents/${uuid}/details`)).json();
  const faults = details.validationResults.validationSteps
    .filter((s: any) => s.status === 'Invalid')
    .flatMap((s: any) => s.error.innerError.map((e: any) => `${s.name.replace(/^Step\d+-/, '')}: ${e.errorCode}`));
  return { status: details.status, uuid, faults };
}

type Node = Record<string, any>;
const invoice = (doc: UblDocument): Node => doc.Invoice[0] as Node;
const buyerParty = (doc: UblDocument): Node => invoice(doc).AccountingCustomerParty[0].Party[0];
const firstLine = (doc: UblDocument): Node => invoice(doc).InvoiceLine[0];

interface Row {
  code: PreflightCode;
  /** What the draft is, in a few words. */
  draft: string;
  /** Makes the world and the draft (through the API; the two rules the API cannot reach write the line row directly). */
  arrange(): Promise<{ w: World; id: string; original?: { uuid: string; number: string } | null }>;
  /** When the builder refuses the composed input: the valid input to build, and the patch carrying the fault. */
  patch?: { valid(input: EinvoiceInput): EinvoiceInput; fault(doc: UblDocument): void };
  /** The simulator's answer: `Step: code` of every error (or the submission's refusal). */
  expected: { status: 'Invalid' | 'refused'; faults: string[] };
}

const ROWS: Row[] = [
  {
    code: 'seller_tin_missing',
    draft: 'the organization has no TIN',
    async arrange() {
      const w = await world();
      await setSeller(t.db, w.org.id, { ...COMPLETE_SELLER, tin: null });
      return { w, id: await draft(w) };
    },
    // The issuer TIN is checked when the submission arrives: the document never gets a UUID.
    expected: { status: 'refused', faults: ['ValidationError: The authenticated TIN and documents TIN is not matching'] },
  },
  {
    code: 'seller_registration_missing',
    draft: 'the organization has no BRN',
    async arrange() {
      const w = await world();
      await setSeller(t.db, w.org.id, { ...COMPLETE_SELLER, registration_no: null });
      return { w, id: await draft(w) };
    },
    // Mandatory, and the registered TIN's BRN does not match "" either.
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF321', 'Taxpayer Validator: TP302'] },
  },
  {
    code: 'msic_missing',
    draft: 'the organization has no MSIC code',
    async arrange() {
      const w = await world();
      await setSeller(t.db, w.org.id, { ...COMPLETE_SELLER, msic: null });
      return { w, id: await draft(w) };
    },
    patch: {
      valid: (i) => ({ ...i, supplier: { ...i.supplier, msic: { code: '62010', description: 'Computer programming activities' } } }),
      fault: (doc) => delete invoice(doc).AccountingSupplierParty[0].Party[0].IndustryClassificationCode,
    },
    // The code and its activity description are both gone.
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF323', 'Core Fields Validator: CF321'] },
  },
  {
    code: 'phone_not_e164',
    draft: "the customer's phone is written with spaces and a dash",
    async arrange() {
      const w = await world({ phone: '03-5555 1234' });
      return { w, id: await draft(w) };
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF324'] },
  },
  {
    code: 'address_line_missing',
    draft: "the customer's address has no first line",
    async arrange() {
      const w = await world({ address: { city: 'Shah Alam', postcode: '40000', state: '10' } });
      return { w, id: await draft(w) };
    },
    patch: {
      valid: (i) => ({ ...i, buyer: { ...i.buyer, address: { ...i.buyer.address, lines: ['x'] } } }),
      fault: (doc) => delete buyerParty(doc).PostalAddress[0].AddressLine,
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF321'] },
  },
  {
    code: 'address_city_missing',
    draft: "the customer's address has no city",
    async arrange() {
      const w = await world({ address: { line1: 'No. 1, Jalan Plumbum', postcode: '40000', state: '10' } });
      return { w, id: await draft(w) };
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF321'] },
  },
  {
    code: 'address_state_missing',
    draft: "the customer's address has no state code",
    async arrange() {
      const w = await world({ address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', postcode: '40000' } });
      return { w, id: await draft(w) };
    },
    patch: {
      valid: (i) => ({ ...i, buyer: { ...i.buyer, address: { ...i.buyer.address, state: '10' } } }),
      fault: (doc) => delete buyerParty(doc).PostalAddress[0].CountrySubentityCode,
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF321'] },
  },
  {
    code: 'state_not_applicable_in_malaysia',
    draft: 'a Malaysian customer with state 17 (not applicable)',
    async arrange() {
      const w = await world({ address: { ...COMPLETE_CUSTOMER.address, state: '17' } });
      return { w, id: await draft(w) };
    },
    expected: { status: 'Invalid', faults: ['Code Validator: CV403'] },
  },
  {
    code: 'buyer_tin_missing',
    draft: 'a Malaysian customer without a TIN',
    async arrange() {
      const w = await world({ tin: null });
      return { w, id: await draft(w) };
    },
    // The builder gives the general-public TIN (no TIN, in Malaysia): LHDN refuses it on an individual e-invoice.
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF331'] },
  },
  {
    code: 'buyer_registration_missing',
    draft: 'a Malaysian customer without registration type and number',
    async arrange() {
      const w = await world({ registrationType: null, registrationNo: null });
      return { w, id: await draft(w) };
    },
    // Written as BRN "NA" (the builder's default): not the BRN registered for the buyer's TIN.
    expected: { status: 'Invalid', faults: ['Taxpayer Validator: TP302'] },
  },
  {
    code: 'line_tax_type_missing',
    draft: 'a line without tax type (not reachable through the API: the row is written directly)',
    async arrange() {
      const w = await world();
      const id = await draft(w);
      await t.db.update(receivableDocumentLines).set({ taxType: '' }).where(eq(receivableDocumentLines.documentId, id));
      return { w, id };
    },
    patch: {
      valid: (i) => ({ ...i, lines: i.lines.map((l) => ({ ...l, taxType: '02' })) }),
      fault: (doc) => {
        delete firstLine(doc).TaxTotal[0].TaxSubtotal[0].TaxCategory[0].ID;
        delete invoice(doc).TaxTotal[0].TaxSubtotal[0].TaxCategory[0].ID;
      },
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF321'] },
  },
  {
    code: 'exemption_reason_missing',
    draft: 'an exempt line without its reason (not reachable through the API: the row is written directly)',
    async arrange() {
      const w = await world();
      const id = await draft(w, { lines: [w.line({ tax_code_id: w.ref.exempt.id, tax_exemption_reason: 'Exempt under Schedule A' })] });
      await t.db.update(receivableDocumentLines).set({ taxExemptionReason: null }).where(eq(receivableDocumentLines.documentId, id));
      return { w, id };
    },
    patch: {
      valid: (i) => ({ ...i, lines: i.lines.map((l) => ({ ...l, exemptionReason: 'x' })) }),
      fault: (doc) => delete firstLine(doc).TaxTotal[0].TaxSubtotal[0].TaxCategory[0].TaxExemptionReason,
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF332'] },
  },
  {
    code: 'exemption_reason_invalid',
    draft: 'an exempt line whose reason has a colon and a semicolon',
    async arrange() {
      const w = await world();
      return { w, id: await draft(w, { lines: [w.line({ tax_code_id: w.ref.exempt.id, tax_exemption_reason: 'Exempt: item 5; schedule A' })] }) };
    },
    patch: {
      valid: (i) => ({ ...i, lines: i.lines.map((l) => ({ ...l, exemptionReason: 'x' })) }),
      fault: (doc) => (firstLine(doc).TaxTotal[0].TaxSubtotal[0].TaxCategory[0].TaxExemptionReason = [{ _: 'Exempt: item 5; schedule A' }]),
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF332'] },
  },
  {
    code: 'consolidated_without_general_public',
    draft: 'a line classified 004 (consolidated) for a named customer',
    async arrange() {
      const w = await world();
      return { w, id: await draft(w, { lines: [w.line({ classification_code: '004' })] }) };
    },
    patch: {
      valid: (i) => ({ ...i, lines: i.lines.map((l) => ({ ...l, classification: '022' })) }),
      fault: (doc) => (firstLine(doc).Item[0].CommodityClassification[0].ItemClassificationCode = [{ _: '004', listID: 'CLASS' }]),
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF330'] },
  },
  {
    code: 'general_public_without_consolidated',
    draft: 'the general public (EI00000000010) as buyer of a line classified 022',
    async arrange() {
      const w = await world({ tin: 'EI00000000010', registrationType: null, registrationNo: null, phone: null, address: {} });
      return { w, id: await draft(w) };
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF331'] },
  },
  {
    code: 'payable_zero',
    draft: 'a line discounted to nothing (payable 0.00)',
    async arrange() {
      const w = await world();
      return { w, id: await draft(w, { lines: [w.line({ quantity: '1', unit_price: '100.00', discount_amount: '100.00' })] }) };
    },
    patch: {
      // Built with a rounding of 0.01 so the builder writes it, then the rounding taken out again.
      valid: (i) => ({ ...i, totals: { rounding: '0.01' } }),
      fault: (doc) => {
        const totals = invoice(doc).LegalMonetaryTotal[0];
        delete totals.PayableRoundingAmount;
        totals.PayableAmount = [{ _: 0, currencyID: 'MYR' }];
      },
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF412'] },
  },
  {
    code: 'exchange_rate_missing',
    draft: 'a document in SGD of an organization whose base currency is SGD (no rate to MYR known)',
    async arrange() {
      const w = await sgdWorld();
      return { w, id: await draft(w, { currency: 'SGD' }) };
    },
    patch: {
      valid: (i) => ({ ...i, exchangeRate: '3.3' }),
      fault: (doc) => delete invoice(doc).TaxExchangeRate,
    },
    expected: { status: 'Invalid', faults: ['Currency Validator: CR301'] },
  },
  {
    code: 'original_not_validated',
    draft: 'a credit note of an issued invoice LHDN never validated (no UUID)',
    async arrange() {
      const w = await world();
      const invoiceId = await draft(w);
      await issueTestDocument(t.db, w.org.id, invoiceId, w.org.owner.id);
      const id = await draft(w, { kind: 'customer_credit_note', original_invoice_id: invoiceId, reason: 'Returned goods', lines: [w.line({ quantity: '1', unit_price: '10.00', discount_amount: '0.00' })] });
      return { w, id, original: null };
    },
    patch: {
      // The reference names the invoice by its number only: there is no UUID to give.
      valid: (i) => ({ ...i, billingReferences: [{ uuid: 'x', number: 'x' }] }),
      fault: (doc) => {
        const ref = invoice(doc).BillingReference[0].InvoiceDocumentReference[0];
        delete ref.UUID;
        ref.ID = [{ _: 'INV-NOT-VALIDATED' }];
      },
    },
    expected: { status: 'Invalid', faults: ['Core Fields Validator: CF333'] },
  },
];

describe('preflight vs the MyInvois simulator: every rule refuses what LHDN refuses', () => {
  it('has one row per preflight code', () => {
    expect(ROWS.map((r) => r.code).sort()).toEqual([...PREFLIGHT_CODES].sort());
  });

  for (const row of ROWS) {
    it(`${row.code}: ${row.draft}`, async () => {
      const { w, id, original } = await row.arrange();
      expect(await preflightCodes(w, id)).toEqual([row.code]);

      const input = await composeStored(w, id, { original: original ?? null });
      let doc: UblDocument;
      if (row.patch) {
        expect(() => buildDocument(input)).toThrow(EinvoiceBuildError);
        doc = buildDocument(row.patch.valid(input));
        row.patch.fault(doc);
      } else {
        doc = buildDocument(input);
      }
      const sim = simulator();
      try {
        const outcome = await submit(sim, doc);
        expect({ status: outcome.status, faults: outcome.faults }).toEqual(row.expected);
      } finally {
        await sim.app.close();
      }
    });
  }
});

describe('a clean draft composes into a document LHDN validates', () => {
  it('an invoice with the complete seller and customer: preflight empty, Valid', async () => {
    const w = await world();
    const id = await draft(w, { lines: [w.line(), w.line({ description: 'Exempt training', tax_code_id: w.ref.exempt.id, tax_exemption_reason: 'Exempt under Schedule A (item 5)', quantity: '1.5', unit_price: '200', discount_amount: '0' }), w.line({ description: 'Fuel', unit_code: 'LTR', quantity: '7', unit_price: '2.055', discount_amount: '0', tax_code_id: w.ref.st10.id })] });
    expect(await preflightCodes(w, id)).toEqual([]);
    const sim = simulator();
    try {
      const outcome = await submit(sim, buildDocument(await composeStored(w, id)));
      expect(outcome).toMatchObject({ status: 'Valid', faults: [] });
      // The simulator's payable is the stored gross: 379.62 + 300.00 + 14.39 + 1.44.
      const details = (await sim.get(await sim.token(), `/api/v1.0/documents/${(outcome as { uuid: string }).uuid}/details`)).json();
      const stored = (await findDocumentRow(t.db, { organizationId: w.org.id, id }))!;
      expect(String(details.totalPayableAmount)).toBe('695.45');
      expect(stored.grossAmount).toBe('695.4500');
    } finally {
      await sim.app.close();
    }
  });

  it('an invoice in USD carries its rate to MYR: preflight empty, Valid', async () => {
    const w = await world();
    const id = await draft(w, { currency: 'USD', fx_rate: '4.4712' });
    expect(await preflightCodes(w, id)).toEqual([]);
    const input = await composeStored(w, id);
    expect([input.currency, input.exchangeRate]).toEqual(['USD', '4.4712']);
    const sim = simulator();
    try {
      expect(await submit(sim, buildDocument(input))).toMatchObject({ status: 'Valid', faults: [] });
    } finally {
      await sim.app.close();
    }
  });

  it('a credit note of an issued invoice, once LHDN validated the invoice: preflight (which cannot know the UUID yet) aside, Valid', async () => {
    const w = await world();
    const invoiceId = await draft(w);
    await issueTestDocument(t.db, w.org.id, invoiceId, w.org.owner.id);
    const sim = simulator();
    try {
      const issued = await submit(sim, buildDocument(await composeStored(w, invoiceId)));
      expect(issued).toMatchObject({ status: 'Valid', faults: [] });
      const reference = (await findDocumentRow(t.db, { organizationId: w.org.id, id: invoiceId }))!.reference!;
      const id = await draft(w, { kind: 'customer_credit_note', original_invoice_id: invoiceId, reason: 'Returned goods', lines: [w.line({ quantity: '1', unit_price: '10.00', discount_amount: '0.00' })] });
      expect(await preflightCodes(w, id)).toEqual(['original_not_validated']);
      const note = await composeStored(w, id, { original: { uuid: (issued as { uuid: string }).uuid, number: reference } });
      expect(note.typeCode).toBe('02');
      expect(await submit(sim, buildDocument(note))).toMatchObject({ status: 'Valid', faults: [] });
    } finally {
      await sim.app.close();
    }
  });

  it('original_not_validated, the other way to send it: a credit note naming a UUID LHDN holds no Valid invoice for is Invalid (RD301)', async () => {
    const w = await world();
    const invoiceId = await draft(w);
    await issueTestDocument(t.db, w.org.id, invoiceId, w.org.owner.id);
    const reference = (await findDocumentRow(t.db, { organizationId: w.org.id, id: invoiceId }))!.reference!;
    const id = await draft(w, { kind: 'customer_credit_note', original_invoice_id: invoiceId, reason: 'Returned goods', lines: [w.line({ quantity: '1', unit_price: '10.00', discount_amount: '0.00' })] });
    expect(await preflightCodes(w, id)).toEqual(['original_not_validated']);
    const sim = simulator();
    try {
      const note = await composeStored(w, id, { original: { uuid: 'F9D425P6DS7D8IU8IQ5FDHXWJ0', number: reference } });
      expect(await submit(sim, buildDocument(note))).toMatchObject({ status: 'Invalid', faults: ['Referenced Documents Validator: RD301'] });
    } finally {
      await sim.app.close();
    }
  });
});

describe('where the preflight is stricter than LHDN (reported, not forced)', () => {
  it('phone_not_e164 also refuses a phone without its + (0355551234), which LHDN accepts (8 to 20 characters, optional +)', async () => {
    const w = await world({ phone: '0355551234' });
    const id = await draft(w);
    expect(await preflightCodes(w, id)).toEqual(['phone_not_e164']);
    const sim = simulator();
    try {
      expect(await submit(sim, buildDocument(await composeStored(w, id)))).toMatchObject({ status: 'Valid', faults: [] });
    } finally {
      await sim.app.close();
    }
  });
});
