import { z } from 'zod';
import type { InvoiceAnswer, PreviewInput } from './invoice-api';

/**
 * The draft editor's values: every field as the person types it (text; blank for "the customer's
 * default"), named as the procedure's input names them, so the server's pointers land on the fields
 * (`/lines/1/unit_price` → lines.1.unit_price). `toInput` turns them into the create/update input.
 */
const share = z.object({ analytic_account_id: z.string(), percentage: z.string() });
const line = z.object({
  description: z.string(),
  account_id: z.string(),
  tax_code_id: z.string(),
  tax_exemption_reason: z.string(),
  classification_code: z.string(),
  unit_code: z.string(),
  quantity: z.string(),
  unit_price: z.string(),
  discount_amount: z.string(),
  shares: z.array(share),
});
export const editorSchema = z.object({
  kind: z.enum(['sales_invoice', 'customer_credit_note', 'customer_debit_note']),
  customer_id: z.string().min(1, { message: 'required' }),
  currency: z.string(),
  fx_rate: z.string(),
  customer_reference: z.string(),
  payment_terms_days: z.string(),
  reason: z.string(),
  original_invoice_id: z.string(),
  lines: z.array(line).min(1),
});
export type EditorValues = z.infer<typeof editorSchema>;
export type EditorLine = EditorValues['lines'][number];

export const emptyLine = (): EditorLine => ({
  description: '',
  account_id: '',
  tax_code_id: '',
  tax_exemption_reason: '',
  classification_code: '',
  unit_code: '',
  quantity: '1',
  unit_price: '',
  discount_amount: '',
  shares: [],
});

/** A draft's values for the editor. */
export function valuesOf(doc: InvoiceAnswer): EditorValues {
  return {
    kind: doc.kind,
    customer_id: doc.customer_id,
    currency: doc.currency,
    fx_rate: doc.fx_rate,
    customer_reference: doc.customer_reference,
    payment_terms_days: String(doc.payment_terms_days),
    reason: doc.reason ?? '',
    original_invoice_id: doc.original_invoice_id ?? '',
    lines: doc.lines.map((l) => ({
      description: l.description,
      account_id: l.account_id,
      tax_code_id: l.tax_code_id,
      tax_exemption_reason: l.tax_exemption_reason ?? '',
      classification_code: l.classification_code,
      unit_code: l.unit_code ?? '',
      quantity: l.quantity,
      unit_price: l.unit_price,
      discount_amount: l.discount_amount === '0' || /^0(\.0+)?$/.test(l.discount_amount) ? '' : l.discount_amount,
      shares: l.shares.map((s) => ({ analytic_account_id: s.analytic_account_id, percentage: s.percentage })),
    })),
  };
}

const text = (v: string) => (v.trim() === '' ? undefined : v.trim());

/** The create input (kind included) the values make: blanks left out, so the customer's defaults apply. */
export function toInput(v: EditorValues): PreviewInput {
  const terms = text(v.payment_terms_days);
  const input: Record<string, unknown> = {
    kind: v.kind,
    customer_id: v.customer_id,
    currency: text(v.currency)?.toUpperCase(),
    fx_rate: text(v.fx_rate),
    customer_reference: text(v.customer_reference),
    payment_terms_days: terms !== undefined && /^\d+$/.test(terms) ? Number(terms) : terms,
    reason: v.kind === 'sales_invoice' ? undefined : v.reason,
    original_invoice_id: v.kind === 'sales_invoice' ? undefined : text(v.original_invoice_id),
    lines: v.lines.map((l) => ({
      description: l.description,
      account_id: text(l.account_id),
      tax_code_id: text(l.tax_code_id),
      tax_exemption_reason: text(l.tax_exemption_reason),
      classification_code: text(l.classification_code),
      unit_code: text(l.unit_code)?.toUpperCase(),
      quantity: l.quantity.trim(),
      unit_price: l.unit_price.trim(),
      discount_amount: text(l.discount_amount),
      shares: l.shares.length ? l.shares.map((s) => ({ analytic_account_id: s.analytic_account_id, percentage: s.percentage.trim() })) : undefined,
    })),
  };
  return JSON.parse(JSON.stringify(input)) as PreviewInput;
}
