/**
 * A draft's totals before it is saved (receivables.invoices.preview): the very steps create and
 * update run (checkHeader, lineReferences, checkLine, documentTotals, checkCreditLeft), without
 * writing anything. A line refused by a rule is left unpriced and its faults are answered beside the
 * totals of the lines that hold, so a person typing sees both at once.
 */
import type { FieldError } from '../../lib/errors';
import { AppError } from '../../lib/errors';
import { formatAmount, formatRate } from '../../lib/money';
import { Refusals } from '../../lib/refusals';
import type Decimal from 'decimal.js';
import type { ServiceContext } from '../context';
import { checkCreditLeft, checkHeader, checkLineCount, documentTotals, lineReferences, checkLine, type CheckedLine, type PrepareDocumentInput } from './prepare-document';

export interface DocumentPreview {
  currency: string;
  base_currency: string;
  fx_rate: string;
  payment_terms_days: number;
  lines: ({ net_amount: string; tax_amount: string; tax_rate: string; tax_code: string } | null)[];
  net_total: string;
  tax_total: string;
  gross_amount: string;
  gross_base: string;
  errors: FieldError[];
}

export async function previewDocument(ctx: ServiceContext, input: Omit<PrepareDocumentInput, 'attachment_ids' | 'custom_fields'>): Promise<DocumentPreview> {
  checkLineCount(input.lines);
  const r = new Refusals();
  const header = await checkHeader(ctx, input, r);
  const refs = await lineReferences(ctx, input.lines, header.customer);
  const tradeTaken = new Map<string, Decimal>();
  const checked = input.lines.map((line, i) => checkLine(r, line, i, { kind: input.kind, header, refs, tradeTaken, baseCurrency: ctx.org.baseCurrency }));
  const priced = checked.filter((c): c is CheckedLine => c !== undefined);
  const totals = documentTotals(r, priced);
  if (priced.length === input.lines.length && r.empty) {
    try {
      await checkCreditLeft(ctx, input.kind, header, totals);
    } catch (error) {
      if (!(error instanceof AppError) || !error.fieldErrors) throw error;
      for (const e of error.fieldErrors) r.add(e.pointer, e.detail);
    }
  }
  const cur = header.currencyKnown ? header.currency : ctx.org.baseCurrency;
  const base = ctx.org.baseCurrency;
  return {
    currency: header.currency,
    base_currency: base,
    fx_rate: formatRate(header.fxRate),
    payment_terms_days: header.paymentTermsDays,
    lines: checked.map((c) =>
      c ? { net_amount: formatAmount(c.priced.net_amount, cur), tax_amount: formatAmount(c.priced.tax_amount, cur), tax_rate: formatRate(c.tax.rate), tax_code: c.tax.code } : null,
    ),
    net_total: formatAmount(totals.net_total, cur),
    tax_total: formatAmount(totals.tax_total, cur),
    gross_amount: formatAmount(totals.gross_amount, cur),
    gross_base: formatAmount(totals.gross_base, base),
    errors: [...r.faults],
  };
}
