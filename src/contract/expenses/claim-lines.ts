/**
 * The shapes of the claim line operations (add, change, withdraw): strict inputs (an unknown field or
 * a wrong type is 400). Shapes only; every rule (blank, too long, amounts, rates, document basis) is
 * the service's 422. The answer is the claim answer of contract 2.4 (../schemas.ts).
 */
import { z } from 'zod';
import { CLAIM_LINE_TYPES, DOCUMENT_BASES } from '../../domain/expenses';
import { decimalString } from '../../lib/money';
import { uuid } from '../fields';

const shareInput = z.strictObject({
  analytic_account_id: uuid(),
  percentage: decimalString().describe('Percent of the line on this analytic account; per axis the shares sum to exactly 100'),
});

/** Every field of a line but its type; absent and null mean the same when adding. */
const lineFields = {
  // The one date left to its service: the claim rules refuse a day before 1900 or after today as a
  // 422 collected with the line's other faults (the shared isoDate's bounds would be a lone 400).
  expense_date: z.iso.date().describe('YYYY-MM-DD; not after the organization’s today, not before 1900'),
  category_id: uuid().describe('An active expense category'),
  description: z.string().describe('1 to 500 characters'),
  currency: z.string().nullable().optional().describe('receipt: ISO 4217 code of what was spent; the base currency when absent. Other types are in the base currency'),
  amount: decimalString().nullable().optional().describe('receipt: what was spent, SST included, > 0, at most the currency’s places; advance_offset: the advance settled (> 0, stored negative)'),
  fx_rate: decimalString()
    .nullable()
    .optional()
    .describe('receipt in a foreign currency: overrides the organization’s reference rate on the expense date (with fx_rate_reason); fx_rate_source becomes override'),
  fx_rate_reason: z.string().nullable().optional().describe('Why the reference rate is overridden: 1 to 500 characters, required with fx_rate'),
  bank_charged_amount: decimalString()
    .nullable()
    .optional()
    .describe('receipt in a foreign currency: the base-currency figure the bank charged; reimbursed exactly (fx_rate_source bank_statement, reimbursement_basis bank_charged)'),
  quantity: decimalString().nullable().optional().describe('mileage: kilometres; per_diem: days (0.5 for half a day); > 0'),
  rate_id: uuid().nullable().optional().describe('mileage or per_diem: a rate of that kind in force on the expense date'),
  band: z.string().nullable().optional().describe('per_diem: one of the rate’s bands. Mileage bands are computed (cumulative over the claimant’s calendar year)'),
  tax_amount: decimalString()
    .nullable()
    .optional()
    .describe('receipt: SST borne, included in amount (0 up to amount); with tax_code_id and no tax_amount it is backed out: amount × rate / (100 + rate)'),
  tax_code_id: uuid().nullable().optional().describe('receipt: an active tax code of the organization'),
  supplier_name: z.string().nullable().optional().describe('At most 200 characters'),
  supplier_tin: z.string().nullable().optional().describe('At most 20 characters'),
  supplier_country: z.string().nullable().optional().describe('ISO 3166-1 alpha-2 of the supplier (a foreign supplier on a MYR line names one other than MY)'),
  document_basis: z
    .enum(DOCUMENT_BASES)
    .nullable()
    .optional()
    .describe('Required on a receipt; mileage, per_diem and advance_offset default to relaxation_receipt with a generated reason'),
  einvoice_uuid: z.string().nullable().optional().describe('The MyInvois document UUID (26 letters and digits); required with einvoice_company and einvoice_employee'),
  relaxation_reason: z.string().nullable().optional().describe('1 to 500 characters; required with relaxation_receipt'),
  shares: z.array(shareInput).max(50).optional().describe('Active analytic accounts; per axis the percentages sum to exactly 100'),
  documents: z.array(uuid()).max(20).optional().describe('Documents the caller uploaded with POST /documents, supporting the line'),
};

export const addClaimLineInput = z
  .strictObject({
    id: uuid().describe('The claim'),
    type: z.enum(CLAIM_LINE_TYPES),
    ...lineFields,
  })
  .meta({ id: 'AddClaimLine' });

export const updateClaimLineInput = z
  .strictObject({
    id: uuid().describe('The claim'),
    line_id: uuid().describe('The line'),
    ...lineFields,
    expense_date: lineFields.expense_date.optional(),
    category_id: lineFields.category_id.optional(),
    description: lineFields.description.optional(),
  })
  .meta({ id: 'UpdateClaimLine' });

export const withdrawClaimLineInput = z.strictObject({
  id: uuid().describe('The claim'),
  line_id: uuid().describe('The line'),
});
