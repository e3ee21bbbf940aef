/**
 * The shapes of the claim operations: the filing input (strict) and the claim answer of contract 2.4,
 * the one declaration its services' return type is inferred from. Shapes only; no rule lives here.
 */
import { z } from 'zod';
import { SIGNATURE_VIAS } from '../../domain/approvals';
import { CLAIM_LINE_TYPES, FX_RATE_SOURCES, REIMBURSEMENT_BASES, DOCUMENT_BASES, DECISION_VIAS } from '../../domain/expenses';
import { SEMANTICS } from '../../domain/workflow';
import { amountOut, gapSchema, rateOut, transitionDescriptorSchema, uuid, isoDate } from '../fields';

export const createClaimInput = z.strictObject({
  // Blank, over-long (code points) and script rules are checked by the service: 422, not 400.
  title: z.string().describe('1 to 200 characters, in the scripts of the organization\'s record languages'),
  group_id: uuid().nullable().optional().describe('A claim group of the organization that is not retired'),
  payout_channel_id: uuid().nullable().optional().describe('One of your own active payout channels (the payer may override it)'),
});

const amount = () => amountOut().describe('Decimal amount');
const rate = () => rateOut().describe('Decimal rate');
const dateTime = () => z.iso.datetime({ offset: true }).describe('ISO 8601 date-time (UTC)');

const shareSchema = z.object({ analytic_account_id: uuid(), percentage: rate() });

export const claimLineSchema = z
  .object({
    id: uuid(),
    line_no: z.int(),
    type: z.enum(CLAIM_LINE_TYPES),
    withdrawn: z.boolean(),
    expense_date: isoDate(),
    category_id: uuid(),
    description: z.string(),
    currency: z.string().length(3),
    amount: amount(),
    base_amount: amount(),
    fx_rate: rate(),
    fx_rate_source: z.enum(FX_RATE_SOURCES),
    reimbursement_basis: z.enum(REIMBURSEMENT_BASES),
    quantity: rate(),
    rate_id: uuid().nullable(),
    band: z.string().nullable(),
    tax_amount: amount(),
    tax_code_id: uuid().nullable(),
    supplier_name: z.string().nullable(),
    supplier_tin: z.string().nullable(),
    document_basis: z.enum(DOCUMENT_BASES),
    einvoice_uuid: z.string().nullable(),
    einvoice_validated_at: dateTime().nullable(),
    relaxation_reason: z.string().nullable(),
    documents: z.array(uuid()),
    possible_duplicate: z.boolean(),
    duplicate_claim_references: z.array(z.string()),
    shares: z.array(shareSchema),
  })
  .meta({ id: 'ClaimLine' });

export const claimSchema = z
  .object({
    id: uuid(),
    reference: z.string(),
    title: z.string(),
    claimant_member_id: uuid(),
    claimant_unit_name: z.string().nullable(),
    group_id: uuid().nullable(),
    payout_channel_id: uuid().nullable(),
    currency: z.string().length(3),
    state: z.string(),
    semantic: z.enum(SEMANTICS),
    revision: z.int(),
    total: amount(),
    original_currency: z.string().length(3).nullable(),
    original_total: amount().nullable(),
    multiple_currencies: z.boolean(),
    merchant: z.string().nullable(),
    category_ids: z.array(uuid()),
    project_names: z.array(z.string()),
    created_at: dateTime(),
    submitted_at: dateTime().nullable(),
    your_share: amount().optional(),
  })
  .meta({ id: 'Claim' });

const decisionSchema = z
  .object({
    actor_member_id: uuid(),
    authority_member_id: uuid(),
    decided_at: dateTime(),
    from: z.string(),
    to: z.string(),
    reason: z.string(),
    via: z.enum(DECISION_VIAS),
  })
  .meta({ id: 'ClaimDecision' });

const settlementSchema = z
  .object({
    id: uuid(),
    channel_id: uuid(),
    channel_key: z.string(),
    channel_name: z.string(),
    amount: amount(),
    currency: z.string().length(3),
    settled_at: dateTime(),
    settled_by: uuid(),
    proof_document_id: uuid().nullable(),
    account_tail: z.string().nullable(),
    fields: z.array(
      z.object({ key: z.string(), label: z.object({ en: z.string(), ms: z.string(), zh: z.string().optional() }), display: z.string().describe('The masked form') }),
    ),
  })
  .meta({ id: 'ClaimSettlement' });

const signoffSchema = z
  .object({
    account_code: z.string(),
    account_name: z.string(),
    amount: amount(),
    analytic_account_id: uuid(),
    axis_id: uuid(),
    currency: z.string(),
    eligible: z.array(z.string()),
    gap: gapSchema.optional(),
    signed: z
      .object({
        id: uuid(),
        actor_member_id: uuid(),
        authority_member_id: uuid(),
        axis_id: uuid(),
        analytic_account_id: uuid(),
        amount: amount(),
        decided_at: dateTime(),
        state: z.string(),
        via: z.enum(SIGNATURE_VIAS),
        approver_assignment_id: uuid().nullable(),
      })
      .optional(),
    state: z.string(),
  })
  .meta({ id: 'ClaimSignoff' });

export const claimAnswerSchema = z
  .object({
    claim: claimSchema,
    lines: z.array(claimLineSchema),
    decisions: z.array(decisionSchema),
    settlements: z.array(settlementSchema).describe('Newest first; masked'),
    signoffs: z.array(signoffSchema),
    available_transitions: z.array(transitionDescriptorSchema),
  })
  .meta({ id: 'ClaimAnswer' });

/** The claim answer (contract 2.4): the services' return type is inferred from this one schema. */
export type ClaimAnswer = z.output<typeof claimAnswerSchema>;
