/**
 * The e-invoicing preflight of one stored receivables document: reads its lines, its customer and its
 * original (a credit or debit note's), and runs the pure preflight (preflight.ts) against the
 * organization's seller identity. Also the `einvoice_ready` refusal issuing answers. Read only.
 */
import { findCustomer } from '../../db/queries/customers';
import { findCurrentEinvoice } from '../../db/queries/einvoices';
import { findDocumentRow, findLines, type DocumentRow } from '../../db/queries/receivable-documents';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import { customerPreflight, preflight, type PreflightCustomer, type PreflightProblem } from './preflight';

async function validUuidOf(ctx: ServiceContext, documentId: string): Promise<string | null> {
  const current = await findCurrentEinvoice(ctx.db, { organizationId: ctx.org.id, documentId });
  return current?.state === 'valid' ? current.uuid : null;
}

type CustomerRow = NonNullable<Awaited<ReturnType<typeof findCustomer>>>;

/** What the preflight reads of a customer. */
function preflightCustomerOf(customer: CustomerRow | undefined): PreflightCustomer {
  return {
    country_code: customer?.countryCode ?? 'MY',
    tin: customer?.tin ?? null,
    registration_type: customer?.registrationType ?? null,
    registration_no: customer?.registrationNo ?? null,
    phone: customer?.phone ?? null,
    address: { line1: customer?.address.line1, city: customer?.address.city, state: customer?.address.state },
  };
}

/**
 * Whether documents to this customer could go to MyInvois as far as the customer is concerned: the
 * buyer part of the preflight issuing runs (the seller's and each document's own checks aside).
 * Undefined when the organization has no such customer.
 */
export async function customerReadiness(ctx: ServiceContext, customerId: string): Promise<PreflightProblem[] | undefined> {
  const customer = await findCustomer(ctx.db, { organizationId: ctx.org.id, id: customerId, today: ctx.today });
  return customer ? customerPreflight(preflightCustomerOf(customer)) : undefined;
}

export async function documentPreflight(ctx: ServiceContext, doc: DocumentRow, original?: DocumentRow): Promise<PreflightProblem[]> {
  const organizationId = ctx.org.id;
  const [lines, customer] = [await findLines(ctx.db, { organizationId, documentId: doc.id }), await findCustomer(ctx.db, { organizationId, id: doc.customerId, today: ctx.today })];
  const orig = doc.originalInvoiceId ? (original ?? (await findDocumentRow(ctx.db, { organizationId, id: doc.originalInvoiceId }))) : undefined;
  return preflight(
    {
      kind: doc.kind,
      currency: doc.currency,
      base_currency: ctx.org.baseCurrency,
      fx_rate: doc.fxRate,
      gross_amount: doc.grossAmount,
      lines: lines.map((l) => ({ classification_code: l.classificationCode, tax_type: l.taxType, tax_exemption_reason: l.taxExemptionReason })),
      // A note refers to its original's LHDN UUID: only a validated e-invoice has one to give.
      original: orig ? { reference: orig.reference, lhdn_uuid: await validUuidOf(ctx, orig.id) } : null,
    },
    preflightCustomerOf(customer),
    ctx.org.seller,
  );
}

/** 422 `einvoice_not_ready` carrying the problems as `errors[]`. */
export function notReady(problems: PreflightProblem[]): AppError {
  return new AppError('einvoice_not_ready', {
    detail: `The document is not ready for LHDN MyInvois (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problems.map((p) => p.detail).join('; ')}`,
    errors: problems.map((p) => ({ pointer: p.pointer, code: p.code, detail: p.detail })),
  });
}
