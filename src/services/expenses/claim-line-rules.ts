/**
 * The rules of one claim line (docs/design.md §17), the same for adding and changing a line: which
 * fields apply to its type and document basis, the text limits, the expense date, the category, the
 * document basis, the shares (the invoice rules, services/rules/shares.ts) and the amounts
 * (claim-line-amounts.ts). Every failing field is collected into one 422; nothing is written here.
 */
import { findExpenseCategory } from '../../db/queries/expense-reference-data';
import { findAnalyticAccountsByIds } from '../../db/queries/analytic-accounts';
import type { ClaimLineType, DocumentBasis } from '../../domain/expenses';
import { isCountryCode } from '../../lib/code-lists';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkShares, type CheckedShare, type ShareInput } from '../rules/shares';
import { lineAmounts, lineTax, type LineAmounts, type PricingScope } from './claim-line-amounts';

/** A line's fields as the API takes them (snake_case); null is the same as absent. */
export interface ClaimLineFields {
  type: ClaimLineType;
  expense_date: string;
  category_id: string;
  description: string;
  /** receipt: the currency spent (the base currency when absent); other types are in the base currency. */
  currency?: string | null;
  /** receipt: what was spent, SST included; advance_offset: the advance deducted (positive, stored negative). */
  amount?: string | null;
  /** receipt in a foreign currency: an override of the reference rate, with fx_rate_reason. */
  fx_rate?: string | null;
  fx_rate_reason?: string | null;
  /** receipt in a foreign currency: the base-currency figure the bank charged, reimbursed exactly. */
  bank_charged_amount?: string | null;
  /** mileage: kilometres; per_diem: days. */
  quantity?: string | null;
  rate_id?: string | null;
  /** per_diem: one of the rate's bands (mileage bands are computed). */
  band?: string | null;
  tax_amount?: string | null;
  tax_code_id?: string | null;
  supplier_name?: string | null;
  supplier_tin?: string | null;
  supplier_country?: string | null;
  document_basis?: DocumentBasis | null;
  einvoice_uuid?: string | null;
  relaxation_reason?: string | null;
  shares?: ShareInput[] | null;
  /** Uploaded documents supporting the line (bound by the caller, not checked here). */
  documents?: string[] | null;
}

export type ClaimLineField = keyof ClaimLineFields;

/** The line as its columns will hold it. */
export interface CheckedLine extends LineAmounts {
  expenseDate: string;
  categoryId: string;
  description: string;
  taxAmount: string;
  taxCodeId: string | null;
  supplierName: string | null;
  supplierTin: string | null;
  supplierCountry: string | null;
  documentBasis: DocumentBasis;
  einvoiceUuid: string | null;
  relaxationReason: string | null;
  shares: CheckedShare[];
}

const TEXT_MAX = { description: 500, supplier_name: 200, supplier_tin: 20, relaxation_reason: 500 } as const;
const EINVOICE_UUID = /^[A-Za-z0-9]{26}$/;
const EARLIEST_DATE = '1900-01-01';

/** The reason stored on a line the organization's own rates priced, when the claimant names no basis. */
const RATE_RELAXATION: Record<Exclude<ClaimLineType, 'receipt'>, string> = {
  mileage: "Mileage computed from the organization's rates",
  per_diem: "Per-diem allowance computed from the organization's rates",
  advance_offset: 'Cash advance settled on this claim',
};

/**
 * Why a field does not apply to the line as it stands (its type, currency and document basis), or
 * undefined when it does. A field the caller sent that does not apply is refused; one a change
 * inherited from the stored line is dropped (see `applicable`).
 */
function notApplicable(field: ClaimLineField, f: ClaimLineFields, base: string): string | undefined {
  const receipt = f.type === 'receipt';
  switch (field) {
    case 'amount':
      return receipt || f.type === 'advance_offset' ? undefined : `does not apply to a ${f.type} line (its amount is computed from the rate)`;
    case 'fx_rate_reason':
    case 'bank_charged_amount':
      return receipt ? undefined : 'applies only to a receipt line';
    case 'fx_rate':
      return receipt ? undefined : `does not apply to a ${f.type} line (it is in the base currency ${base})`;
    case 'currency':
      return receipt || f.currency === base ? undefined : `must be the base currency ${base}: ${f.type} lines are in the base currency`;
    case 'quantity':
    case 'rate_id':
      return f.type === 'mileage' || f.type === 'per_diem' ? undefined : 'applies only to mileage and per-diem lines';
    case 'band':
      if (f.type === 'per_diem') return undefined;
      return f.type === 'mileage' ? "is computed from the rate's bands on a mileage line" : 'applies only to per-diem lines';
    case 'tax_amount':
    case 'tax_code_id':
      return receipt ? undefined : 'applies only to a receipt line (SST borne on a purchase)';
    case 'einvoice_uuid':
      return f.document_basis === 'einvoice_company' || f.document_basis === 'einvoice_employee' ? undefined : 'applies only to an e-invoice document basis';
    case 'relaxation_reason':
      return f.document_basis === 'relaxation_receipt' ? undefined : 'applies only to document_basis relaxation_receipt';
    default:
      return undefined;
  }
}

const CONDITIONAL: ClaimLineField[] = ['amount', 'fx_rate', 'fx_rate_reason', 'bank_charged_amount', 'currency', 'quantity', 'rate_id', 'band', 'tax_amount', 'tax_code_id', 'einvoice_uuid', 'relaxation_reason'];

/**
 * The fields that apply, with the document basis defaulted: a sent field that does not apply is
 * refused at its pointer; an inherited one (not in `sent`) is dropped. Neither reaches the other rules,
 * so a field is never refused twice.
 */
function applicable(r: Refusals, f: ClaimLineFields, sent: ReadonlySet<ClaimLineField>, base: string): ClaimLineFields {
  const out: ClaimLineFields = { ...f };
  if (out.type !== 'receipt' && out.document_basis == null) {
    out.document_basis = 'relaxation_receipt';
    if (out.relaxation_reason == null) out.relaxation_reason = RATE_RELAXATION[out.type];
  }
  for (const field of CONDITIONAL) {
    if (out[field] == null) continue;
    const why = notApplicable(field, out, base);
    if (!why) continue;
    // Refused when sent, dropped when inherited; either way the rules below no longer see it.
    if (sent.has(field)) r.add(`/${field}`, why);
    out[field] = null as never;
  }
  return out;
}

/** The document basis rules; answers whether they hold. */
function checkDocumentBasis(r: Refusals, f: ClaimLineFields, currency: string): boolean {
  const basis = f.document_basis;
  if (basis == null) return r.check(false, '/document_basis', 'is required on a receipt line (einvoice_company, einvoice_employee, foreign_supplier or relaxation_receipt)');
  switch (basis) {
    case 'einvoice_company':
    case 'einvoice_employee':
      if (f.einvoice_uuid == null) return r.check(false, '/einvoice_uuid', `is required with document_basis ${basis}`);
      return r.check(EINVOICE_UUID.test(f.einvoice_uuid), '/einvoice_uuid', 'must be the 26 letters and digits of a MyInvois document UUID');
    case 'relaxation_receipt':
      if (f.relaxation_reason == null) return r.check(false, '/relaxation_reason', 'is required with document_basis relaxation_receipt');
      return notBlank(r, f.relaxation_reason, '/relaxation_reason') && maxLength(r, f.relaxation_reason, TEXT_MAX.relaxation_reason, '/relaxation_reason');
    case 'foreign_supplier': {
      const foreignCountry = f.supplier_country != null && f.supplier_country !== 'MY';
      return r.check(currency !== 'MYR' || foreignCountry, '/document_basis', 'foreign_supplier needs a currency other than MYR or a supplier_country other than MY');
    }
  }
}

/** Checks a line (added, or changed and merged with its stored fields) and prices it; one 422 for every fault. */
export async function checkClaimLine(ctx: ServiceContext, input: ClaimLineFields, sent: ReadonlySet<ClaimLineField>, scope: PricingScope): Promise<CheckedLine> {
  const organizationId = ctx.org.id;
  const r = new Refusals();
  const f = applicable(r, input, sent, ctx.org.baseCurrency);

  const category = await findExpenseCategory(ctx.db, { organizationId, id: f.category_id });
  r.check(Boolean(category?.active), '/category_id', 'is not an active expense category of this organization');
  notBlank(r, f.description, '/description') && maxLength(r, f.description, TEXT_MAX.description, '/description');
  notBlank(r, f.supplier_name, '/supplier_name') && maxLength(r, f.supplier_name, TEXT_MAX.supplier_name, '/supplier_name');
  notBlank(r, f.supplier_tin, '/supplier_tin') && maxLength(r, f.supplier_tin, TEXT_MAX.supplier_tin, '/supplier_tin');
  if (f.supplier_country != null) r.check(isCountryCode(f.supplier_country), '/supplier_country', 'is not an ISO 3166-1 alpha-2 country code');
  const dateOk =
    r.check(f.expense_date <= ctx.today, '/expense_date', `must not be after today (${ctx.today})`) &&
    r.check(f.expense_date >= EARLIEST_DATE, '/expense_date', `must not be before ${EARLIEST_DATE}`);

  const amounts = dateOk ? await lineAmounts(ctx, r, f, scope) : undefined;
  const taxAmount = await lineTax(ctx, r, f, amounts);
  checkDocumentBasis(r, f, amounts?.currency ?? f.currency ?? ctx.org.baseCurrency);

  const shareInput = f.shares ?? [];
  const accounts = await findAnalyticAccountsByIds(ctx.db, { organizationId, ids: [...new Set(shareInput.map((s) => s.analytic_account_id))] });
  const shares = checkShares(r, shareInput, accounts, '/shares').shares;
  r.throwIfAny();

  const trimmed = (v: string | null | undefined) => (v == null ? null : v.trim());
  return {
    ...amounts!,
    expenseDate: f.expense_date,
    categoryId: f.category_id,
    description: f.description.trim(),
    taxAmount,
    taxCodeId: f.tax_code_id ?? null,
    supplierName: trimmed(f.supplier_name),
    supplierTin: trimmed(f.supplier_tin),
    supplierCountry: f.supplier_country ?? null,
    documentBasis: f.document_basis!,
    einvoiceUuid: f.einvoice_uuid ?? null,
    relaxationReason: trimmed(f.relaxation_reason),
    shares,
  };
}
