/**
 * The receivables document as the PDF a Malaysian customer receives (docs/myinvois.md point 8): invoice,
 * credit note or debit note with seller and buyer identity, lines, totals, the SST summary and, once
 * LHDN has validated it, the e-invoice's UUID, validation time and validation link as text and QR
 * code. Pure: it takes plain values (what readDocument and readEinvoiceStatus answer) and reads
 * nothing. Amounts are printed exactly as the document answers them (decimal strings); the only sums
 * made here (the SST summary per tax type, the total discount) go through decimal.js.
 *
 * Latin text is in pdfkit's standard fonts (Helvetica); Chinese and Tamil names, descriptions and
 * addresses are written in the embedded fonts of PdfText, run by run.
 */
import PDFDocument from 'pdfkit';
import type { SellerIdentity } from '../../../db/schema';
import type { DocumentKind } from '../../../domain/receivables';
import { stateCodes, taxTypes, countryCodes, unitCodes } from '../../../lib/code-lists';
import { Dec, formatAmount } from '../../../lib/money';
import type { DocumentView } from '../../receivables/read-document';
import { collectPdf, latinOnly, PdfText } from '../../documents/pdf-text';
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
  /** What is left to pay (an issued invoice or debit note): the PDF then shows what was paid and the balance due, and PAID once nothing is left. */
  outstanding?: string;
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
const unitName = new Map(unitCodes.entries.map((e) => [e.code, e.name]));

/** A party's postal address as printed lines (state and country by name). */
export function addressLines(a: Party['address'] | SellerIdentity['address'] | null | undefined): string[] {
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

/** What the input decides once for every part of the page. */
interface Facts {
  cur: string;
  draft: boolean;
  cancelled: boolean;
  /** Validated by LHDN, with a link to print. */
  valid: boolean;
  kindTitle: string;
  /** An issued invoice or debit note that knows what is left to pay. */
  settles: boolean;
  paid: boolean;
  number: string;
}

function factsOf(input: RenderDocumentPdfInput): Facts {
  const { document: d, einvoice: e } = input;
  const draft = d.semantic === 'draft' || d.reference === null;
  const cancelled = d.semantic === 'cancelled';
  const settles = !draft && !cancelled && d.kind !== 'customer_credit_note' && d.outstanding !== undefined;
  return {
    cur: d.currency,
    draft,
    cancelled,
    valid: !draft && e.status === 'valid' && Boolean(e.validation_link),
    kindTitle: KIND_TITLE[d.kind],
    settles,
    paid: settles && new Dec(d.outstanding!).isZero() && !new Dec(d.gross_amount).isZero(),
    number: d.reference ?? 'DRAFT',
  };
}

/** The page being drawn: pdfkit's document, the text writer, the Latin font in use and the cursor. */
class Sheet {
  readonly out: PdfText;
  readonly left = MARGIN;
  readonly width: number;
  /** The standard font Latin runs are written in; every font change goes through `font`. */
  latin = FONT;
  y = MARGIN;

  constructor(readonly pdf: PDFKit.PDFDocument) {
    this.out = new PdfText(pdf);
    this.width = pdf.page.width - 2 * MARGIN;
  }

  font(f: string) {
    this.latin = f;
    return this.pdf.font(f);
  }

  text(s: string, x: number, y: number, opts: PDFKit.Mixins.TextOptions = {}) {
    return this.out.write(s, this.latin, x, y, opts);
  }

  bottom() {
    return this.pdf.page.height - MARGIN - 20;
  }

  /** A new page when `h` more points would not fit on this one. */
  ensure(h: number) {
    if (this.y + h > this.bottom()) {
      this.pdf.addPage();
      this.y = MARGIN;
    }
  }
}

export async function renderDocumentPdf(input: RenderDocumentPdfInput): Promise<Buffer> {
  const f = factsOf(input);
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: latinOnly(`${f.kindTitle} ${f.number}`),
      Author: latinOnly(input.seller.name ?? input.document.seller?.name ?? ''),
      CreationDate: input.created_at ?? new Date(),
    },
  });
  const done = collectPdf(pdf);
  const s = new Sheet(pdf);
  drawHeader(s, input, f);
  drawBuyer(s, input.document);
  drawLines(s, input.document);
  drawTotals(s, input, f);
  drawPaymentInstructions(s, input, f);
  drawSstSummary(s, input.document, f);
  drawEinvoice(s, input, f);
  drawPageMarks(s, f);
  pdf.end();
  return done;
}

/** Seller on the left, the document's title and facts on the right. */
function drawHeader(s: Sheet, input: RenderDocumentPdfInput, f: Facts) {
  const d = input.document;
  const { pdf, left, width } = s;
  // Seller: the frozen identity of an issued document wins; the organization's current identity
  // fills what was not frozen (phone, e-mail, activity) and is the whole identity of a draft.
  const frozen = Object.fromEntries(Object.entries(d.seller ?? {}).filter(([, v]) => v !== null && v !== undefined));
  const seller: SellerIdentity = { ...input.seller, ...frozen };
  const rightX = left + width * 0.55;
  const rightW = width * 0.45;
  const y = s.y;
  s.font(BOLD).fontSize(13).fillColor('black');
  s.text(seller.name ?? '', left, y, { width: width * 0.53 });
  let ly = pdf.y + 2;
  s.font(FONT).fontSize(8).fillColor(GREY);
  const sellerLines = [
    ...addressLines(seller.address),
    [seller.tin && `TIN: ${seller.tin}`, seller.registration_no && `Reg. No. (BRN): ${seller.registration_no}`].filter(Boolean).join('   '),
    [seller.sst_no && `SST No.: ${seller.sst_no}`, seller.tourism_tax_no && `Tourism Tax No.: ${seller.tourism_tax_no}`].filter(Boolean).join('   '),
    seller.msic ? `MSIC: ${seller.msic}${seller.business_activity ? ` ${seller.business_activity}` : ''}` : '',
    [seller.phone && `Tel: ${seller.phone}`, seller.email && `E-mail: ${seller.email}`].filter(Boolean).join('   '),
  ].filter(Boolean);
  for (const l of sellerLines) {
    s.text(l, left, ly, { width: width * 0.53 });
    ly = pdf.y;
  }

  s.font(BOLD).fontSize(18).fillColor('black');
  s.text(f.draft ? `DRAFT ${f.kindTitle}` : f.kindTitle, rightX, y, { width: rightW, align: 'right' });
  let ry = pdf.y;
  s.font(FONT).fontSize(9).fillColor(GREY);
  const subtitle = f.draft ? 'Draft: not issued, not a tax document' : f.cancelled ? 'CANCELLED' : f.valid ? 'e-Invoice validated by LHDN MyInvois' : '';
  if (subtitle) {
    s.text(subtitle, rightX, ry, { width: rightW, align: 'right' });
    ry = pdf.y;
  }
  ry += 6;
  const facts: [string, string][] = [
    [`${f.kindTitle} No.`, f.number],
    [f.draft ? 'Date (prepared)' : `${f.kindTitle} date`, d.invoice_date],
    ...(d.kind === 'customer_credit_note' ? [] : ([['Due date', d.due_on], ['Payment terms', `${d.payment_terms_days} days`]] as [string, string][])),
    ...(input.original_invoice_reference ? ([['Original invoice', input.original_invoice_reference]] as [string, string][]) : []),
    ...(d.customer_reference ? ([['Your reference', d.customer_reference]] as [string, string][]) : []),
    ['Currency', f.cur],
  ];
  for (const [k, v] of facts) {
    s.font(FONT).fontSize(8.5).fillColor(GREY);
    s.text(`${k}:`, rightX, ry, { width: rightW * 0.45 });
    s.font(BOLD).fillColor('black');
    s.text(v, rightX + rightW * 0.45, ry, { width: rightW * 0.55, align: 'right' });
    ry = pdf.y + 1;
  }
  s.y = Math.max(ly, ry) + 14;
}

/** "Bill to" (or "Credit to"): the buyer's identity, and the reason of a note. */
function drawBuyer(s: Sheet, d: PdfDocument) {
  const { pdf, left, width } = s;
  const b = d.buyer;
  s.font(BOLD).fontSize(9).fillColor('black');
  s.text(d.kind === 'customer_credit_note' ? 'Credit to' : 'Bill to', left, s.y);
  s.y = pdf.y + 2;
  if (b) {
    s.font(BOLD).fontSize(10);
    s.text(b.name, left, s.y, { width: width * 0.6 });
    s.y = pdf.y + 1;
    s.font(FONT).fontSize(8).fillColor(GREY);
    const regLabel = b.registration_type ? `Reg. No. (${b.registration_type.toUpperCase()})` : 'Reg. No.';
    for (const l of [
      ...addressLines(b.address),
      [b.tin && `TIN: ${b.tin}`, b.registration_no && `${regLabel}: ${b.registration_no}`].filter(Boolean).join('   '),
      b.sst_no ? `SST No.: ${b.sst_no}` : '',
      [b.phone && `Tel: ${b.phone}`, b.email && `E-mail: ${b.email}`].filter(Boolean).join('   '),
    ].filter(Boolean)) {
      s.text(l, left, s.y, { width: width * 0.6 });
      s.y = pdf.y;
    }
  }
  if (d.reason) {
    s.y += 4;
    s.font(FONT).fontSize(8.5).fillColor('black');
    s.text(`Reason: ${d.reason}`, left, s.y, { width });
    s.y = pdf.y;
  }
  s.y += 12;
}

/** The lines table, its header repeated on every page it runs onto. */
function drawLines(s: Sheet, d: PdfDocument) {
  const { pdf, left, width } = s;
  const tableHeader = () => {
    s.font(BOLD).fontSize(7.5).fillColor('black');
    let x = left;
    for (const c of COLUMNS) {
      s.text(c.title, x + 2, s.y, { width: c.width - 4, align: c.align });
      x += c.width;
    }
    s.y = pdf.y + 3;
    pdf.moveTo(left, s.y).lineTo(left + width, s.y).lineWidth(0.5).strokeColor(RULE).stroke();
    s.y += 4;
  };
  tableHeader();
  for (const l of d.lines) {
    const taxLabel = `${l.tax_type ?? l.tax_code} ${l.tax_rate}%`;
    const qty = l.unit_code ? `${l.quantity} ${l.unit_code}` : l.quantity;
    const unit = l.unit_code ? `\nUnit: ${l.unit_code} ${unitName.get(l.unit_code) ?? ''}`.trimEnd() : '';
    const description = `${l.description}${unit}${l.tax_exemption_reason ? `\nExemption: ${l.tax_exemption_reason}` : ''}`;
    const cells = [String(l.line_no), description, l.classification_code, qty, l.unit_price, l.discount_amount, taxLabel, l.tax_amount, l.net_amount];
    s.font(FONT).fontSize(8);
    const h = Math.max(...cells.map((c, i) => s.out.heightOf(c, s.latin, { width: COLUMNS[i]!.width - 4 })));
    if (s.y + h > s.bottom()) {
      pdf.addPage();
      s.y = MARGIN;
      tableHeader();
    }
    let x = left;
    pdf.fillColor('black');
    cells.forEach((c, i) => {
      const col = COLUMNS[i]!;
      s.text(c, x + 2, s.y, { width: col.width - 4, align: col.align });
      x += col.width;
    });
    s.y += h + 4;
    pdf.moveTo(left, s.y - 2).lineTo(left + width, s.y - 2).lineWidth(0.25).strokeColor('#dddddd').stroke();
  }
  s.y += 6;
}

/** Subtotal, discount, tax and total; what was paid and the balance due; the base-currency total. */
function drawTotals(s: Sheet, input: RenderDocumentPdfInput, f: Facts) {
  const d = input.document;
  const { cur } = f;
  const discount = d.lines.reduce((sum, l) => sum.plus(l.discount_amount), new Dec(0));
  const totals: [string, string, boolean][] = [
    [`Subtotal excl. tax (${cur})`, d.net_total, false],
    ...(discount.isZero() ? [] : ([[`Total discount, deducted above (${cur})`, formatAmount(discount, cur), false]] as [string, string, boolean][])),
    [`Tax (${cur})`, d.tax_total, false],
    [d.kind === 'customer_credit_note' ? `Total credit (${cur})` : `Total payable (${cur})`, d.gross_amount, true],
  ];
  if (f.settles) {
    totals.push([`Amount paid (${cur})`, formatAmount(new Dec(d.gross_amount).minus(d.outstanding!), cur), false]);
    totals.push([`Balance due (${cur})`, d.outstanding!, true]);
  }
  if (cur !== input.base_currency) {
    totals.push([`Exchange rate: 1 ${cur} = ${d.fx_rate} ${input.base_currency}`, '', false]);
    totals.push([`Total (${input.base_currency})`, d.gross_base, false]);
  }
  s.ensure(totals.length * 14);
  const tx = s.left + s.width * 0.45;
  const tw = s.width * 0.55;
  for (const [k, v, strong] of totals) {
    s.font(strong ? BOLD : FONT).fontSize(strong ? 10 : 8.5).fillColor('black');
    s.text(k, tx, s.y, { width: tw * 0.7 });
    if (v) s.text(v, tx + tw * 0.7, s.y, { width: tw * 0.3, align: 'right' });
    s.y = s.pdf.y + 3;
  }
  s.y += 10;
}

/** How to pay: the organization's payment instructions as they read now (not on a credit note or a paid document). */
function drawPaymentInstructions(s: Sheet, input: RenderDocumentPdfInput, f: Facts) {
  const pay = input.seller;
  const payLines = [
    pay.bank_name || pay.bank_account_no ? `Bank transfer: ${[pay.bank_name, pay.bank_account_no].filter(Boolean).join(', account ')}` : '',
    pay.duitnow_id ? `DuitNow: ${pay.duitnow_id}` : '',
    pay.jompay_biller_code ? `JomPAY: biller code ${pay.jompay_biller_code}, Ref-1 ${f.number}` : '',
  ].filter(Boolean);
  if (!payLines.length || input.document.kind === 'customer_credit_note' || f.paid) return;
  s.ensure(20 + payLines.length * 11);
  s.font(BOLD).fontSize(9).fillColor('black');
  s.text('How to pay / Cara pembayaran', s.left, s.y);
  s.y = s.pdf.y + 2;
  s.font(FONT).fontSize(8.5);
  for (const l of [...payLines, `Please quote ${f.number} as the payment reference.`]) {
    s.text(l, s.left, s.y, { width: s.width });
    s.y = s.pdf.y + 1;
  }
  s.y += 10;
}

/** Taxable amount and tax per tax type and rate. */
function drawSstSummary(s: Sheet, d: PdfDocument, f: Facts) {
  const groups = new Map<string, { type: string; rate: string; taxable: Dec; tax: Dec }>();
  for (const l of d.lines) {
    const type = l.tax_type ?? l.tax_code;
    const key = `${type}|${l.tax_rate}`;
    const g = groups.get(key) ?? { type, rate: l.tax_rate, taxable: new Dec(0), tax: new Dec(0) };
    g.taxable = g.taxable.plus(l.net_amount);
    g.tax = g.tax.plus(l.tax_amount);
    groups.set(key, g);
  }
  s.ensure(30 + groups.size * 12);
  s.font(BOLD).fontSize(9).fillColor('black');
  s.text('SST summary', s.left, s.y);
  s.y = s.pdf.y + 2;
  const sst = [
    { title: 'Tax type', width: 200, align: 'left' as const },
    { title: 'Rate', width: 50, align: 'right' as const },
    { title: `Taxable amount (${f.cur})`, width: 110, align: 'right' as const },
    { title: `Tax amount (${f.cur})`, width: 100, align: 'right' as const },
  ];
  const sstRow = (cells: string[], rowFont: string) => {
    s.font(rowFont).fontSize(8).fillColor('black');
    let x = s.left;
    let next = s.y;
    cells.forEach((c, i) => {
      const col = sst[i]!;
      s.text(c, x, s.y, { width: col.width - 4, align: col.align });
      next = Math.max(next, s.pdf.y);
      x += col.width;
    });
    s.y = next + 2;
  };
  sstRow(sst.map((c) => c.title), BOLD);
  for (const g of groups.values()) {
    sstRow([`${g.type} ${taxTypeName.get(g.type) ?? ''}`.trim(), `${g.rate}%`, formatAmount(g.taxable, f.cur), formatAmount(g.tax, f.cur)], FONT);
  }
  s.y += 12;
}

const EINVOICE_SAID: Record<string, string> = {
  submitted: 'Submitted to LHDN MyInvois; awaiting validation',
  invalid: 'Refused by LHDN MyInvois (invalid); not a valid e-invoice',
  cancelled: 'The e-invoice was cancelled at LHDN MyInvois',
  rejection_requested: 'The buyer has asked LHDN MyInvois to reject this e-invoice',
};

/** A validated e-invoice: UUID, long id, validation time, link and QR; otherwise its status in a sentence. */
function drawEinvoice(s: Sheet, input: RenderDocumentPdfInput, f: Facts) {
  const e = input.einvoice;
  const { pdf, left, width } = s;
  if (f.valid && e.validation_link) {
    const qrSide = 96;
    s.ensure(qrSide + 10);
    const top = s.y;
    pdf.image(qrPng(e.validation_link), left + width - qrSide, top, { width: qrSide, height: qrSide });
    s.font(BOLD).fontSize(9).fillColor('black');
    s.text('LHDN MyInvois e-Invoice', left, s.y);
    s.y = pdf.y + 3;
    s.font(FONT).fontSize(8);
    for (const l of [`UUID: ${e.uuid ?? ''}`, ...(e.long_id ? [`Long ID: ${e.long_id}`] : []), ...(e.validated_at ? [`Validated: ${localTime(e.validated_at, input.time_zone ?? 'Asia/Kuala_Lumpur')}`] : [])]) {
      s.text(l, left, s.y, { width: width - qrSide - 10 });
      s.y = pdf.y + 1;
    }
    s.y += 3;
    s.text('Validation link (scan the QR code or open):', left, s.y);
    s.y = pdf.y + 1;
    // The link is printed on one line, so it can be copied whole: the font shrinks to fit.
    const link = latinOnly(e.validation_link);
    let size = 8;
    const room = width - qrSide - 10;
    s.font(FONT);
    while (size > 4 && pdf.fontSize(size).widthOfString(link) > room) size -= 0.5;
    pdf.fillColor('#1a0dab');
    pdf.text(link, left, s.y, { width: room, lineBreak: false, link: e.validation_link });
    s.y = Math.max(pdf.y, top + qrSide) + 6;
  } else if (!f.draft && e.status !== 'not_submitted' && e.status !== 'valid') {
    s.ensure(20);
    s.font(FONT).fontSize(8.5).fillColor('black');
    s.text(`e-Invoice status: ${EINVOICE_SAID[e.status] ?? e.status}`, left, s.y, { width });
    if (e.uuid) s.text(`UUID: ${e.uuid}`, left, pdf.y + 1, { width });
    s.y = pdf.y + 6;
  }
}

/** Every page: a footer with the page number, and the stamp of a draft, a cancelled or a paid document. */
function drawPageMarks(s: Sheet, f: Facts) {
  const { pdf } = s;
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const { width: pw, height: ph } = pdf.page;
    // Writing below the bottom margin would make pdfkit open a new page.
    const savedBottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    s.font(FONT).fontSize(7).fillColor(GREY);
    s.text(`${f.kindTitle} ${f.number}   Page ${i - range.start + 1} of ${range.count}`, MARGIN, ph - MARGIN + 8, { width: pw - 2 * MARGIN, align: 'center', lineBreak: false });
    const stamp = f.draft ? 'DRAFT' : f.cancelled ? 'CANCELLED' : f.paid ? 'PAID' : null;
    if (stamp) {
      pdf.save();
      pdf.rotate(-40, { origin: [pw / 2, ph / 2] });
      pdf.font(BOLD).fontSize(f.draft ? 120 : 90).fillColor(f.paid ? '#007a33' : '#cc0000').fillOpacity(0.12);
      pdf.text(stamp, 0, ph / 2 - 60, { width: pw, align: 'center', lineBreak: false });
      pdf.restore();
    }
    pdf.page.margins.bottom = savedBottom;
  }
}
