/**
 * Receivables reports as at a day (read only): the ageing per customer and currency, and the
 * collection figures (outstanding, overdue, collected, DSO by countback). Both are rebuilt from the
 * documents dated and the receipts received on or before the day and the allocations effective on or
 * before it, never from today's balances, so a past day answers what the books said then.
 *
 * Credits (credit notes not yet applied, receipts not yet allocated) count against the customer, as
 * negative amounts aged from their own date. A day after the organization's today is refused: the
 * books of a day that has not come are not known.
 */
import { ageingAsAt, balancesAsAt, collectedBetween, salesByWindow, type AgeingRow } from '../../db/queries/receivables-reports';
import { ageingBucketKeys, type AgeingReport, type ReceivablesFigures } from '../../contract/receivables/reports';
import { addDays } from '../../lib/dates';
import { Dec, formatAmount } from '../../lib/money';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { cachedWorkflow } from '../org-config-cache';
import { ageingEdges } from './ageing-settings';
import { SETTLEABLE } from './allocations';

async function settleableStates(ctx: ServiceContext): Promise<string[]> {
  const def = await cachedWorkflow(ctx, 'receivable_document');
  return def.states.filter((s) => SETTLEABLE.has(s.semantic)).map((s) => s.key);
}

function refuseFuture(ctx: ServiceContext, r: Refusals, asOf: string) {
  r.check(asOf <= ctx.today, '/query/as_of', `is after the organization's today (${ctx.today}): a report is as at a day that has come`);
}

export interface AgeingInput {
  as_of: string;
  group?: 'only' | 'none' | undefined;
}

/** The ageing as at a day: one line per customer and currency with anything open then. */
export async function ageingReport(ctx: ServiceContext, input: AgeingInput): Promise<AgeingReport> {
  const r = new Refusals();
  refuseFuture(ctx, r, input.as_of);
  r.throwIfAny();
  const edges = await ageingEdges(ctx);
  const rows = await ageingAsAt(ctx.db, { ...asAtQuery(ctx, input.as_of), states: await settleableStates(ctx), edges, group: input.group });
  return ageingView(ctx.org.baseCurrency, input.as_of, edges, rows);
}

function asAtQuery(ctx: ServiceContext, asOf: string) {
  return { organizationId: ctx.org.id, asOf, timeZone: ctx.org.timeZone };
}

/**
 * One row per report line (ordered by customer then currency) with its sum per bucket; the sums come
 * with the rows (a line's, each bucket's, the report's), so nothing is added here.
 */
export function ageingView(baseCurrency: string, asOf: string, edges: readonly number[], rows: readonly AgeingRow[]): AgeingReport {
  const keys = ageingBucketKeys(edges);
  const sums = (each: readonly (string | null)[] | undefined) => (each ?? []).map((v) => v ?? '0');
  const bucketsBase = sums(rows[0]?.bucket_base);
  const customers = rows.map((row, _, __, amounts = sums(row.amounts)) => ({
    customer_id: row.customer_id,
    code: row.code,
    legal_name: row.legal_name,
    is_group_company: Boolean(row.is_group_company),
    currency: row.currency,
    buckets: Object.fromEntries(keys.map((k, i) => [k, formatAmount(amounts[i] ?? '0', row.currency)])),
    total: formatAmount(row.line_amount, row.currency),
    total_base: formatAmount(row.line_base, baseCurrency),
  }));
  return {
    as_of: asOf,
    base_currency: baseCurrency,
    edges: [...edges],
    bucket_keys: keys,
    customers,
    totals_base: Object.fromEntries(keys.map((k, i) => [k, formatAmount(bucketsBase[i] ?? '0', baseCurrency)])),
    total_base: formatAmount(rows[0]?.total_base ?? '0', baseCurrency),
  };
}

/** The CSV columns, in order (README "Receivables reports"): the bucket keys as the report names them. */
export function ageingCsvColumns(bucketKeys: readonly string[]): string[] {
  return ['customer_code', 'legal_name', 'is_group_company', 'currency', ...bucketKeys, 'total', 'total_base', 'base_currency'];
}

/** A field as RFC 4180 writes it; a leading =, +, - or @ of text is escaped so spreadsheets never run it as a formula. */
function csvField(value: string, text: boolean): string {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The ageing as CSV: a header line, one line per customer and currency, then a TOTAL line of total_base. */
export function ageingCsv(report: AgeingReport): string {
  const keys = report.bucket_keys;
  const lines = [ageingCsvColumns(keys).join(',')];
  for (const c of report.customers) {
    const fields = [csvField(c.code, true), csvField(c.legal_name, true), String(c.is_group_company), c.currency, ...keys.map((k) => c.buckets[k]!), c.total, c.total_base, report.base_currency];
    lines.push(fields.join(','));
  }
  lines.push(['TOTAL', '', '', '', ...keys.map(() => ''), '', report.total_base, report.base_currency].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const DSO_PERIOD_DAYS = 30;
const DSO_PERIODS = 3;

export interface CountbackPeriod {
  from: string;
  to: string;
  sales_base: string;
  days_counted: string;
}

/**
 * DSO by countback: the receivables are used up by the sales of each 30-day period counted back from
 * the day, newest first; a period whose sales the receivables exceed (or equal, or that sold
 * nothing) counts whole (30 days), the one that uses them up counts the fraction receivables left /
 * its sales. What is left after the
 * 90 days is counted at the 90 days' average daily sales. No sales in the 90 days with something
 * owed: no figure (null). Days to two places, rounded half up.
 */
export function countback(receivables: Dec, sales: readonly { from: string; to: string; sales: Dec }[]): { days: string | null; periods: CountbackPeriod[] } {
  let left = receivables;
  let days = new Dec(0);
  const periods: CountbackPeriod[] = [];
  for (const p of sales) {
    let counted = new Dec(0);
    if (left.gt(0)) {
      // A period with no sales (or more credited than sold) uses up nothing and counts whole.
      counted = left.gte(p.sales) ? new Dec(DSO_PERIOD_DAYS) : left.div(p.sales).times(DSO_PERIOD_DAYS);
      left = left.minus(Dec.max(Dec.min(left, p.sales), 0));
    }
    days = days.plus(counted);
    periods.push({ from: p.from, to: p.to, sales_base: p.sales.toFixed(2), days_counted: counted.toFixed(2) });
  }
  if (left.gt(0)) {
    const total = sales.reduce((s, p) => s.plus(p.sales), new Dec(0));
    if (total.lte(0)) return { days: null, periods };
    days = days.plus(left.div(total.div(DSO_PERIOD_DAYS * sales.length)));
  }
  return { days: days.toFixed(2), periods };
}

export interface FiguresInput {
  as_of: string;
  from?: string | undefined;
}

/** Outstanding, credits, overdue, collected in a period and DSO as at a day, in base. */
export async function receivablesFigures(ctx: ServiceContext, input: FiguresInput): Promise<ReceivablesFigures> {
  const r = new Refusals();
  refuseFuture(ctx, r, input.as_of);
  const from = input.from ?? addDays(input.as_of, -(DSO_PERIOD_DAYS * DSO_PERIODS - 1));
  r.check(from <= input.as_of, '/query/from', 'is after as_of');
  r.throwIfAny();
  const base = ctx.org.baseCurrency;
  const q = { ...asAtQuery(ctx, input.as_of), states: await settleableStates(ctx) };
  const balances = await balancesAsAt(ctx.db, q);
  const byWindow = await salesByWindow(ctx.db, { ...q, days: DSO_PERIOD_DAYS, windows: DSO_PERIODS });
  const sales = Array.from({ length: DSO_PERIODS }, (_, w) => ({
    from: addDays(input.as_of, -(DSO_PERIOD_DAYS * (w + 1) - 1)),
    to: addDays(input.as_of, -DSO_PERIOD_DAYS * w),
    sales: new Dec(byWindow.get(w) ?? '0'),
  }));
  const receivables = new Dec(balances.net);
  const dso = countback(receivables, sales);
  const collected = await collectedBetween(ctx.db, { organizationId: ctx.org.id, from, to: input.as_of });
  return {
    as_of: input.as_of,
    base_currency: base,
    outstanding_base: formatAmount(balances.owed, base),
    credits_base: formatAmount(new Dec(balances.owed).minus(balances.net), base),
    overdue_base: formatAmount(balances.overdue, base),
    collected: { from, to: input.as_of, amount_base: formatAmount(collected, base) },
    dso: {
      days: dso.days,
      receivables_base: formatAmount(receivables, base),
      periods: dso.periods.map((p) => ({ ...p, sales_base: formatAmount(p.sales_base, base) })),
    },
  };
}
