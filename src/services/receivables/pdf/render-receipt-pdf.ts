/**
 * The official receipt (Resit Rasmi) as a bilingual PDF: who received, from whom, how much, how,
 * and what it settled, with what is left on account. Pure: amounts printed as given.
 */
import PDFDocument from 'pdfkit';
import type { PostalAddress, SellerIdentity } from '../../../db/schema';
import type { ReceiptMethod } from '../../../domain/receivables';
import { collectPdf, latinOnly, PdfText } from '../../documents/pdf-text';
import { addressLines } from '../../einvoicing/pdf/render-document-pdf';

export interface RenderReceiptPdfInput {
  receipt: { reference: string; received_on: string; method: ReceiptMethod; currency: string; amount: string; unallocated: string };
  settled: { reference: string; invoice_date: string; amount: string }[];
  customer: { name: string; code: string; address: PostalAddress & { country_code: string | null } };
  seller: SellerIdentity & { name: string };
  created_at?: Date;
}

const MARGIN = 40;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const GREY = '#555555';

const METHOD: Record<ReceiptMethod, string> = {
  bank_transfer: 'Bank transfer / Pindahan bank',
  cheque: 'Cheque / Cek',
  cash: 'Cash / Tunai',
  card: 'Card / Kad',
  fpx: 'FPX',
  duitnow: 'DuitNow',
  other: 'Other / Lain-lain',
};

export async function renderReceiptPdf(input: RenderReceiptPdfInput): Promise<Buffer> {
  const { receipt: r, seller, customer } = input;
  const pdf = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: latinOnly(`Official Receipt ${r.reference}`), Author: latinOnly(seller.name), CreationDate: input.created_at ?? new Date() } });
  const done = collectPdf(pdf);
  const out = new PdfText(pdf);
  const width = pdf.page.width - 2 * MARGIN;
  let y = MARGIN;
  const write = (text: string, font: string, size: number, x: number, w: number, align: 'left' | 'right' = 'left', color = 'black') => {
    pdf.fontSize(size).fillColor(color);
    out.write(text, font, x, y, { width: w, align });
  };

  write(seller.name, BOLD, 13, MARGIN, width * 0.55);
  let ly = pdf.y + 2;
  for (const l of [...addressLines(seller.address), seller.tin ? `TIN: ${seller.tin}` : '', seller.registration_no ? `Reg. No.: ${seller.registration_no}` : ''].filter(Boolean)) {
    y = ly;
    write(l, FONT, 8, MARGIN, width * 0.55, 'left', GREY);
    ly = pdf.y;
  }
  y = MARGIN;
  write('Official Receipt / Resit Rasmi', BOLD, 16, MARGIN + width * 0.45, width * 0.55, 'right');
  let ry = pdf.y + 6;
  for (const [k, v] of [
    ['Receipt No. / No. Resit', r.reference],
    ['Date received / Tarikh terima', r.received_on],
    ['Method / Cara bayaran', METHOD[r.method]],
  ] as const) {
    y = ry;
    write(`${k}:`, FONT, 8.5, MARGIN + width * 0.45, width * 0.3, 'left', GREY);
    write(v, BOLD, 8.5, MARGIN + width * 0.75, width * 0.25, 'right');
    ry = pdf.y + 1;
  }
  y = Math.max(ly, ry) + 16;
  write('Received from / Diterima daripada', BOLD, 9, MARGIN, width);
  y = pdf.y + 2;
  write(customer.name, BOLD, 11, MARGIN, width * 0.7);
  y = pdf.y + 1;
  for (const l of [customer.code, ...addressLines(customer.address)]) {
    write(l, FONT, 8.5, MARGIN, width * 0.7, 'left', GREY);
    y = pdf.y;
  }
  y += 12;
  write(`Amount received / Jumlah diterima (${r.currency}): ${r.amount}`, BOLD, 12, MARGIN, width);
  y = pdf.y + 14;

  write('Settled / Bayaran bagi', BOLD, 9, MARGIN, width);
  y = pdf.y + 4;
  const cols = [
    { title: 'Document / Dokumen', x: MARGIN, w: 200, align: 'left' as const },
    { title: 'Date / Tarikh', x: MARGIN + 200, w: 120, align: 'left' as const },
    { title: `Amount / Amaun (${r.currency})`, x: MARGIN + 320, w: width - 320, align: 'right' as const },
  ];
  const row = (cells: string[], font: string) => {
    let next = y;
    cells.forEach((c, i) => {
      const col = cols[i]!;
      write(c, font, 8.5, col.x, col.w, col.align);
      next = Math.max(next, pdf.y);
    });
    y = next + 3;
  };
  row(cols.map((c) => c.title), BOLD);
  for (const s of input.settled) row([s.reference, s.invoice_date, s.amount], FONT);
  row(['On account / Baki dalam akaun', '', r.unallocated], FONT);
  y += 20;
  write('This receipt is computer generated. / Resit ini dijana oleh komputer.', FONT, 7.5, MARGIN, width, 'left', GREY);
  pdf.end();
  return done;
}
