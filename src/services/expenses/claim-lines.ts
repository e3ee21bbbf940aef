import type { Database } from '../../db/client';
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
import { findOrganization } from '../../db/queries/organizations';
import { findAnalyticAccountsByIds, findTaxCodesByIds } from '../../db/queries/reference-data';
import type { CLAIM_LINE_TYPES, DOCUMENT_BASES } from '../../db/schema';
import { AppError, validationError } from '../../lib/errors';
import { checkAmountPlaces, checkRatePlaces, Dec, DECIMAL_PATTERN, formatAmount, roundAmount } from '../../lib/money';
import { isCurrency } from '../../lib/code-lists';
import { bindDocuments } from '../documents/bind-documents';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';

/**
 * Writing claim lines. Lines are edited while the claim is in a draft state; each write bumps the
 * claim's revision. Amounts are computed here (mileage and per-diem from the rate tables, base
 * amounts converted once at the expense date) and frozen with the line.
 */

export interface AddClaimLineInput {
  organizationId: string;
  claimId: string;
  type: (typeof CLAIM_LINE_TYPES)[number];
  expenseDate: string;
  categoryId: string;
  description: string;
  /** receipt: the currency spent; others are in the base currency (mileage/per-diem: the rate's). */
  currency?: string;
  /** receipt: what was spent, SST included; advance_offset: the advance deducted (positive). */
  amount?: string;
  /** receipt in a foreign currency: base units per unit of `currency` at the expense date. */
  fxRate?: string;
  fxRateSource?: 'reference' | 'override';
  /** receipt in a foreign currency: reimburse the bank-charged figure instead of the converted amount. */
  bankChargedAmount?: string;
  /** mileage: kilometres; per_diem: days. */
  quantity?: string;
  rateId?: string;
  band?: string;
  taxAmount?: string;
  taxCodeId?: string | null;
  supplierName?: string | null;
  supplierTin?: string | null;
  documentBasis?: (typeof DOCUMENT_BASES)[number];
  einvoiceUuid?: string | null;
  einvoiceValidatedAt?: Date | null;
  relaxationReason?: string | null;
  shares?: { analyticAccountId: string; percentage: string }[];
  /**
   * Uploaded documents (POST /v1/documents, table `files`) supporting the line, bound to it in this
   * order through the shared binding rules (document_unknown, document_not_yours,
   * document_bound_elsewhere).
   */
  documentIds?: string[];
  /** Who writes the line (and so must have uploaded its documents); the claimant when absent. */
  actorMemberId?: string;
  now: Date;
}

async function draftClaim(db: Database, organizationId: string, claimId: string) {
  const claim = await lockClaim(db, { organizationId, id: claimId });
  if (!claim) throw new AppError('not_found', { detail: 'No such claim in this organization' });
  const def = await loadWorkflow(db, organizationId, 'expense_claim');
  if (stateOf(def, claim.state).semantic !== 'draft') {
    throw new AppError('conflict', { detail: `Lines can only change while the claim is a draft; it is ${claim.state}` });
  }
  return claim;
}

function needDecimal(value: string | undefined, pointer: string): string {
  if (value === undefined || !DECIMAL_PATTERN.test(value)) throw validationError(pointer, 'is required as a decimal string');
  return value;
}

async function bandOf(db: Database, input: AddClaimLineInput, quantity: string) {
  if (!input.rateId) throw validationError('/rate_id', 'is required');
  const q = { organizationId: input.organizationId, id: input.rateId };
  if (input.type === 'mileage') {
    const rate = await findMileageRate(db, q);
    if (!rate) throw validationError('/rate_id', 'is not a mileage rate of this organization');
    if (rate.validFrom > input.expenseDate || (rate.validTo && rate.validTo < input.expenseDate)) {
      throw validationError('/rate_id', 'is not in effect on the expense date');
    }
    const km = new Dec(quantity);
    const band = input.band
      ? rate.bands.find((b) => b.band === input.band)
      : rate.bands.find((b) => km.gte(b.fromKm) && (b.toKm === null || km.lt(b.toKm)));
    if (!band) throw validationError('/band', 'no band of the rate covers this line');
    return { currency: rate.currency, band: band.band, unitAmount: band.ratePerKm };
  }
  const rate = await findPerDiemRate(db, q);
  if (!rate) throw validationError('/rate_id', 'is not a per-diem rate of this organization');
  if (rate.validFrom > input.expenseDate || (rate.validTo && rate.validTo < input.expenseDate)) {
    throw validationError('/rate_id', 'is not in effect on the expense date');
  }
  const band = rate.bands.find((b) => b.band === input.band);
  if (!band) throw validationError('/band', 'is not a band of the rate');
  return { currency: rate.currency, band: band.band, unitAmount: band.amountPerDay };
}

/** Adds a line at the end of a draft claim. */
export async function addClaimLine(db: Database, input: AddClaimLineInput) {
  const claim = await draftClaim(db, input.organizationId, input.claimId);
  const org = await findOrganization(db, { organizationId: input.organizationId });
  if (!org) throw new AppError('not_found');
  const base = org.baseCurrency;

  const category = await findExpenseCategory(db, { organizationId: input.organizationId, id: input.categoryId });
  if (!category || !category.active) throw validationError('/category_id', 'is not an active expense category of this organization');
  if (!input.description.trim()) throw validationError('/description', 'must not be blank');

  let currency = base;
  let amount: string;
  let baseAmount: string;
  let fxRate = '1';
  let fxRateSource: 'identity' | 'reference' | 'override' | 'bank_statement' = 'identity';
  let reimbursementBasis: 'expense_date_rate' | 'bank_charged' = 'expense_date_rate';
  let quantity = '1';
  let rateId: string | null = null;
  let band: string | null = null;

  switch (input.type) {
    case 'receipt': {
      currency = input.currency ?? base;
      if (!isCurrency(currency)) throw validationError('/currency', 'is not an ISO 4217 currency');
      amount = needDecimal(input.amount, '/amount');
      if (!checkAmountPlaces(amount, currency)) throw validationError('/amount', `has more places than ${currency} allows`);
      if (new Dec(amount).lte(0)) throw validationError('/amount', 'must be positive');
      if (currency === base) {
        if (input.fxRate !== undefined && !new Dec(input.fxRate).eq(1)) throw validationError('/fx_rate', 'must be 1 for the base currency');
        if (input.bankChargedAmount !== undefined) throw validationError('/bank_charged_amount', 'only a foreign-currency line is reimbursed as bank-charged');
        baseAmount = formatAmount(amount, base);
      } else {
        fxRate = needDecimal(input.fxRate, '/fx_rate');
        if (!checkRatePlaces(fxRate) || new Dec(fxRate).lte(0)) throw validationError('/fx_rate', 'must be positive with up to 10 places');
        fxRateSource = input.fxRateSource ?? 'reference';
        if (input.bankChargedAmount !== undefined) {
          if (!checkAmountPlaces(input.bankChargedAmount, base)) throw validationError('/bank_charged_amount', `must be an amount in ${base}`);
          reimbursementBasis = 'bank_charged';
          fxRateSource = 'bank_statement';
          baseAmount = formatAmount(input.bankChargedAmount, base);
          fxRate = new Dec(input.bankChargedAmount).div(amount).toDecimalPlaces(10).toFixed();
        } else {
          baseAmount = formatAmount(new Dec(amount).times(fxRate), base);
        }
      }
      break;
    }
    case 'mileage':
    case 'per_diem': {
      quantity = needDecimal(input.quantity, '/quantity');
      if (!checkRatePlaces(quantity) || new Dec(quantity).lte(0)) throw validationError('/quantity', 'must be positive with up to 10 places');
      const rate = await bandOf(db, input, quantity);
      if (rate.currency !== base) throw validationError('/rate_id', `the rate is not in the base currency ${base}`);
      rateId = input.rateId ?? null;
      band = rate.band;
      amount = formatAmount(roundAmount(new Dec(quantity).times(rate.unitAmount), base), base);
      baseAmount = amount;
      break;
    }
    case 'advance_offset': {
      const advance = needDecimal(input.amount, '/amount');
      if (!checkAmountPlaces(advance, base) || new Dec(advance).lte(0)) throw validationError('/amount', `must be a positive amount in ${base}`);
      // The advance already paid out is deducted from what is reimbursed.
      amount = formatAmount(new Dec(advance).neg(), base);
      baseAmount = amount;
      break;
    }
  }

  const taxAmount = input.taxAmount ?? '0';
  if (!checkAmountPlaces(taxAmount, currency) || new Dec(taxAmount).lt(0) || new Dec(taxAmount).abs().gt(new Dec(amount).abs())) {
    throw validationError('/tax_amount', 'must be an amount from 0 up to the line amount');
  }

  const documentBasis = input.documentBasis ?? (input.type === 'receipt' ? 'einvoice_employee' : 'relaxation_receipt');
  const relaxationReason =
    input.relaxationReason ?? (documentBasis === 'relaxation_receipt' ? `${input.type.replace('_', ' ')} computed from the organization's rates` : null);

  if (input.taxCodeId) {
    const [taxCode] = await findTaxCodesByIds(db, { organizationId: input.organizationId, ids: [input.taxCodeId] });
    if (!taxCode || !taxCode.active) throw validationError('/tax_code_id', 'is not an active tax code of this organization');
  }

  const shares = input.shares ?? [];
  await checkShares(db, input.organizationId, shares);

  const lineNo = await nextClaimLineNo(db, { organizationId: input.organizationId, claimId: claim.id });

  const line = await insertClaimLine(db, {
    organizationId: input.organizationId,
    claimId: claim.id,
    lineNo,
    type: input.type,
    expenseDate: input.expenseDate,
    categoryId: input.categoryId,
    description: input.description.trim(),
    currency,
    amount,
    baseAmount,
    fxRate,
    fxRateSource,
    reimbursementBasis,
    quantity,
    rateId,
    band,
    taxAmount,
    taxCodeId: input.taxCodeId ?? null,
    supplierName: input.supplierName ?? null,
    supplierTin: input.supplierTin ?? null,
    documentBasis,
    einvoiceUuid: input.einvoiceUuid ?? null,
    einvoiceValidatedAt: input.einvoiceValidatedAt ?? null,
    relaxationReason,
  });
  await insertLineShares(db, { organizationId: input.organizationId, lineId: line.id, shares });
  if (input.documentIds?.length) {
    await bindDocuments(
      db,
      { organizationId: input.organizationId, memberId: input.actorMemberId ?? claim.claimantMemberId },
      { recordType: 'expense_claim_line', recordId: line.id, ids: input.documentIds, pointer: '/documents', now: input.now },
    );
  }
  await bumpClaimRevision(db, { organizationId: input.organizationId, id: claim.id });
  return line;
}

/** Shares: analytic accounts of this organization, no duplicates, each axis summing to exactly 100. */
async function checkShares(db: Database, organizationId: string, shares: { analyticAccountId: string; percentage: string }[]) {
  if (shares.length === 0) return;
  const ids = shares.map((s) => s.analyticAccountId);
  if (new Set(ids).size !== ids.length) throw validationError('/shares', 'names an analytic account twice');
  const accounts = await findAnalyticAccountsByIds(db, { organizationId, ids });
  const byAxis = new Map<string, InstanceType<typeof Dec>>();
  for (const [i, share] of shares.entries()) {
    const account = accounts.find((a) => a.id === share.analyticAccountId);
    if (!account || !account.active) throw validationError(`/shares/${i}/analytic_account_id`, 'is not an active analytic account of this organization');
    if (!checkRatePlaces(share.percentage) || new Dec(share.percentage).lte(0)) throw validationError(`/shares/${i}/percentage`, 'must be positive with up to 10 places');
    byAxis.set(account.axisId, (byAxis.get(account.axisId) ?? new Dec(0)).plus(share.percentage));
  }
  for (const total of byAxis.values()) {
    if (!total.eq(100)) throw validationError('/shares', 'the shares on each axis must sum to exactly 100');
  }
}

/** A withdrawn line stays on the claim and no longer counts. */
export async function withdrawClaimLine(db: Database, q: { organizationId: string; claimId: string; lineId: string }) {
  const claim = await draftClaim(db, q.organizationId, q.claimId);
  if (!(await withdrawClaimLineRow(db, { organizationId: q.organizationId, claimId: claim.id, lineId: q.lineId }))) {
    throw new AppError('not_found', { detail: 'No such line on this claim' });
  }
  await bumpClaimRevision(db, { organizationId: q.organizationId, id: claim.id });
}

/**
 * A document stops supporting a line: it stays bound to the line (it can back no other record) and
 * is kept in history, but leaves the line's documents and the duplicate signal.
 */
export async function detachLineDocument(db: Database, q: { organizationId: string; claimId: string; lineId: string; fileId: string; now: Date }) {
  const claim = await draftClaim(db, q.organizationId, q.claimId);
  const line = await findClaimLine(db, { organizationId: q.organizationId, claimId: claim.id, lineId: q.lineId });
  if (!line) throw new AppError('not_found', { detail: 'No such line on this claim' });
  if (!(await detachLineDocumentRow(db, { organizationId: q.organizationId, lineId: line.id, fileId: q.fileId, now: q.now }))) {
    throw new AppError('not_found', { detail: 'The document does not support this line' });
  }
  await bumpClaimRevision(db, { organizationId: q.organizationId, id: claim.id });
}
