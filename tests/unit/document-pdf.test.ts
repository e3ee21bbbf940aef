import { describe, expect, it } from 'vitest';
import { renderDocumentPdf, type PdfDocument, type RenderDocumentPdfInput } from '../../src/services/einvoicing/pdf/render-document-pdf';
import { COMPLETE_SELLER } from '../helpers/einvoicing';
import { pdfQrCodes, pdfText } from '../helpers/pdf';

/**
 * The invoice PDF renderer on its own, with the e-invoice facts passed in: what a customer reads on
 * the page (text through pdfjs) and what a phone reads from the QR code (the embedded image's pixels).
 */

const UUID = 'F9D425P6DS7D8IU0MJPGT9CJ10';
const LONG_ID = 'LIJAF97HJJKH8298KHADH09908570FDKK9S2LSIUHB377373';
const LINK = `https://preprod.myinvois.hasil.gov.my/${UUID}/share/${LONG_ID}`;

const issued: PdfDocument = {
  id: '7b0f4c8e-2f5e-4d7c-9d7e-1f1b2a3c4d5e',
  kind: 'sales_invoice',
  semantic: 'accrual',
  reference: 'INV-2026-00042',
  currency: 'USD',
  fx_rate: '4.4712',
  invoice_date: '2026-11-20',
  due_on: '2026-12-20',
  payment_terms_days: 30,
  customer_reference: 'PO-7781',
  reason: null,
  net_total: '1351.50',
  tax_total: '108.12',
  gross_amount: '1459.62',
  gross_base: '6526.26',
  buyer: {
    name: 'Syarikat Pelanggan Sdn. Bhd.',
    address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', postcode: '40000', state: '10', country_code: 'MY' },
    email: 'ap@pelanggan.my',
    phone: '+60355551234',
    registration_no: '201901234567',
    registration_type: 'brn',
    sst_no: 'W10-1808-32000001',
    tin: 'C9876543210',
  },
  seller: {
    name: COMPLETE_SELLER.name!,
    address: { ...COMPLETE_SELLER.address, country_code: 'MY' } as never,
    msic: '62010',
    registration_no: '202001234567',
    sst_no: 'NA',
    tin: 'C1234567890',
  },
  lines: [
    { line_no: 1, description: 'Consulting', classification_code: '022', quantity: '3', unit_code: 'HUR', unit_price: '120.50', discount_amount: '10.00', net_amount: '351.50', tax_amount: '28.12', tax_code: 'SV-8', tax_type: '02', tax_rate: '8', tax_exemption_reason: null },
    { line_no: 2, description: 'Licence renewal', classification_code: '022', quantity: '1', unit_code: null, unit_price: '1000.00', discount_amount: '0.00', net_amount: '1000.00', tax_amount: '80.00', tax_code: 'SV-8', tax_type: '02', tax_rate: '8', tax_exemption_reason: null },
  ],
};

const input = (over: Partial<RenderDocumentPdfInput> = {}): RenderDocumentPdfInput => ({
  document: issued,
  seller: COMPLETE_SELLER,
  einvoice: { status: 'valid', uuid: UUID, long_id: LONG_ID, validation_link: LINK, validated_at: '2026-11-20T06:05:09Z' },
  base_currency: 'MYR',
  time_zone: 'Asia/Kuala_Lumpur',
  ...over,
});

describe('renderDocumentPdf', () => {
  it('a validated e-invoice: UUID, validation time and link as text, and a QR code that decodes to the link', async () => {
    const pdf = await renderDocumentPdf(input());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Invoice');
    expect(text).toContain('e-Invoice');
    expect(text).toContain(`UUID: ${UUID}`);
    expect(text).toContain(LINK);
    expect(text).toContain('Validated: 2026-11-20 14:05:09 (Asia/Kuala_Lumpur)');
    expect(text).not.toContain('DRAFT');
    expect(await pdfQrCodes(pdf)).toEqual([LINK]);
  });

  it('prints both parties, every line and the totals exactly, the exchange rate and the SST summary', async () => {
    const text = await pdfText(await renderDocumentPdf(input()));
    for (const s of ['TIN: C1234567890', 'Reg. No. (BRN): 202001234567', 'MSIC: 62010 Computer programming activities', 'Tel: +60123456789', 'billing@contoh.my']) {
      expect(text).toContain(s);
    }
    for (const s of ['Syarikat Pelanggan Sdn. Bhd.', 'TIN: C9876543210', 'Reg. No. (BRN): 201901234567', 'SST No.: W10-1808-32000001', 'Shah Alam, Selangor']) {
      expect(text).toContain(s);
    }
    expect(text).toContain('INV-2026-00042');
    expect(text).toContain('Due date: 2026-12-20');
    expect(text).toMatch(/^1 Consulting 022 3 HUR 120\.50 10\.00 02 8% 28\.12 351\.50$/m);
    expect(text).toMatch(/^2 Licence renewal 022 1 1000\.00 0\.00 02 8% 80\.00 1000\.00$/m);
    expect(text).toMatch(/^Subtotal excl\. tax \(USD\) 1351\.50$/m);
    expect(text).toMatch(/^Total discount, deducted above \(USD\) 10\.00$/m);
    expect(text).toMatch(/^Tax \(USD\) 108\.12$/m);
    expect(text).toMatch(/^Total payable \(USD\) 1459\.62$/m);
    expect(text).toContain('Exchange rate: 1 USD = 4.4712 MYR');
    expect(text).toMatch(/^Total \(MYR\) 6526\.26$/m);
    expect(text).toMatch(/^02 Service Tax 8% 1351\.50 108\.12$/m);
  });

  it('a draft says DRAFT and carries no QR code, even with e-invoice facts', async () => {
    const pdf = await renderDocumentPdf(input({ document: { ...issued, reference: null, semantic: 'draft', seller: null } }));
    const text = await pdfText(pdf);
    expect(text).toContain('DRAFT Invoice');
    expect(text).not.toContain(LINK);
    expect(await pdfQrCodes(pdf)).toEqual([]);
  });

  it('a credit note names its invoice; not yet validated, no QR code', async () => {
    const pdf = await renderDocumentPdf(
      input({
        document: { ...issued, kind: 'customer_credit_note', reference: 'CN-2026-00003', reason: 'Returned goods', currency: 'MYR', fx_rate: '1' },
        original_invoice_reference: 'INV-2026-00042',
        einvoice: { status: 'not_submitted', uuid: null, long_id: null, validation_link: null, validated_at: null },
      }),
    );
    const text = await pdfText(pdf);
    expect(text).toContain('Credit Note No.: CN-2026-00003');
    expect(text).toContain('Original invoice: INV-2026-00042');
    expect(text).toContain('Reason: Returned goods');
    expect(text).toMatch(/^Total credit \(MYR\) 1459\.62$/m);
    expect(text).not.toContain('Exchange rate');
    expect(await pdfQrCodes(pdf)).toEqual([]);
  });

  it('submitted but not yet validated: the status and UUID in words, no QR code; a cancelled document is stamped CANCELLED', async () => {
    const submitted = await renderDocumentPdf(input({ einvoice: { status: 'submitted', uuid: UUID, long_id: null, validation_link: null, validated_at: null } }));
    const text = await pdfText(submitted);
    expect(text).toContain('e-Invoice status: Submitted to LHDN MyInvois; awaiting validation');
    expect(text).toContain(`UUID: ${UUID}`);
    expect(await pdfQrCodes(submitted)).toEqual([]);
    const cancelled = await renderDocumentPdf(input({ document: { ...issued, semantic: 'cancelled' }, einvoice: { status: 'cancelled', uuid: UUID, long_id: LONG_ID, validation_link: LINK, validated_at: null } }));
    expect(await pdfText(cancelled)).toContain('CANCELLED');
    expect(await pdfQrCodes(cancelled)).toEqual([]);
  });

  it('Chinese (Simplified and Traditional) and Tamil names print as written, Malay and Latin beside them; the fonts are subset', async () => {
    const names = ['Kedai Runcit 大华 Café', '陳大文貿易有限公司', '黄丽华', 'முருகன் சுப்பிரமணியம்'];
    for (const name of names) {
      const pdf = await renderDocumentPdf(input({ document: { ...issued, buyer: { ...issued.buyer!, name }, lines: [{ ...issued.lines[0]!, description: `Khidmat ${name}` }] } }));
      const text = await pdfText(pdf);
      expect(text).toContain(name);
      expect(text).toContain(`Khidmat ${name}`);
      expect(text).not.toContain('?');
      // Subset: a few glyphs of a 10 MB font add kilobytes, not megabytes.
      expect(pdf.length).toBeLessThan(200_000);
    }
  });

  it('an issued invoice shows what was paid and the balance due, PAID once settled; unit names beside their codes', async () => {
    const part = await pdfText(await renderDocumentPdf(input({ document: { ...issued, outstanding: '459.62' } })));
    expect(part).toContain('Amount paid (USD) 1000.00');
    expect(part).toContain('Balance due (USD) 459.62');
    expect(part).not.toContain('PAID');
    expect(part).toMatch(/Unit: HUR \S+/);
    const settled = await pdfText(await renderDocumentPdf(input({ document: { ...issued, outstanding: '0.00' } })));
    expect(settled).toContain('Balance due (USD) 0.00');
    expect(settled).toContain('PAID');
    // A credit note and a draft never say paid.
    const note = await pdfText(await renderDocumentPdf(input({ document: { ...issued, kind: 'customer_credit_note', outstanding: '0.00' } })));
    expect(note).not.toContain('Balance due');
    expect(note).not.toContain('PAID');
  });

  it("the organization's payment instructions: bank, DuitNow and JomPAY with the invoice number as Ref-1; none on a credit note", async () => {
    const seller = { ...COMPLETE_SELLER, bank_name: 'Maybank', bank_account_no: '5140-1234-5678', duitnow_id: '202001234567', jompay_biller_code: '12345' };
    const text = await pdfText(await renderDocumentPdf(input({ seller })));
    expect(text).toContain('How to pay / Cara pembayaran');
    expect(text).toContain('Bank transfer: Maybank, account 5140-1234-5678');
    expect(text).toContain('DuitNow: 202001234567');
    expect(text).toContain('JomPAY: biller code 12345, Ref-1 INV-2026-00042');
    const note = await pdfText(await renderDocumentPdf(input({ seller, document: { ...issued, kind: 'customer_credit_note' } })));
    expect(note).not.toContain('How to pay');
  });

    it('a character no font here has (Thai) prints as "?" rather than garbage', async () => {
    const text = await pdfText(await renderDocumentPdf(input({ document: { ...issued, buyer: { ...issued.buyer!, name: 'Kedai ไทย Café' } } })));
    expect(text).toContain('Kedai ??? Café');
  });

  it('many lines run onto further pages, each with the table header and a page number', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({ ...issued.lines[1]!, line_no: i + 1, description: `Item ${i + 1}` }));
    const text = await pdfText(await renderDocumentPdf(input({ document: { ...issued, lines } })));
    const pages = text.split('\f');
    expect(pages.length).toBeGreaterThan(1);
    expect(text).toMatch(/^60 Item 60 022 1 1000\.00/m);
    expect(text).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(await pdfQrCodes(await renderDocumentPdf(input({ document: { ...issued, lines } })))).toEqual([LINK]);
  });
});
