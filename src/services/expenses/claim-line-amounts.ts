/**
 * What a claim line reimburses, by its type (docs/design.md §17): a receipt converted once at the
 * expense date (the organization's reference rate, an override with a reason, or the bank-charged
 * figure), mileage banded cumulatively over the claimant's calendar year, per-diem days × the band
 * amount, an advance offset stored negative; and the SST borne, backed out of the gross. It adds
 * refusals and never throws; it never writes.
 */
import { claimantMileageKmInYear } from '../../db/queries/claims';
import { findReferenceRateOn } from '../../db/queries/exchange-rates';
import { findMileageRate, findPerDiemRate } from '../../db/queries/expense-reference-data';
import { lockSetupScope } from '../../db/queries/keyset';
import { findTaxCodesByIds } from '../../db/queries/tax-codes';
import { isCurrency as isKnownCurrency } from '../../lib/code-lists';
import type { FxRateSource, ReimbursementBasis } from '../../domain/expenses';
import { Dec, formatAmount, formatRate, roundAmount } from '../../lib/money';
import { amountInCurrency, maxLength, notBlank, positiveQuantity, rateInRange, type Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkFxRate } from '../rules/fx-rate';
import type { ClaimLineFields } from './claim-line-rules';

/** What a line reimburses, as its columns hold it. */
export interface LineAmounts {
  currency: string;
  amount: string;
  baseAmount: string;
  fxRate: string;
  fxRateSource: FxRateSource;
  fxRateReason: string | null;
  reimbursementBasis: ReimbursementBasis;
  quantity: string;
  rateId: string | null;
  band: string | null;
}

/** Who the line is priced for: the claimant, and the states whose mileage no longer counts. */
export interface PricingScope {
  claimantMemberId: string;
  /** Claim states with semantic rejected or cancelled: their mileage lines leave the year's kilometres. */
  excludedStates: string[];
  /** The line being priced again (a change): its own kilometres are not "already claimed". */
  lineId?: string;
}

const FX_REASON_MAX = 500;

type Priced = Omit<LineAmounts, 'fxRate' | 'fxRateSource' | 'fxRateReason' | 'reimbursementBasis' | 'quantity' | 'rateId' | 'band'> &
  Partial<LineAmounts>;

function complete(p: Priced): LineAmounts {
  return { fxRate: '1', fxRateSource: 'identity', fxRateReason: null, reimbursementBasis: 'expense_date_rate', quantity: '1', rateId: null, band: null, ...p };
}

/** The amounts of a line by its type; undefined when a rule refused them (the refusals say why). */
export async function lineAmounts(ctx: ServiceContext, r: Refusals, f: ClaimLineFields, scope: PricingScope): Promise<LineAmounts | undefined> {
  const base = ctx.org.baseCurrency;
  switch (f.type) {
    case 'receipt':
      return receiptAmounts(ctx, r, f);
    case 'mileage':
      return mileageAmounts(ctx, r, f, scope);
    case 'per_diem':
      return perDiemAmounts(ctx, r, f);
    case 'advance_offset': {
      if (!r.check(f.amount != null, '/amount', 'is required') || !amountInCurrency(r, f.amount!, base, '/amount', { positive: true })) return undefined;
      // The advance already paid out is deducted from what is reimbursed.
      const amount = formatAmount(new Dec(f.amount!).neg(), base);
      return complete({ currency: base, amount, baseAmount: amount });
    }
  }
}

async function receiptAmounts(ctx: ServiceContext, r: Refusals, f: ClaimLineFields): Promise<LineAmounts | undefined> {
  const base = ctx.org.baseCurrency;
  const currency = f.currency ?? base;
  const known = r.check(isKnownCurrency(currency), '/currency', 'is not an ISO 4217 currency code');
  const amountOk = r.check(f.amount != null, '/amount', 'is required') && amountInCurrency(r, f.amount!, currency, '/amount', { positive: true });
  if (!known) return undefined;
  const amount = f.amount!;

  if (currency === base) {
    // A base-currency line is converted at 1 (fx_rate "1" may be sent; anything else is refused).
    const fx = checkFxRate(r, { fx_rate: f.fx_rate ?? undefined, currency, base_currency: base, currency_known: true });
    r.check(f.fx_rate_reason == null, '/fx_rate_reason', `applies only to a foreign-currency line whose fx_rate overrides the reference rate`);
    r.check(f.bank_charged_amount == null, '/bank_charged_amount', 'only a foreign-currency line is reimbursed as bank-charged');
    if (!amountOk || !fx) return undefined;
    return complete({ currency, amount: formatAmount(amount, currency), baseAmount: formatAmount(amount, base) });
  }

  const bank = f.bank_charged_amount;
  if (bank != null) {
    // Reimburses exactly what the bank charged; the rate is the bank's figure over the amount.
    r.check(f.fx_rate == null, '/fx_rate', 'is not sent with bank_charged_amount: the rate is the bank-charged figure over the amount');
    r.check(f.fx_rate_reason == null, '/fx_rate_reason', 'is not sent with bank_charged_amount');
    const bankOk = amountInCurrency(r, bank, base, '/bank_charged_amount', { positive: true });
    if (!amountOk || !bankOk) return undefined;
    return complete({
      currency,
      amount: formatAmount(amount, currency),
      baseAmount: formatAmount(bank, base),
      fxRate: formatRate(new Dec(bank).div(amount).toDecimalPlaces(10)),
      fxRateSource: 'bank_statement',
      reimbursementBasis: 'bank_charged',
    });
  }

  if (f.fx_rate != null) {
    // An override of the reference rate, with the claimant's reason.
    const rateOk = rateInRange(r, f.fx_rate, '/fx_rate', { min: '0', minExclusive: true });
    const reason = f.fx_rate_reason;
    const reasonOk =
      r.check(reason != null, '/fx_rate_reason', 'is required when fx_rate overrides the reference rate') &&
      notBlank(r, reason, '/fx_rate_reason') &&
      maxLength(r, reason, FX_REASON_MAX, '/fx_rate_reason');
    if (!amountOk || !rateOk || !reasonOk) return undefined;
    return complete({
      currency,
      amount: formatAmount(amount, currency),
      baseAmount: formatAmount(roundAmount(new Dec(amount).times(f.fx_rate), base), base),
      fxRate: formatRate(f.fx_rate),
      fxRateSource: 'override',
      fxRateReason: reason!.trim(),
    });
  }

  r.check(f.fx_rate_reason == null, '/fx_rate_reason', 'applies only with fx_rate (an override of the reference rate)');
  const reference = await findReferenceRateOn(ctx.db, { organizationId: ctx.org.id, currency, day: f.expense_date });
  if (!reference) {
    r.add('/fx_rate', `no reference rate for ${currency} on ${f.expense_date}: send fx_rate with fx_rate_reason, or bank_charged_amount`);
    return undefined;
  }
  if (!amountOk) return undefined;
  return complete({
    currency,
    amount: formatAmount(amount, currency),
    baseAmount: formatAmount(roundAmount(new Dec(amount).times(reference.rate), base), base),
    fxRate: formatRate(reference.rate),
    fxRateSource: 'reference',
  });
}

/** A rate is in force on the day when it is active and its validity covers the day. */
function inForce(r: Refusals, rate: { active: boolean; validFrom: string; validTo: string | null }, day: string): boolean {
  if (!r.check(rate.active, '/rate_id', 'the rate is deactivated')) return false;
  return r.check(rate.validFrom <= day && !(rate.validTo && rate.validTo < day), '/rate_id', `is not in force on the expense date ${day}`);
}

/** The quantity (km or days) and the rate a mileage or per-diem line names, checked. */
function quantityAndRate(r: Refusals, f: ClaimLineFields): { quantity: string; rateId: string } | undefined {
  const quantityOk = r.check(f.quantity != null, '/quantity', 'is required') && positiveQuantity(r, f.quantity!, '/quantity');
  const rateOk = r.check(f.rate_id != null, '/rate_id', 'is required');
  return quantityOk && rateOk ? { quantity: f.quantity!, rateId: f.rate_id! } : undefined;
}

/**
 * Mileage: the kilometres the claimant already claimed this calendar year place this line's
 * kilometres in the rate's bands; amount = Σ km in each band × its rate, rounded once; `band` names
 * the bands the line spans, joined with "+".
 */
async function mileageAmounts(ctx: ServiceContext, r: Refusals, f: ClaimLineFields, scope: PricingScope): Promise<LineAmounts | undefined> {
  const base = ctx.org.baseCurrency;
  const organizationId = ctx.org.id;
  const q = quantityAndRate(r, f);
  if (!q) return undefined;
  const rate = await findMileageRate(ctx.db, { organizationId, id: q.rateId });
  if (!rate) return void r.add('/rate_id', 'is not a mileage rate of this organization');
  if (!inForce(r, rate, f.expense_date)) return undefined;
  if (!r.check(rate.currency === base, '/rate_id', `the rate is not in the base currency ${base}`)) return undefined;

  const year = f.expense_date.slice(0, 4);
  // Two lines of the same claimant and year are priced one after the other.
  await lockSetupScope(ctx.db, organizationId, `mileage:${scope.claimantMemberId}:${year}`);
  const before = new Dec(
    await claimantMileageKmInYear(ctx.db, { organizationId, memberId: scope.claimantMemberId, year, excludedStates: scope.excludedStates, exceptLineId: scope.lineId }),
  );
  const after = before.plus(q.quantity);
  const bands = [...rate.bands].sort((a, b) => new Dec(a.fromKm).cmp(b.fromKm));
  let total = new Dec(0);
  let covered = new Dec(0);
  const names: string[] = [];
  for (const band of bands) {
    const from = Dec.max(before, band.fromKm);
    const to = band.toKm === null ? after : Dec.min(after, band.toKm);
    if (to.lte(from)) continue;
    total = total.plus(to.minus(from).times(band.ratePerKm));
    covered = covered.plus(to.minus(from));
    names.push(band.band);
  }
  if (!r.check(covered.eq(q.quantity), '/quantity', `the rate's bands do not cover kilometres ${before.toFixed()} to ${after.toFixed()} of the year`)) return undefined;
  const amount = formatAmount(roundAmount(total, base), base);
  return complete({ currency: base, amount, baseAmount: amount, quantity: formatRate(q.quantity), rateId: rate.id, band: names.join('+') });
}

/** Per-diem: days (fractions allowed) × the named band's amount per day, rounded once. */
async function perDiemAmounts(ctx: ServiceContext, r: Refusals, f: ClaimLineFields): Promise<LineAmounts | undefined> {
  const base = ctx.org.baseCurrency;
  const q = quantityAndRate(r, f);
  const bandGiven = r.check(f.band != null, '/band', 'is required on a per-diem line');
  if (!q) return undefined;
  const rate = await findPerDiemRate(ctx.db, { organizationId: ctx.org.id, id: q.rateId });
  if (!rate) return void r.add('/rate_id', 'is not a per-diem rate of this organization');
  if (!inForce(r, rate, f.expense_date)) return undefined;
  if (!r.check(rate.currency === base, '/rate_id', `the rate is not in the base currency ${base}`)) return undefined;
  if (!bandGiven) return undefined;
  const band = rate.bands.find((b) => b.band === f.band);
  if (!band) return void r.add('/band', `is not a band of the rate (${rate.bands.map((b) => b.band).join(', ')})`);
  const amount = formatAmount(roundAmount(new Dec(q.quantity).times(band.amountPerDay), base), base);
  return complete({ currency: base, amount, baseAmount: amount, quantity: formatRate(q.quantity), rateId: rate.id, band: band.band });
}

/**
 * SST borne on a receipt, backed out of the gross and never recovered (it does not reduce the base
 * amount): a given tax_amount from 0 up to the amount; else, with a tax code, amount × rate / (100 +
 * rate) rounded to the line's currency; else 0. The tax code must be an active one of the organization.
 */
export async function lineTax(ctx: ServiceContext, r: Refusals, f: ClaimLineFields, amounts: LineAmounts | undefined): Promise<string> {
  let rate: string | undefined;
  if (f.tax_code_id != null) {
    const [code] = await findTaxCodesByIds(ctx.db, { organizationId: ctx.org.id, ids: [f.tax_code_id] });
    if (r.check(Boolean(code?.active), '/tax_code_id', 'is not an active tax code of this organization')) rate = code!.rate;
  }
  if (!amounts) return '0';
  const gross = new Dec(amounts.amount).abs();
  if (f.tax_amount != null) {
    if (!amountInCurrency(r, f.tax_amount, amounts.currency, '/tax_amount')) return '0';
    r.check(new Dec(f.tax_amount).lte(gross), '/tax_amount', 'must be an amount from 0 up to the line amount');
    return formatAmount(f.tax_amount, amounts.currency);
  }
  if (rate === undefined) return formatAmount('0', amounts.currency);
  return formatAmount(roundAmount(gross.times(rate).div(new Dec(100).plus(rate)), amounts.currency), amounts.currency);
}
