/**
 * The ageing report as a printable PDF (A4 landscape): one line per customer and currency with its
 * buckets, its total in the currency and in base, and a last line of the totals per bucket in base.
 * Pure: it prints the report as the service answers it (decimal strings, no sums of its own) with
 * the document PDF's text helper (Chinese and Tamil names print as written).
 */
import PDFDocument from 'pdfkit';
import type { AgeingReport } from '../../contract/receivables/reports';
import { collectPdf, latinOnly, PdfText } from '../documents/pdf-text';

const MARGIN = 36;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const GREY = '#555555';
const RULE = '#999999';

/** "Current", "1–30", …, "Over 120" for the report's bucket keys. */
export function bucketTitle(key: string): string {
  if (key === 'current') return 'Current';
  const over = /^over_(\d+)$/.exec(key);
  if (over) return `Over ${over[1]}`;
  const days = /^days_(\d+)_(\d+)$/.exec(key);
  return days ? `${days[1]}–${days[2]}` : key;
}

export async function renderAgeingPdf(report: AgeingReport, organizationName: string, createdAt: Date): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Aged receivables as at ${report.as_of}`, Author: latinOnly(organizationName), CreationDate: createdAt },
  });
  const done = collectPdf(pdf);
  const text = new PdfText(pdf);
  const left = MARGIN;
  const width = pdf.page.width - 2 * MARGIN;
  const bottom = pdf.page.height - MARGIN - 18;
  const keys = report.bucket_keys;
  const amountW = 62;
  const currencyW = 34;
  const customerW = width - currencyW - amountW * (keys.length + 2);
  const columns = [
    { title: 'Customer', w: customerW, align: 'left' as const },
    { title: 'Cur.', w: currencyW, align: 'left' as const },
    ...keys.map((k) => ({ title: bucketTitle(k), w: amountW, align: 'right' as const })),
    { title: 'Total', w: amountW, align: 'right' as const },
    { title: `Total ${report.base_currency}`, w: amountW, align: 'right' as const },
  ];
  const row = (cells: string[], y: number, font: string) => {
    pdf.font(font).fontSize(8).fillColor('black');
    let x = left;
    let h = 0;
    cells.forEach((c, i) => {
      const col = columns[i]!;
      text.write(c, font, x + 2, y, { width: col.w - 4, align: col.align });
      h = Math.max(h, pdf.y - y);
      x += col.w;
    });
    return y + h + 3;
  };
  const rule = (y: number) => pdf.moveTo(left, y).lineTo(left + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
  const header = () => {
    let y = MARGIN;
    pdf.font(BOLD).fontSize(14).fillColor('black');
    text.write(organizationName, BOLD, left, y, { width });
    pdf.font(BOLD).fontSize(11).text(`Aged receivables as at ${report.as_of}`, left, pdf.y + 2, { width });
    pdf.font(FONT).fontSize(8).fillColor(GREY);
    pdf.text(
      `Days past due; current is not yet due. Credit notes not yet applied and receipts not yet allocated are negative. Base currency ${report.base_currency}. * a company of the group.`,
      left,
      pdf.y + 2,
      { width },
    );
    y = pdf.y + 8;
    y = row(columns.map((c) => c.title), y, BOLD);
    rule(y - 1);
    return y + 2;
  };

  let y = header();
  for (const c of report.customers) {
    const cells = [`${c.code} ${c.legal_name}${c.is_group_company ? ' *' : ''}`, c.currency, ...keys.map((k) => c.buckets[k] ?? ''), c.total, c.total_base];
    if (y + 22 > bottom) {
      pdf.addPage();
      y = header();
    }
    y = row(cells, y, FONT);
  }
  if (!report.customers.length) {
    pdf.font(FONT).fontSize(9).fillColor(GREY).text('Nothing was open on this day.', left, y + 4, { width });
    y = pdf.y + 6;
  }
  if (y + 22 > bottom) {
    pdf.addPage();
    y = header();
  }
  rule(y);
  row([`Total (${report.base_currency})`, '', ...keys.map((k) => report.totals_base[k] ?? ''), '', report.total_base], y + 3, BOLD);

  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    pdf.font(FONT).fontSize(7).fillColor(GREY);
    pdf.text(`Page ${i + 1} of ${range.count}`, left, pdf.page.height - MARGIN - 8, { width, align: 'right', lineBreak: false });
  }
  pdf.end();
  return done;
}
