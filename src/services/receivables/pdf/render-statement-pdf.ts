/**
 * A customer statement as the bilingual (English / Bahasa Malaysia) PDF the customer receives: the
 * organization and the customer, then per currency the open items with what is left and days
 * overdue, or the activity with opening balance, each line and its running balance, and the closing
 * balance. Pure: it prints the statement exactly as customerStatement answers it (decimal strings,
 * never re-added) and reads nothing. Names print in their own script (documents/pdf-text.ts).
 */
import PDFDocument from 'pdfkit';
import type { PostalAddress, SellerIdentity } from '../../../db/schema';
import { addressLines } from '../../einvoicing/pdf/render-document-pdf';
import type { CustomerStatement, StatementLine } from '../../../contract/receivables/statements';
import { collectPdf, latinOnly, PdfText } from '../../documents/pdf-text';

export interface RenderStatementPdfInput {
  statement: CustomerStatement;
  seller: SellerIdentity & { name: string };
  /** The customer's postal address as it reads now. */
  customer_address: PostalAddress & { country_code: string | null };
  created_at?: Date;
}

const MARGIN = 40;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const GREY = '#555555';

/** English, then Bahasa Malaysia. */
const L = {
  title: 'Statement of Account / Penyata Akaun',
  openItems: 'Open items / Butiran belum jelas',
  activity: 'Account activity / Aktiviti akaun',
  asAt: 'As at / Pada',
  period: 'Period / Tempoh',
  customer: 'Customer / Pelanggan',
  currency: 'Currency / Mata wang',
  opening: 'Opening balance / Baki awal',
  closing: 'Closing balance / Baki akhir',
  overdue: 'Overdue / Tertunggak',
  none: 'Nothing open on this day. / Tiada baki tertunggak pada tarikh ini.',
  page: 'Page / Halaman',
} as const;

const KIND: Record<StatementLine['kind'], string> = {
  sales_invoice: 'Invoice / Invois',
  customer_debit_note: 'Debit note / Nota debit',
  customer_credit_note: 'Credit note / Nota kredit',
  receipt: 'Receipt / Resit',
  allocation: 'Applied / Dipadankan',
  allocation_reversal: 'Reversal / Pembatalan',
};

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  cell: (l: StatementLine) => string;
}

const OPEN_COLUMNS: Column[] = [
  { title: 'Date / Tarikh', width: 62, align: 'left', cell: (l) => l.date },
  { title: 'Type / Jenis', width: 92, align: 'left', cell: (l) => KIND[l.kind] },
  { title: 'Reference / Rujukan', width: 110, align: 'left', cell: (l) => l.reference },
  { title: 'Due / Tarikh akhir', width: 62, align: 'left', cell: (l) => l.due_on ?? '' },
  { title: 'Days overdue / Hari lewat', width: 52, align: 'right', cell: (l) => (l.days_overdue ? String(l.days_overdue) : '') },
  { title: 'Amount / Amaun', width: 68, align: 'right', cell: (l) => l.amount },
  { title: 'Open / Belum jelas', width: 69, align: 'right', cell: (l) => l.open ?? '' },
];

const ACTIVITY_COLUMNS: Column[] = [
  { title: 'Date / Tarikh', width: 62, align: 'left', cell: (l) => l.date },
  { title: 'Type / Jenis', width: 92, align: 'left', cell: (l) => KIND[l.kind] },
  { title: 'Reference / Rujukan', width: 150, align: 'left', cell: (l) => (l.applied_to ? `${l.reference} > ${l.applied_to}` : l.reference) },
  { title: 'Amount / Amaun', width: 76, align: 'right', cell: (l) => (l.applied !== null ? `(${l.applied})` : l.amount) },
  { title: 'Balance / Baki', width: 135, align: 'right', cell: (l) => l.balance ?? '' },
];

export async function renderStatementPdf(input: RenderStatementPdfInput): Promise<Buffer> {
  const { statement: s, seller } = input;
  const pdf = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: latinOnly(`${L.title} ${s.customer.code} ${s.to}`), Author: latinOnly(seller.name), CreationDate: input.created_at ?? new Date() } });
  const done = collectPdf(pdf);
  const out = new PdfText(pdf);
  const width = pdf.page.width - 2 * MARGIN;
  const bottom = () => pdf.page.height - MARGIN - 20;
  let y = MARGIN;
  const write = (text: string, font: string, size: number, x: number, opts: PDFKit.Mixins.TextOptions = {}, color = 'black') => {
    pdf.fontSize(size).fillColor(color);
    out.write(text, font, x, y, opts);
  };

  write(seller.name, BOLD, 13, MARGIN, { width: width * 0.55 });
  write(L.title, BOLD, 14, MARGIN + width * 0.45, { width: width * 0.55, align: 'right' });
  y = pdf.y + 4;
  const heading = s.type === 'open_items' ? `${L.openItems}. ${L.asAt}: ${s.to}` : `${L.activity}. ${L.period}: ${s.from} – ${s.to}`;
  write(heading, FONT, 9, MARGIN + width * 0.3, { width: width * 0.7, align: 'right' }, GREY);
  y = pdf.y + 12;
  write(L.customer, BOLD, 9, MARGIN);
  y = pdf.y + 2;
  write(s.customer.legal_name, BOLD, 11, MARGIN, { width: width * 0.7 });
  y = pdf.y + 1;
  for (const line of [`${s.customer.code}`, ...addressLines(input.customer_address)]) {
    write(line, FONT, 8.5, MARGIN, { width: width * 0.7 }, GREY);
    y = pdf.y;
  }
  y += 14;

  const columns = s.type === 'open_items' ? OPEN_COLUMNS : ACTIVITY_COLUMNS;
  const ensure = (h: number) => {
    if (y + h > bottom()) {
      pdf.addPage();
      y = MARGIN;
    }
  };
  const row = (cells: string[], font: string) => {
    pdf.fontSize(7.5);
    const h = Math.max(...cells.map((c, i) => out.heightOf(c, font, { width: columns[i]!.width - 4 })));
    ensure(h + 4);
    let x = MARGIN;
    cells.forEach((c, i) => {
      const col = columns[i]!;
      pdf.fillColor('black');
      out.write(c, font, x + 2, y, { width: col.width - 4, align: col.align });
      x += col.width;
    });
    y += h + 3;
  };
  const total = (label: string, value: string) => {
    ensure(16);
    write(label, BOLD, 9, MARGIN + width * 0.4, { width: width * 0.4 });
    write(value, BOLD, 9, MARGIN + width * 0.8, { width: width * 0.2, align: 'right' });
    y = pdf.y + 3;
  };

  if (s.currencies.length === 0) write(L.none, FONT, 9, MARGIN, { width });
  for (const section of s.currencies) {
    ensure(60);
    write(`${L.currency}: ${section.currency}`, BOLD, 10, MARGIN);
    y = pdf.y + 6;
    if (section.opening_balance !== null) total(L.opening, section.opening_balance);
    row(columns.map((c) => c.title), BOLD);
    pdf.moveTo(MARGIN, y - 1).lineTo(MARGIN + width, y - 1).lineWidth(0.5).strokeColor('#999999').stroke();
    for (const line of section.lines) row(columns.map((c) => c.cell(line)), FONT);
    y += 6;
    if (section.overdue !== null) total(L.overdue, section.overdue);
    total(L.closing, section.closing_balance);
    y += 14;
  }

  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const saved = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf.font(FONT).fontSize(7).fillColor(GREY);
    pdf.text(`${latinOnly(s.customer.code)} ${s.to}   ${L.page} ${i - range.start + 1} / ${range.count}`, MARGIN, pdf.page.height - MARGIN + 8, { width, align: 'center', lineBreak: false });
    pdf.page.margins.bottom = saved;
  }
  pdf.end();
  return done;
}
