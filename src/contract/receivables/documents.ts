/**
 * The shapes of the receivables document operations: inputs (strict: an unknown field is 400) and the
 * document answer, the one declaration its services' return type is inferred from. Shapes only; no
 * business rule (blank, range, reference checks) lives here.
 */
import { z } from 'zod';
import { SEMANTICS } from '../../domain/workflow';
import { DOCUMENT_KINDS } from '../../domain/receivables';
import { DOCUMENT_LINES_MAX } from '../../domain/line-limits';
import { decimalString } from '../../lib/decimal-string';
import { addressSchema, amountOut, rateOut, transitionDescriptorSchema, uuid, isoDate } from '../fields';

// Input ------------------------------------------------------------------------------------------

const shareInput = z.strictObject({
  analytic_account_id: uuid(),
  percentage: decimalString().describe('Percent of the line on this analytic account; per axis the shares sum to exactly 100'),
});

const lineInput = z
  .strictObject({
    account_id: uuid().optional().describe("Revenue account; defaults to the customer's default revenue account"),
    classification_code: z.string().optional().describe('MyInvois classification code 001 to 045; 022 (Others) by default'),
    description: z.string(),
    discount_amount: decimalString().optional().describe('Amount off the line, in the document currency; "0" by default'),
    quantity: decimalString().describe('Positive, up to 10 places; in base units when trade_line_id is set'),
    unit_price: decimalString().describe("Price of one unit, up to 6 decimal places whatever the currency (RM 2.055 a litre); the line's net amount is rounded to the currency"),
    unit_code: z.string().optional().describe('UN/ECE Recommendation 20 unit code'),
    tax_code_id: uuid().optional().describe("Defaults to the customer's default tax code"),
    tax_exemption_reason: z.string().optional().describe('Required for an exempt tax code (tax type E), refused otherwise'),
    trade_line_id: uuid().optional().describe('A delivery line (invoice, debit note) or sales return line (credit note) of this customer'),
    shares: z.array(shareInput).optional(),
  })
  .meta({ id: 'DocumentLineInput' });

export const createInvoiceInput = z
  .strictObject({
    kind: z.enum(DOCUMENT_KINDS),
    customer_id: uuid(),
    currency: z.string().optional().describe("ISO 4217 code; the customer's currency by default"),
    fx_rate: decimalString().optional().describe('Base-currency units per one unit of currency; required when currency is not the base currency, "1" otherwise'),
    customer_reference: z.string().optional(),
    payment_terms_days: z
      .int()
      .pipe(z.int().min(0).max(365))
      .optional()
      .describe("When absent, the customer's own terms apply"),
    reason: z.string().optional().describe("A credit note's reason (required there); refused on a sales invoice"),
    original_invoice_id: uuid().optional().describe('The issued invoice a credit note credits (required there); refused on a sales invoice'),
    attachment_ids: z.array(uuid()).optional().describe('Documents the caller uploaded with POST /documents, attached in the same step'),
    custom_fields: z.record(z.string(), z.string()).optional(),
    lines: z
      .array(lineInput)
      .min(1)
      .max(DOCUMENT_LINES_MAX, { message: `at most ${DOCUMENT_LINES_MAX} lines per document` })
      .describe(`1 to ${DOCUMENT_LINES_MAX} lines`),
  })
  .meta({ id: 'CreateReceivablesDocument' });

/**
 * A draft's change: any create field but kind and attachment_ids (sending either is 400, as any field
 * the operation does not accept); fields left out stay as they are, lines and custom_fields are
 * replaced whole.
 */
export const updateInvoiceInput = createInvoiceInput
  .omit({ kind: true, attachment_ids: true })
  .partial()
  .extend({ id: uuid().describe('The draft receivables document') })
  .meta({ id: 'UpdateReceivablesDocument' });

export const addAttachmentsInput = z.strictObject({
  id: uuid().describe('The receivables document'),
  attachment_ids: z.array(uuid()).min(1).max(50).describe('Documents the caller uploaded with POST /documents'),
});

// Output -----------------------------------------------------------------------------------------

const frozenAddress = addressSchema.extend({ country_code: z.string().nullable() }).meta({ id: 'FrozenAddress' });

const buyerSchema = z
  .object({
    name: z.string(),
    address: frozenAddress,
    email: z.string().nullable(),
    phone: z.string().nullable(),
    registration_no: z.string().nullable(),
    registration_type: z.string().nullable(),
    sst_no: z.string().nullable(),
    tin: z.string().nullable(),
  })
  .meta({ id: 'Buyer' });

const sellerSchema = z
  .object({
    name: z.string(),
    address: frozenAddress,
    msic: z.string().nullable(),
    registration_no: z.string().nullable(),
    sst_no: z.string().nullable(),
    tin: z.string().nullable(),
  })
  .meta({ id: 'Seller' });

const lineSchema = z
  .object({
    id: uuid(),
    line_no: z.int(),
    account_id: uuid(),
    classification_code: z.string(),
    description: z.string(),
    unit_code: z.string().nullable(),
    quantity: rateOut(),
    unit_price: z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .describe("As given, with at least the currency's minor units and at most 6 places (\"120.50\", \"2.055\")"),
    discount_amount: amountOut(),
    net_amount: amountOut(),
    net_base: amountOut(),
    tax_amount: amountOut(),
    tax_base: amountOut(),
    tax_code: z.string(),
    tax_code_id: uuid(),
    tax_pack_kind: z.string(),
    tax_rate: rateOut(),
    tax_exemption_reason: z.string().nullable(),
    trade_line_id: uuid().nullable(),
    shares: z.array(z.object({ analytic_account_id: uuid(), percentage: rateOut() })),
  })
  .meta({ id: 'DocumentLine' });

const allocationSchema = z
  .object({
    id: uuid(),
    invoice_id: uuid(),
    created_by: uuid(),
    amount: amountOut(),
    base_amount: amountOut(),
    currency: z.string(),
    effective_on: isoDate(),
    created_at: z.iso.datetime({ offset: true }),
    source_kind: z.enum(['receipt', 'credit_note']),
    receipt_id: uuid().nullable(),
    credit_note_id: uuid().nullable(),
    reverses_id: uuid().nullable(),
    reversed_by_id: uuid().nullable(),
  })
  .meta({ id: 'Allocation' });

const timelineEntrySchema = z
  .object({
    action_key: z.string(),
    actor_member_id: uuid(),
    decided_at: z.iso.datetime({ offset: true }),
    from: z.string(),
    to: z.string(),
    reason: z.string(),
  })
  .meta({ id: 'TimelineEntry' });

export const documentSchema = z
  .object({
    id: uuid(),
    kind: z.enum(DOCUMENT_KINDS),
    state: z.string(),
    semantic: z.enum(SEMANTICS),
    revision: z.int(),
    reference: z.string().nullable().describe('Null on a draft; the document number once issued'),
    customer_id: uuid(),
    customer_reference: z.string(),
    currency: z.string(),
    fx_rate: rateOut(),
    invoice_date: isoDate().describe('The day of preparation while a draft (drafts are left out of invoice-date filters), the day of issue once issued'),
    due_on: isoDate(),
    payment_terms_days: z.int(),
    created_at: z.iso.datetime({ offset: true }),
    issued_at: z.iso.datetime({ offset: true }).nullable(),
    updated_at: z.iso
      .datetime({ offset: true })
      .describe('When the document last changed (state, revision, lines and totals, outstanding); the list orders and filters on it (updated_after)'),
    prepared_by: uuid(),
    reason: z.string().nullable(),
    original_invoice_id: uuid().nullable(),
    original_total: amountOut().optional(),
    legacy_reference: z.string().nullable().optional(),
    is_opening: z.boolean().optional(),
    is_group_transaction: z.boolean(),
    multiple_projects: z.boolean(),
    project: z.object({ code: z.string(), id: uuid(), name: z.string() }).nullable(),
    custom_fields: z.record(z.string(), z.string()).optional(),
    net_total: amountOut(),
    tax_total: amountOut(),
    gross_amount: amountOut(),
    gross_base: amountOut(),
    outstanding: amountOut(),
    outstanding_base: amountOut(),
    buyer: buyerSchema.nullable(),
    seller: sellerSchema.nullable(),
    lines: z.array(lineSchema),
    allocations: z.array(allocationSchema),
    attachment_ids: z.array(uuid()),
    available_transitions: z.array(transitionDescriptorSchema),
    timeline: z.array(timelineEntrySchema),
  })
  .meta({ id: 'ReceivablesDocument' });

/** The answer of create, get and every document mutation: the services' return type is inferred from this one schema. */
export type DocumentView = z.output<typeof documentSchema>;

// Preview ----------------------------------------------------------------------------------------

/** A draft as the editor holds it, priced without being saved: create's fields but the attachments and custom fields. */
export const previewInvoiceInput = createInvoiceInput.omit({ attachment_ids: true, custom_fields: true }).meta({ id: 'PreviewReceivablesDocument' });

export const documentPreviewSchema = z
  .object({
    currency: z.string(),
    base_currency: z.string().describe("The organization's base currency, which gross_base is in"),
    fx_rate: rateOut(),
    payment_terms_days: z.int(),
    lines: z
      .array(z.object({ net_amount: amountOut(), tax_amount: amountOut(), tax_rate: rateOut(), tax_code: z.string() }).nullable())
      .describe('Each line priced as create would, in the order given; null for a line a rule refuses (its faults are in errors)'),
    net_total: amountOut().describe('Of the lines priced'),
    tax_total: amountOut(),
    gross_amount: amountOut(),
    gross_base: amountOut(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).describe('What create would refuse now, a pointer per field'),
  })
  .meta({ id: 'ReceivablesDocumentPreview' });
