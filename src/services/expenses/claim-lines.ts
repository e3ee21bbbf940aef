/**
 * Writing claim lines (DESIGN section 17), as the caller. Lines change only while the claim is in a
 * draft state, and each write bumps the claim's revision. Amounts are computed here (mileage and
 * per-diem from the rate tables, base amounts converted once at the expense date) and frozen with
 * the line; a line is never edited afterwards, only withdrawn. The shares, fx_rate and amount rules
 * are the ones invoice lines follow (services/rules, lib/refusals), so the two cannot drift.
 */
import {
  bumpClaimRevision,
  detachLineDocumentRow,
  findClaimLine,
  insertClaimLine,
  insertLineShares,
  lockClaim,
  nextClaimLineNo,
  withdrawClaimLineRow,
} from '../../db/queries/claims';
import { findExpenseCategory, findMileageRate, findPerDiemRate } from '../../db/queries/expense-reference-data';
import { findAnalyticAccountsByIds, findTaxCodesByIds } from '../../db/queries/reference-data';
import type { CLAIM_LINE_TYPES, DOCUMENT_BASES } from '../../db/schema';
import { isCurrency } from '../../lib/code-lists';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount, roundAmount } from '../../lib/money';
import { amountInCurrency, notBlank, positiveQuantity, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { bindDocuments } from '../documents/bind-documents';
import { checkFxRate } from '../rules/fx-rate';
import { checkShares, type ShareInput } from '../rules/shares';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';

export interface AddClaimLineInput {
  claim_id: string;
  type: (typeof CLAIM_LINE_TYPES)[number];
  expense_date: string;
  category_id: string;
  description: string;
  /** receipt: the currency spent; others are in the base currency (mileage/per-diem: the rate's). */
  currency?: string;
  /** receipt: what was spent, SST included; advance_offset: the advance deducted (positive). */
  amount?: string;
  /** receipt in a foreign currency: base units per unit of `currency` at the expense date. */
  fx_rate?: string;
  fx_rate_source?: 'reference' | 'override';
  /** receipt in a foreign currency: reimburse the bank-charged figure instead of the converted amount. */
  bank_charged_amount?: string;
  /** mileage: kilometres; per_diem: days. */
  quantity?: string;
  rate_id?: string;
  band?: string;
  tax_amount?: string;
  tax_code_id?: string | null;
  supplier_name?: string | null;
  supplier_tin?: string | null;
  document_basis?: (typeof DOCUMENT_BASES)[number];
  einvoice_uuid?: string | null;
  einvoice_validated_at?: Date | null;
  relaxation_reason?: string | null;
  shares?: ShareInput[];
  /**
   * Uploaded documents (POST /v1/documents, table `files`) supporting the line, bound to it in this
   * order through the shared binding rules (document_unknown, document_not_yours,
   * document_bound_elsewhere): the caller must have uploaded them.
   */
  documents?: string[];
}

/** What a line reimburses, computed from its type. */
interface LineAmounts {
  currency: string;
  amount: string;
  baseAmount: string;
  fxRate: string;
  fxRateSource: 'identity' | 'reference' | 'override' | 'bank_statement';
  reimbursementBasis: 'expense_date_rate' | 'bank_charged';
  quantity: string;
  rateId: string | null;
  band: string | null;
}

async function draftClaim(ctx: ServiceContext, claimId: string) {
  const organizationId = ctx.principal.organizationId;
  const claim = await lockClaim(ctx.db, { organizationId, id: claimId });
  if (!claim) throw new AppError('not_found', { detail: 'No such claim in this organization' });
  const def = await loadWorkflow(ctx.db, organizationId, 'expense_claim');
  if (stateOf(def, claim.state).semantic !== 'draft') {
    throw new AppError('conflict', { detail: `Lines can only change while the claim is a draft; it is ${claim.state}` });
  }
  return claim;
}

/** The rate's band for a mileage or per-diem line in effect on the expense date, or a refusal. */
async function bandOf(ctx: ServiceContext, r: Refusals, input: AddClaimLineInput, quantity: string) {
  if (!input.rate_id) return void r.add('/rate_id', 'is required');
  const q = { organizationId: ctx.principal.organizationId, id: input.rate_id };
  const inEffect = (rate: { validFrom: string; validTo: string | null }) =>
    r.check(rate.validFrom <= input.expense_date && !(rate.validTo && rate.validTo < input.expense_date), '/rate_id', 'is not in effect on the expense date');
  if (input.type === 'mileage') {
    const rate = await findMileageRate(ctx.db, q);
    if (!rate) return void r.add('/rate_id', 'is not a mileage rate of this organization');
    if (!inEffect(rate)) return undefined;
    const km = new Dec(quantity);
    const band = input.band
      ? rate.bands.find((b) => b.band === input.band)
      : rate.bands.find((b) => km.gte(b.fromKm) && (b.toKm === null || km.lt(b.toKm)));
    if (!band) return void r.add('/band', 'no band of the rate covers this line');
    return { currency: rate.currency, band: band.band, unitAmount: band.ratePerKm };
  }
  const rate = await findPerDiemRate(ctx.db, q);
  if (!rate) return void r.add('/rate_id', 'is not a per-diem rate of this organization');
  if (!inEffect(rate)) return undefined;
  const band = rate.bands.find((b) => b.band === input.band);
  if (!band) return void r.add('/band', 'is not a band of the rate');
  return { currency: rate.currency, band: band.band, unitAmount: band.amountPerDay };
}

/** The amounts of a line by its type; undefined when a rule refused them (the refusals say why). */
async function lineAmounts(ctx: ServiceContext, r: Refusals, input: AddClaimLineInput): Promise<LineAmounts | undefined> {
  const base = ctx.org.baseCurrency;
  const plain = { currency: base, fxRate: '1', fxRateSource: 'identity', reimbursementBasis: 'expense_date_rate', quantity: '1', rateId: null, band: null } as const;
  const required = (value: string | undefined, pointer: string): value is string => r.check(value !== undefined, pointer, 'is required');
  switch (input.type) {
    case 'receipt': {
      const currency = input.currency ?? base;
      const known = r.check(isCurrency(currency), '/currency', 'is not an ISO 4217 currency code');
      const amountOk = required(input.amount, '/amount') && amountInCurrency(r, input.amount, currency, '/amount', { positive: true });
      const fx = checkFxRate(r, { fx_rate: input.fx_rate, currency, base_currency: base, currency_known: known });
      if (currency === base) {
        r.check(input.bank_charged_amount === undefined, '/bank_charged_amount', 'only a foreign-currency line is reimbursed as bank-charged');
        if (!amountOk || !fx) return undefined;
        const amount = input.amount!;
        return { ...plain, amount, baseAmount: formatAmount(amount, base) };
      }
      const bank = input.bank_charged_amount;
      const bankOk = bank === undefined || amountInCurrency(r, bank, base, '/bank_charged_amount', { positive: true });
      if (!known || !amountOk || !fx || !bankOk) return undefined;
      const amount = input.amount!;
      const common = { ...plain, currency, amount, quantity: '1' };
      if (bank !== undefined) {
        return {
          ...common,
          baseAmount: formatAmount(bank, base),
          fxRate: new Dec(bank).div(amount).toDecimalPlaces(10).toFixed(),
          fxRateSource: 'bank_statement',
          reimbursementBasis: 'bank_charged',
        };
      }
      return { ...common, baseAmount: formatAmount(new Dec(amount).times(fx), base), fxRate: input.fx_rate!, fxRateSource: input.fx_rate_source ?? 'reference' };
    }
    case 'mileage':
    case 'per_diem': {
      if (!required(input.quantity, '/quantity') || !positiveQuantity(r, input.quantity, '/quantity')) return undefined;
      const quantity = input.quantity;
      const rate = await bandOf(ctx, r, input, quantity);
      if (!rate) return undefined;
      if (!r.check(rate.currency === base, '/rate_id', `the rate is not in the base currency ${base}`)) return undefined;
      const amount = formatAmount(roundAmount(new Dec(quantity).times(rate.unitAmount), base), base);
      return { ...plain, amount, baseAmount: amount, quantity, rateId: input.rate_id ?? null, band: rate.band };
    }
    case 'advance_offset': {
      if (!required(input.amount, '/amount') || !amountInCurrency(r, input.amount, base, '/amount', { positive: true })) return undefined;
      // The advance already paid out is deducted from what is reimbursed.
      const amount = formatAmount(new Dec(input.amount).neg(), base);
      return { ...plain, amount, baseAmount: amount };
    }
  }
}

/** Adds a line at the end of a draft claim, as the caller; every rule is checked before the write, refused together in one 422. */
export async function addClaimLine(ctx: ServiceContext, input: AddClaimLineInput) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const claim = await draftClaim(ctx, input.claim_id);
  const r = new Refusals();

  const category = await findExpenseCategory(db, { organizationId, id: input.category_id });
  r.check(Boolean(category?.active), '/category_id', 'is not an active expense category of this organization');
  notBlank(r, input.description, '/description');

  const amounts = await lineAmounts(ctx, r, input);
  const taxAmount = input.tax_amount ?? '0';
  if (amounts && amountInCurrency(r, taxAmount, amounts.currency, '/tax_amount')) {
    r.check(new Dec(taxAmount).lte(new Dec(amounts.amount).abs()), '/tax_amount', 'must be an amount from 0 up to the line amount');
  }

  if (input.tax_code_id) {
    const [taxCode] = await findTaxCodesByIds(db, { organizationId, ids: [input.tax_code_id] });
    r.check(Boolean(taxCode?.active), '/tax_code_id', 'is not an active tax code of this organization');
  }

  const shareInput = input.shares ?? [];
  const accounts = await findAnalyticAccountsByIds(db, { organizationId, ids: [...new Set(shareInput.map((s) => s.analytic_account_id))] });
  const shares = checkShares(r, shareInput, accounts, '/shares').shares;
  r.throwIfAny();
  const a = amounts!;

  const documentBasis = input.document_basis ?? (input.type === 'receipt' ? 'einvoice_employee' : 'relaxation_receipt');
  const relaxationReason =
    input.relaxation_reason ?? (documentBasis === 'relaxation_receipt' ? `${input.type.replace('_', ' ')} computed from the organization's rates` : null);
  const lineNo = await nextClaimLineNo(db, { organizationId, claimId: claim.id });
  const line = await insertClaimLine(db, {
    organizationId,
    claimId: claim.id,
    lineNo,
    type: input.type,
    expenseDate: input.expense_date,
    categoryId: input.category_id,
    description: input.description.trim(),
    currency: a.currency,
    amount: a.amount,
    baseAmount: a.baseAmount,
    fxRate: a.fxRate,
    fxRateSource: a.fxRateSource,
    reimbursementBasis: a.reimbursementBasis,
    quantity: a.quantity,
    rateId: a.rateId,
    band: a.band,
    taxAmount,
    taxCodeId: input.tax_code_id ?? null,
    supplierName: input.supplier_name ?? null,
    supplierTin: input.supplier_tin ?? null,
    documentBasis,
    einvoiceUuid: input.einvoice_uuid ?? null,
    einvoiceValidatedAt: input.einvoice_validated_at ?? null,
    relaxationReason,
  });
  await insertLineShares(db, { organizationId, lineId: line.id, shares: shares.map((s) => ({ analyticAccountId: s.analyticAccountId, percentage: s.percentage })) });
  if (input.documents?.length) {
    await bindDocuments(ctx, { record_type: 'expense_claim_line', record_id: line.id, ids: input.documents, pointer: '/documents' });
  }
  await bumpClaimRevision(db, { organizationId, id: claim.id });
  return line;
}

/** A withdrawn line stays on the claim and no longer counts. */
export async function withdrawClaimLine(ctx: ServiceContext, input: { claim_id: string; line_id: string }) {
  const organizationId = ctx.principal.organizationId;
  const claim = await draftClaim(ctx, input.claim_id);
  if (!(await withdrawClaimLineRow(ctx.db, { organizationId, claimId: claim.id, lineId: input.line_id }))) {
    throw new AppError('not_found', { detail: 'No such line on this claim' });
  }
  await bumpClaimRevision(ctx.db, { organizationId, id: claim.id });
}

/**
 * A document stops supporting a line: it stays bound to the line (it can back no other record) and
 * is kept in history, but leaves the line's documents and the duplicate signal.
 */
export async function detachLineDocument(ctx: ServiceContext, input: { claim_id: string; line_id: string; document_id: string }) {
  const organizationId = ctx.principal.organizationId;
  const claim = await draftClaim(ctx, input.claim_id);
  const line = await findClaimLine(ctx.db, { organizationId, claimId: claim.id, lineId: input.line_id });
  if (!line) throw new AppError('not_found', { detail: 'No such line on this claim' });
  if (!(await detachLineDocumentRow(ctx.db, { organizationId, lineId: line.id, fileId: input.document_id, now: ctx.now }))) {
    throw new AppError('not_found', { detail: 'The document does not support this line' });
  }
  await bumpClaimRevision(ctx.db, { organizationId, id: claim.id });
}
