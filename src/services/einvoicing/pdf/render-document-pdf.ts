/**
 * The receivables document as the PDF a Malaysian customer receives (MYINVOIS.md point 8): invoice,
 * credit note or debit note with seller and buyer identity, lines, totals, the SST summary and, once
 * LHDN has validated it, the e-invoice's UUID, validation time and validation link as text and QR
 * code. Pure: it takes plain values (what readDocument and readEinvoiceStatus answer) and reads
 * nothing. Amounts are printed exactly as the document answers them (decimal strings); the only sums
 * made here (the SST summary per tax type, the total discount) go through decimal.js.
 *
 * pdfkit's standard fonts (Helvetica) are used, so nothing is fetched or bundled; they cover Latin
 * script only (WinAnsi), and any other character prints as "?".
 */
import PDFDocument from 'pdfkit';
import type { SellerIdentity } from '../../../db/schema';
import type { DocumentKind } from '../../../domain/receivables';
import { stateCodes, taxTypes, countryCodes } from '../../../lib/code-lists';
import { Dec, formatAmount } from '../../../lib/money';
import type { DocumentView } from '../../receivables/read-document';
import { qrPng } from './qr-png';

type Line = DocumentView['lines'][number];
type Party = NonNullable<DocumentView['buyer']>;

/** The document fields the PDF prints; a DocumentView fits as it is. */
export interface PdfDocument
  extends Pick<
    DocumentView,
    | 'id'
    | 'kind'
    | 'semantic'
    | 'reference'
    | 'currency'
    | 'fx_rate'
    | 'invoice_date'
    | 'due_on'
    | 'payment_terms_days'
    | 'customer_reference'
    | 'reason'
    | 'net_total'
    | 'tax_total'
    | 'gross_amount'
    | 'gross_base'
  > {
  /** The frozen buyer of an issued document; for a draft, the customer as it reads now. */
  buyer: Party | null;
  /** The frozen seller of an issued document (null on a draft: the organization's identity is printed). */
  seller: (NonNullable<DocumentView['seller']> & Partial<SellerIdentity>) | null;
  lines: (Pick<Line, 'line_no' | 'description' | 'classification_code' | 'quantity' | 'unit_code' | 'unit_price' | 'discount_amount' | 'net_amount' | 'tax_amount' | 'tax_code' | 'tax_rate' | 'tax_exemption_reason'> & {
    /** MyInvois tax type (01 to 06, E) as the line was priced. */
    tax_type?: string | null;
  })[];
}

/** The e-invoice facts of readEinvoiceStatus the PDF prints. */
export interface PdfEinvoice {
  status: string;
  uuid: string | null;
  long_id: string | null;
  validation_link: string | null;
  validated_at: string | null;
}

export interface RenderDocumentPdfInput {
  document: PdfDocument;
  /** The organization's seller identity now: phone, e-mail and activity, and everything for a draft. */
  seller: SellerIdentity;
  einvoice: PdfEinvoice;
  base_currency: string;
  /** IANA zone the validation time is printed in. */
  time_zone?: string;
  /** The reference of the invoice a credit or debit note adjusts. */
  original_invoice_reference?: string | null;
  /** Fixed creation date (tests compare bytes); now by default. */
  created_at?: Date;
}

const KIND_TITLE: Record<DocumentKind, string> = {
  sales_invoice: 'Invoice',
  customer_credit_note: 'Credit Note',
  customer_debit_note: 'Debit Note',
};

const MARGIN = 40;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const GREY = '#555555';
const RULE = '#999999';

const stateName = new Map(stateCodes.entries.map((e) => [e.code, e.name]));
const countryName = new Map(countryCodes.entries.map((e) => [e.code, e.name]));
const taxTypeName = new Map(taxTypes.entries.map((e) => [e.code, e.description]));

// The characters the standard fonts' WinAnsi encoding has beyond Latin-1.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can print: anything outside WinAnsi becomes "?" rather than garbage. */
function printable(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '\n' || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch === '\t' || ch === '\r') out += ' ';
    else out += '?';
  }
  return out;
}

function addressLines(a: Party['address'] | SellerIdentity['address'] | null | undefined): string[] {
  if (!a) return [];
  const out: string[] = [];
  for (const l of [a.line1, a.line2, 'line3' in a ? a.line3 : undefined]) if (l) out.push(l);
  const city = [a.postcode, a.city].filter(Boolean).join(' ');
  const state = a.state ? (stateName.get(a.state) ?? a.state) : '';
  const place = [city, state].filter(Boolean).join(', ');
  if (place) out.push(place);
  if (a.country_code) out.push(countryName.get(a.country_code) ?? a.country_code);
  return out;
}

/** The validation time in the organization's zone, "2026-11-23 14:05:09 (Asia/Kuala_Lumpur)". */
function localTime(iso: string, timeZone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} (${timeZone})`;
}

const collect = (doc: PDFKit.PDFDocument) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
}

const COLUMNS: Column[] = [
  { title: 'No.', width: 20, align: 'left' },
  { title: 'Description', width: 150, align: 'left' },
  { title: 'Class.', width: 30, align: 'left' },
  { title: 'Qty', width: 42, align: 'right' },
  { title: 'Unit price', width: 56, align: 'right' },
  { title: 'Discount', width: 48, align: 'right' },
  { title: 'Tax', width: 42, align: 'right' },
  { title: 'Tax amount', width: 56, align: 'right' },
  { title: 'Amount', width: 71, align: 'right' },
];

export async function renderDocumentPdf(input: RenderDocumentPdfInput): Promise<Buffer> {
  const { document: d, einvoice: e } = input;
  const cur = d.currency;
  const draft = d.semantic === 'draft' || d.reference === null;
  const cancelled = d.semantic === 'cancelled';
  const valid = !draft && e.status === 'valid' && Boolean(e.validation_link);
  const kindTitle = KIND_TITLE[d.kind];
  const number = d.reference ?? 'DRAFT';

  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: printable(`${kindTitle} ${number}`),
      Author: printable(input.seller.name ?? d.seller?.name ?? ''),
      CreationDate: input.created_at ?? new Date(),
    },
  });
  const done = collect(pdf);
  const left = MARGIN;
  const width = pdf.page.width - 2 * MARGIN;
  const bottom = () => pdf.page.height - MARGIN - 20;

  const text = (s: string, x: number, y: number, opts: PDFKit.Mixins.TextOptions = {}) => pdf.text(printable(s), x, y, opts);

  // Seller: the frozen identity of an issued document wins; the organization's current identity
  // fills what was not frozen (phone, e-mail, activity) and is the whole identity of a draft.
  const frozen = Object.fromEntries(Object.entries(d.seller ?? {}).filter(([, v]) => v !== null && v !== undefined));
  const seller: SellerIdentity = { ...input.seller, ...frozen };

  // Header ---------------------------------------------------------------------------------------
  const rightX = left + width * 0.55;
  const rightW = width * 0.45;
  let y = MARGIN;
  pdf.font(BOLD).fontSize(13).fillColor('black');
  text(seller.name ?? '', left, y, { width: width * 0.53 });
  let ly = pdf.y + 2;
  pdf.font(FONT).fontSize(8).fillColor(GREY);
  const sellerLines = [
    ...addressLines(seller.address),
    [seller.tin && `TIN: ${seller.tin}`, seller.registration_no && `Reg. No. (BRN): ${seller.registration_no}`].filter(Boolean).join('   '),
    [seller.sst_no && `SST No.: ${seller.sst_no}`, seller.tourism_tax_no && `Tourism Tax No.: ${seller.tourism_tax_no}`].filter(Boolean).join('   '),
    seller.msic ? `MSIC: ${seller.msic}${seller.business_activity ? ` ${seller.business_activity}` : ''}` : '',
    [seller.phone && `Tel: ${seller.phone}`, seller.email && `E-mail: ${seller.email}`].filter(Boolean).join('   '),
  ].filter(Boolean);
  for (const l of sellerLines) {
    text(l, left, ly, { width: width * 0.53 });
    ly = pdf.y;
  }

  pdf.font(BOLD).fontSize(18).fillColor('black');
  text(draft ? `DRAFT ${kindTitle}` : kindTitle, rightX, y, { width: rightW, align: 'right' });
  let ry = pdf.y;
  pdf.font(FONT).fontSize(9).fillColor(GREY);
  const subtitle = draft
    ? 'Draft: not issued, not a tax document'
    : cancelled
      ? 'CANCELLED'
      : valid
        ? 'e-Invoice validated by LHDN MyInvois'
        : '';
  if (subtitle) {
    text(subtitle, rightX, ry, { width: rightW, align: 'right' });
    ry = pdf.y;
  }
  ry += 6;
  const facts: [string, string][] = [
    [`${kindTitle} No.`, number],
    [draft ? 'Date (prepared)' : `${kindTitle} date`, d.invoice_date],
    ...(d.kind === 'customer_credit_note' ? [] : ([['Due date', d.due_on], ['Payment terms', `${d.payment_terms_days} days`]] as [string, string][])),
    ...(input.original_invoice_reference ? ([['Original invoice', input.original_invoice_reference]] as [string, string][]) : []),
    ...(d.customer_reference ? ([['Your reference', d.customer_reference]] as [string, string][]) : []),
    ['Currency', cur],
  ];
  for (const [k, v] of facts) {
    pdf.font(FONT).fontSize(8.5).fillColor(GREY);
    text(`${k}:`, rightX, ry, { width: rightW * 0.45 });
    pdf.font(BOLD).fillColor('black');
    text(v, rightX + rightW * 0.45, ry, { width: rightW * 0.55, align: 'right' });
    ry = pdf.y + 1;
  }
  y = Math.max(ly, ry) + 14;

  // Buyer ----------------------------------------------------------------------------------------
  const b = d.buyer;
  pdf.font(BOLD).fontSize(9).fillColor('black');
  text(d.kind === 'customer_credit_note' ? 'Credit to' : 'Bill to', left, y);
  y = pdf.y + 2;
  if (b) {
    pdf.font(BOLD).fontSize(10);
    text(b.name, left, y, { width: width * 0.6 });
    y = pdf.y + 1;
    pdf.font(FONT).fontSize(8).fillColor(GREY);
    const regLabel = b.registration_type ? `Reg. No. (${b.registration_type.toUpperCase()})` : 'Reg. No.';
    for (const l of [
      ...addressLines(b.address),
      [b.tin && `TIN: ${b.tin}`, b.registration_no && `${regLabel}: ${b.registration_no}`].filter(Boolean).join('   '),
      b.sst_no ? `SST No.: ${b.sst_no}` : '',
      [b.phone && `Tel: ${b.phone}`, b.email && `E-mail: ${b.email}`].filter(Boolean).join('   '),
    ].filter(Boolean)) {
      text(l, left, y, { width: width * 0.6 });
      y = pdf.y;
    }
  }
  if (d.reason) {
    y += 4;
    pdf.font(FONT).fontSize(8.5).fillColor('black');
    text(`Reason: ${d.reason}`, left, y, { width });
    y = pdf.y;
  }
  y += 12;

  // Lines ----------------------------------------------------------------------------------------
  const tableHeader = () => {
    pdf.font(BOLD).fontSize(7.5).fillColor('black');
    let x = left;
    for (const c of COLUMNS) {
      text(c.title, x + 2, y, { width: c.width - 4, align: c.align });
      x += c.width;
    }
    y = pdf.y + 3;
    pdf.moveTo(left, y).lineTo(left + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
    y += 4;
  };
  tableHeader();
  for (const l of d.lines) {
    const taxLabel = `${l.tax_type ?? l.tax_code} ${l.tax_rate}%`;
    const qty = l.unit_code ? `${l.quantity} ${l.unit_code}` : l.quantity;
    const description = l.tax_exemption_reason ? `${l.description}\nExemption: ${l.tax_exemption_reason}` : l.description;
    const cells = [String(l.line_no), description, l.classification_code, qty, l.unit_price, l.discount_amount, taxLabel, l.tax_amount, l.net_amount];
    pdf.font(FONT).fontSize(8);
    const h = Math.max(...cells.map((c, i) => pdf.heightOfString(printable(c), { width: COLUMNS[i]!.width - 4 })));
    if (y + h > bottom()) {
      pdf.addPage();
      y = MARGIN;
      tableHeader();
    }
    let x = left;
    pdf.fillColor('black');
    cells.forEach((c, i) => {
      const col = COLUMNS[i]!;
      text(c, x + 2, y, { width: col.width - 4, align: col.align });
      x += col.width;
    });
    y += h + 4;
    pdf.moveTo(left, y - 2).lineTo(left + width, y - 2).lineWidth(0.25).strokeColor('#dddddd').stroke();
  }
  y += 6;

  // Totals ---------------------------------------------------------------------------------------
  const discount = d.lines.reduce((s, l) => s.plus(l.discount_amount), new Dec(0));
  const totals: [string, string, boolean][] = [
    [`Subtotal excl. tax (${cur})`, d.net_total, false],
    ...(discount.isZero() ? [] : ([[`Total discount, deducted above (${cur})`, formatAmount(discount, cur), false]] as [string, string, boolean][])),
    [`Tax (${cur})`, d.tax_total, false],
    [d.kind === 'customer_credit_note' ? `Total credit (${cur})` : `Total payable (${cur})`, d.gross_amount, true],
  ];
  if (cur !== input.base_currency) {
    totals.push([`Exchange rate: 1 ${cur} = ${d.fx_rate} ${input.base_currency}`, '', false]);
    totals.push([`Total (${input.base_currency})`, d.gross_base, false]);
  }
  const ensure = (h: number) => {
    if (y + h > bottom()) {
      pdf.addPage();
      y = MARGIN;
    }
  };
  ensure(totals.length * 14);
  const tx = left + width * 0.45;
  const tw = width * 0.55;
  for (const [k, v, strong] of totals) {
    pdf.font(strong ? BOLD : FONT).fontSize(strong ? 10 : 8.5).fillColor('black');
    text(k, tx, y, { width: tw * 0.7 });
    if (v) text(v, tx + tw * 0.7, y, { width: tw * 0.3, align: 'right' });
    y = pdf.y + 3;
  }
  y += 10;

  // SST summary ----------------------------------------------------------------------------------
  const groups = new Map<string, { type: string; rate: string; taxable: Dec; tax: Dec }>();
  for (const l of d.lines) {
    const type = l.tax_type ?? l.tax_code;
    const key = `${type}|${l.tax_rate}`;
    const g = groups.get(key) ?? { type, rate: l.tax_rate, taxable: new Dec(0), tax: new Dec(0) };
    g.taxable = g.taxable.plus(l.net_amount);
    g.tax = g.tax.plus(l.tax_amount);
    groups.set(key, g);
  }
  ensure(30 + groups.size * 12);
  pdf.font(BOLD).fontSize(9).fillColor('black');
  text('SST summary', left, y);
  y = pdf.y + 2;
  const sst = [
    { title: 'Tax type', width: 200, align: 'left' as const },
    { title: 'Rate', width: 50, align: 'right' as const },
    { title: `Taxable amount (${cur})`, width: 110, align: 'right' as const },
    { title: `Tax amount (${cur})`, width: 100, align: 'right' as const },
  ];
  const sstRow = (cells: string[], font: string) => {
    pdf.font(font).fontSize(8).fillColor('black');
    let x = left;
    let next = y;
    cells.forEach((c, i) => {
      const col = sst[i]!;
      text(c, x, y, { width: col.width - 4, align: col.align });
      next = Math.max(next, pdf.y);
      x += col.width;
    });
    y = next + 2;
  };
  sstRow(sst.map((c) => c.title), BOLD);
  for (const g of groups.values()) {
    sstRow([`${g.type} ${taxTypeName.get(g.type) ?? ''}`.trim(), `${g.rate}%`, formatAmount(g.taxable, cur), formatAmount(g.tax, cur)], FONT);
  }
  y += 12;

  // E-invoice ------------------------------------------------------------------------------------
  if (valid && e.validation_link) {
    const qrSide = 96;
    ensure(qrSide + 10);
    const top = y;
    pdf.image(qrPng(e.validation_link), left + width - qrSide, top, { width: qrSide, height: qrSide });
    pdf.font(BOLD).fontSize(9).fillColor('black');
    text('LHDN MyInvois e-Invoice', left, y);
    y = pdf.y + 3;
    pdf.font(FONT).fontSize(8);
    for (const l of [`UUID: ${e.uuid ?? ''}`, ...(e.long_id ? [`Long ID: ${e.long_id}`] : []), ...(e.validated_at ? [`Validated: ${localTime(e.validated_at, input.time_zone ?? 'Asia/Kuala_Lumpur')}`] : [])]) {
      text(l, left, y, { width: width - qrSide - 10 });
      y = pdf.y + 1;
    }
    y += 3;
    text('Validation link (scan the QR code or open):', left, y);
    y = pdf.y + 1;
    // The link is printed on one line, so it can be copied whole: the font shrinks to fit.
    const link = printable(e.validation_link);
    let size = 8;
    const room = width - qrSide - 10;
    pdf.font(FONT);
    while (size > 4 && pdf.fontSize(size).widthOfString(link) > room) size -= 0.5;
    pdf.fillColor('#1a0dab');
    pdf.text(link, left, y, { width: room, lineBreak: false, link: e.validation_link });
    y = Math.max(pdf.y, top + qrSide) + 6;
  } else if (!draft && e.status !== 'not_submitted' && e.status !== 'valid') {
    const said: Record<string, string> = {
      submitted: 'Submitted to LHDN MyInvois; awaiting validation',
      invalid: 'Refused by LHDN MyInvois (invalid); not a valid e-invoice',
      cancelled: 'The e-invoice was cancelled at LHDN MyInvois',
      rejection_requested: 'The buyer has asked LHDN MyInvois to reject this e-invoice',
    };
    ensure(20);
    pdf.font(FONT).fontSize(8.5).fillColor('black');
    text(`e-Invoice status: ${said[e.status] ?? e.status}`, left, y, { width });
    if (e.uuid) text(`UUID: ${e.uuid}`, left, pdf.y + 1, { width });
    y = pdf.y + 6;
  }

  // Every page: the stamp of a draft or a cancelled document, and a footer --------------------------
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const { width: pw, height: ph } = pdf.page;
    // Writing below the bottom margin would make pdfkit open a new page.
    const savedBottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf.font(FONT).fontSize(7).fillColor(GREY);
    text(`${kindTitle} ${number}   Page ${i - range.start + 1} of ${range.count}`, MARGIN, ph - MARGIN + 8, { width: pw - 2 * MARGIN, align: 'center', lineBreak: false });
    const stamp = draft ? 'DRAFT' : cancelled ? 'CANCELLED' : null;
    if (stamp) {
      pdf.save();
      pdf.rotate(-40, { origin: [pw / 2, ph / 2] });
      pdf.font(BOLD).fontSize(draft ? 120 : 90).fillColor('#cc0000').fillOpacity(0.12);
      pdf.text(stamp, 0, ph / 2 - 60, { width: pw, align: 'center', lineBreak: false });
      pdf.restore();
    }
    pdf.page.margins.bottom = savedBottom;
  }
  pdf.end();
  return done;
}
