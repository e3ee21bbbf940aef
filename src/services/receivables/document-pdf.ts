/**
 * A receivables document as the PDF its customer receives (GET /v1/receivables/invoices/{id}/pdf):
 * the document as readDocument answers it (so the PDF never shows what GET would not; 404 for
 * another organization's), its e-invoice facts as readEinvoiceStatus answers them, and the few
 * things the document answer does not carry (each line's MyInvois tax type, the reference of the
 * invoice a note adjusts, a draft's buyer), handed to the renderer as plain values. Read only.
 */
import { findCustomer } from '../../db/queries/customers';
import { findDocumentRow, findLines } from '../../db/queries/receivable-documents';
import { countryAlpha2 } from '../../lib/code-lists';
import type { ServiceContext } from '../context';
import { readEinvoiceStatus } from '../einvoicing/document-status';
import type { PdfDocument } from '../einvoicing/pdf/render-document-pdf';
import { readDocument } from './read-document';

export interface DocumentPdf {
  /** `<reference>.pdf`, or `<id>.pdf` for a draft (no number yet). */
  filename: string;
  content: Buffer;
}

/** A draft has no frozen buyer yet: it is printed with the customer as it reads now. */
async function draftBuyer(ctx: ServiceContext, customerId: string): Promise<PdfDocument['buyer']> {
  const c = await findCustomer(ctx.db, { organizationId: ctx.org.id, id: customerId, today: ctx.today });
  if (!c) return null;
  const a = c.address ?? {};
  return {
    name: c.legalName,
    address: {
      ...(a.line1 ? { line1: a.line1 } : {}),
      ...(a.line2 ? { line2: a.line2 } : {}),
      ...(a.city ? { city: a.city } : {}),
      ...(a.postcode ? { postcode: a.postcode } : {}),
      ...(a.state ? { state: a.state } : {}),
      country_code: c.countryCode ? countryAlpha2(c.countryCode) : null,
    },
    email: c.email,
    phone: c.phone,
    registration_no: c.registrationNo,
    registration_type: c.registrationType,
    sst_no: c.sstRegistrationNo,
    tin: c.tin,
  };
}

export async function documentPdf(ctx: ServiceContext, input: { id: string }): Promise<DocumentPdf> {
  const organizationId = ctx.org.id;
  const doc = await readDocument(ctx, input);
  const einvoice = await readEinvoiceStatus(ctx, input);
  const taxTypes = new Map((await findLines(ctx.db, { organizationId, documentId: doc.id })).map((l) => [l.id, l.taxType]));
  const original = doc.original_invoice_id ? await findDocumentRow(ctx.db, { organizationId, id: doc.original_invoice_id }) : undefined;
  // pdfkit and its fonts are loaded on the first PDF, not by every process at start (about 17 MB).
  const { renderDocumentPdf } = await import('../einvoicing/pdf/render-document-pdf');
  const content = await renderDocumentPdf({
    document: {
      ...doc,
      buyer: doc.buyer ?? (await draftBuyer(ctx, doc.customer_id)),
      lines: doc.lines.map((l) => ({ ...l, tax_type: taxTypes.get(l.id) ?? null })),
    },
    seller: { ...ctx.org.seller, name: ctx.org.seller.name ?? ctx.org.name },
    einvoice,
    base_currency: ctx.org.baseCurrency,
    time_zone: ctx.org.timeZone,
    original_invoice_reference: original?.reference ?? null,
    created_at: ctx.now,
  });
  return { filename: `${doc.reference ?? doc.id}.pdf`, content };
}
