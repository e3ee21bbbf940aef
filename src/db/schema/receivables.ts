
import {
  bigserial,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { customers } from './customers';
import { members, organizations } from './organizations';
import { accounts, analyticAccounts, analyticAxes, taxCodes, tradeLines } from './reference-data';

/** Amounts: enough places for any ISO 4217 minor unit (at most 4); formatted to the currency on output. */
const amount = (name: string) => numeric(name, { precision: 20, scale: 4 });
/** Rates, quantities and percentages: up to 10 places (contract section 8). */
const rate = (name: string) => numeric(name, { precision: 24, scale: 10 });

import { DOCUMENT_KINDS, RECEIPT_METHODS } from '../../domain/receivables';
export { DOCUMENT_KINDS };
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export interface FrozenAddress {
  line1?: string;
  line2?: string;
  city?: string;
  postcode?: string;
  state?: string;
  country_code: string | null;
}

export interface FrozenBuyer {
  name: string;
  address: FrozenAddress;
  email: string | null;
  phone: string | null;
  registration_no: string | null;
  registration_type: string | null;
  sst_no: string | null;
  tin: string | null;
}

export interface FrozenSeller {
  name: string;
  address: FrozenAddress;
  msic: string | null;
  registration_no: string | null;
  sst_no: string | null;
  tin: string | null;
  /** Frozen for the e-invoice since issue 12 (absent on documents issued before). */
  tourism_tax_no?: string | null;
  business_activity?: string | null;
  phone?: string | null;
  email?: string | null;
}

/**
 * Header of a sales invoice, customer credit note or customer debit note. Built for listing: the
 * totals, the outstanding balance (kept up to date whenever an allocation is written) and the
 * project summary (computed when the lines are priced) live here, so a page of a list needs no
 * per-row query. The semantic is not stored: it is the stored workflow's semantic of `state`.
 */
export const receivableDocuments = pgTable(
  'receivable_documents',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    state: text('state').notNull(),
    revision: integer('revision').notNull().default(1),
    /** The document number; null until issued. */
    reference: text('reference'),
    customerId: uuid('customer_id').notNull(),
    customerReference: text('customer_reference').notNull().default(''),
    currency: text('currency').notNull(),
    fxRate: rate('fx_rate').notNull(),
    invoiceDate: date('invoice_date', { mode: 'string' }).notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    paymentTermsDays: integer('payment_terms_days').notNull(),
    preparedBy: uuid('prepared_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    /**
     * When the row last changed: never before the start of the writing transaction (on insert, not
     * before created_at), set by a database trigger on insert and on every update that changes a
     * column other than search_text (migration document-list-filters).
     */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    reason: text('reason'),
    originalInvoiceId: uuid('original_invoice_id'),
    originalTotal: amount('original_total'),
    legacyReference: text('legacy_reference'),
    isOpening: boolean('is_opening').notNull().default(false),
    buyer: jsonb('buyer').$type<FrozenBuyer>(),
    seller: jsonb('seller').$type<FrozenSeller>(),
    customFields: jsonb('custom_fields').$type<Record<string, string>>().notNull().default({}),
    netTotal: amount('net_total').notNull(),
    taxTotal: amount('tax_total').notNull(),
    grossAmount: amount('gross_amount').notNull(),
    grossBase: amount('gross_base').notNull(),
    outstanding: amount('outstanding').notNull(),
    outstandingBase: amount('outstanding_base').notNull(),
    /** The one project all project-charged lines share; null when none or several. */
    projectId: uuid('project_id'),
    multipleProjects: boolean('multiple_projects').notNull().default(false),
    /**
     * Reference, customer reference and the customer's current legal name joined by U+001F, kept by
     * database triggers (migration receivables-list-search). The list's `q` no longer reads it (since
     * migration list-1m it searches the references by their own indexes and names in customers).
     */
    searchText: text('search_text').notNull().default(''),
    /**
     * When the document last changed state after it was issued (a dispute, a resolution, a
     * cancellation, LHDN's answer): the newest such decided_at on its timeline; null when nothing
     * moved it since its issue (issuing itself is dated by issued_at), or for a draft. Written with
     * the state by every transition of an issued document (filled from the timeline by migration
     * document-state-changed-at). The reports as at a day read the timeline only for the documents
     * issued by the day that changed state since: the others were then in the state they are in now.
     */
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('receivable_documents_org_reference').on(t.organizationId, t.reference),
    index('receivable_documents_org_created').on(t.organizationId, t.createdAt, t.id),
    index('receivable_documents_org_kind_created').on(t.organizationId, t.kind, t.createdAt, t.id),
    // Keyset pagination of the list: one (organization, sort key, id) index per sort.
    index('receivable_documents_org_invoice_date').on(t.organizationId, t.invoiceDate, t.id),
    index('receivable_documents_org_due_on').on(t.organizationId, t.dueOn, t.id),
    index('receivable_documents_org_gross').on(t.organizationId, t.grossAmount, t.id),
    // Drafts (no reference) sort last in both directions: (is null, reference, id) ascending and
    // (is not null, reference, id) descending, references compared bytewise.
    index('receivable_documents_org_reference_asc').on(t.organizationId, sql`(${t.reference} is null)`, sql`(coalesce(${t.reference}, '') collate "C")`, t.id),
    index('receivable_documents_org_reference_desc').on(t.organizationId, sql`(${t.reference} is not null)`, sql`(coalesce(${t.reference}, '') collate "C")`, t.id),
    // Filtered by kind, the reference order is served by its own index too (the planner otherwise
    // sorts the rest of the organization after a deep cursor).
    index('receivable_documents_org_kind_reference_asc').on(t.organizationId, t.kind, sql`(${t.reference} is null)`, sql`(coalesce(${t.reference}, '') collate "C")`, t.id),
    index('receivable_documents_org_kind_reference_desc').on(t.organizationId, t.kind, sql`(${t.reference} is not null)`, sql`(coalesce(${t.reference}, '') collate "C")`, t.id),
    // The list's q on the references (see referencesMatch in queries/receivable-document-list): a
    // match at the first character by a btree range on the lowered text, further on by trigrams of
    // the rest. The expression is REFERENCES_TEXT's.
    index('receivable_documents_references_prefix').on(t.organizationId, sql`lower(left((coalesce(${t.reference} || chr(31), '') || ${t.customerReference}), 100)) text_pattern_ops`),
    index('receivable_documents_references_rest_trgm').using('gin', sql`substr((coalesce(${t.reference} || chr(31), '') || ${t.customerReference}), 2) gin_trgm_ops`),
    // Issued documents not created within a few days of their invoice date (openings; see offDate
    // in queries/receivable-document-list): an invoice-date range in creation order reads them apart.
    // The columns after id are those the list filters on (range, kind, outstanding, group): the
    // walk checks them on the index entries (an index-only scan) instead of fetching every opening
    // newer than the range from the table (one month in 2022 at a million documents: 2,152 fetches).
    index('receivable_documents_org_created_off_date')
      .on(t.organizationId, t.createdAt, t.id, t.invoiceDate, t.kind, t.outstanding, t.customerId)
      .where(
        sql`${t.issuedAt} is not null and (${t.createdAt} < ((${t.invoiceDate} - 4)::timestamp at time zone 'UTC') or ${t.createdAt} >= ((${t.invoiceDate} + 2)::timestamp at time zone 'UTC'))`,
      ),
    // The list's state, currency and updated_after filters and the updated_at sort.
    index('receivable_documents_org_state_created').on(t.organizationId, t.state, t.createdAt, t.id),
    index('receivable_documents_org_currency_created').on(t.organizationId, t.currency, t.createdAt, t.id),
    index('receivable_documents_org_updated').on(t.organizationId, t.updatedAt, t.id),
    // A customer's documents; in creation order for q on a customer name (nameFirstWhere).
    index('receivable_documents_org_customer_created').on(t.organizationId, t.customerId, t.createdAt, t.id),
    index('receivable_documents_org_original').on(t.organizationId, t.originalInvoiceId),
    // The reports as at a day: the documents that changed state since it (few: most never do after issue).
    index('receivable_documents_org_state_changed').on(t.organizationId, t.stateChangedAt).where(sql`${t.stateChangedAt} is not null`),
    foreignKey({ columns: [t.organizationId, t.customerId], foreignColumns: [customers.organizationId, customers.id] }),
    foreignKey({ columns: [t.organizationId, t.preparedBy], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({
      columns: [t.organizationId, t.originalInvoiceId],
      foreignColumns: [(t.organizationId as AnyPgColumn), (t.id as AnyPgColumn)],
    }).onDelete('no action'),
    foreignKey({ columns: [t.organizationId, t.projectId], foreignColumns: [analyticAccounts.organizationId, analyticAccounts.id] }),
  ],
);

/** Lines as priced: the tax code's code, rate and type are copied as they read at pricing time. */
export const receivableDocumentLines = pgTable(
  'receivable_document_lines',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    documentId: uuid('document_id').notNull(),
    lineNo: integer('line_no').notNull(),
    accountId: uuid('account_id').notNull(),
    classificationCode: text('classification_code').notNull(),
    description: text('description').notNull(),
    unitCode: text('unit_code'),
    quantity: rate('quantity').notNull(),
    /** Up to 6 places whatever the currency (docs/design.md §4); the line's net_amount is what is rounded. */
    unitPrice: numeric('unit_price', { precision: 22, scale: 6 }).notNull(),
    discountAmount: amount('discount_amount').notNull(),
    netAmount: amount('net_amount').notNull(),
    netBase: amount('net_base').notNull(),
    taxAmount: amount('tax_amount').notNull(),
    taxBase: amount('tax_base').notNull(),
    taxCodeId: uuid('tax_code_id').notNull(),
    taxCode: text('tax_code').notNull(),
    taxType: text('tax_type').notNull(),
    taxPackKind: text('tax_pack_kind').notNull(),
    taxRate: rate('tax_rate').notNull(),
    taxExemptionReason: text('tax_exemption_reason'),
    tradeLineId: uuid('trade_line_id'),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('receivable_document_lines_doc_line_no').on(t.organizationId, t.documentId, t.lineNo),
    // Whether a tax code was ever used (its rate is then fixed: settings.taxCodes.update).
    index('receivable_document_lines_org_tax_code').on(t.organizationId, t.taxCodeId),
    foreignKey({ columns: [t.organizationId, t.documentId], foreignColumns: [receivableDocuments.organizationId, receivableDocuments.id] }),
    foreignKey({ columns: [t.organizationId, t.accountId], foreignColumns: [accounts.organizationId, accounts.id] }),
    foreignKey({ columns: [t.organizationId, t.taxCodeId], foreignColumns: [taxCodes.organizationId, taxCodes.id] }),
    foreignKey({ columns: [t.organizationId, t.tradeLineId], foreignColumns: [tradeLines.organizationId, tradeLines.id] }),
  ],
);

/** A line's split over analytic accounts; per axis the percentages sum to exactly 100. */
export const receivableLineShares = pgTable(
  'receivable_line_shares',
  {
    organizationId: uuid('organization_id').notNull(),
    lineId: uuid('line_id').notNull(),
    position: integer('position').notNull(),
    analyticAccountId: uuid('analytic_account_id').notNull(),
    axisId: uuid('axis_id').notNull(),
    percentage: rate('percentage').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.lineId, t.analyticAccountId] }),
    // The list's project_id filter goes from the project to its lines.
    index('receivable_line_shares_org_account').on(t.organizationId, t.analyticAccountId, t.lineId),
    foreignKey({ columns: [t.organizationId, t.lineId], foreignColumns: [receivableDocumentLines.organizationId, receivableDocumentLines.id] }),
    foreignKey({ columns: [t.organizationId, t.analyticAccountId], foreignColumns: [analyticAccounts.organizationId, analyticAccounts.id] }),
    foreignKey({ columns: [t.organizationId, t.axisId], foreignColumns: [analyticAxes.organizationId, analyticAxes.id] }),
  ],
);

/** Money received from a customer; allocations apply it to invoices. */
export const receipts = pgTable(
  'receipts',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    customerId: uuid('customer_id').notNull(),
    reference: text('reference').notNull(),
    currency: text('currency').notNull(),
    amount: amount('amount').notNull(),
    /** Base-currency units per one unit of `currency`, as documents ("1" in the base currency). */
    fxRate: rate('fx_rate').notNull().default('1'),
    baseAmount: amount('base_amount').notNull(),
    /** What is left to allocate: amount less the allocations that count; kept by every allocation write. */
    unallocated: amount('unallocated').notNull().default('0'),
    method: text('method', { enum: RECEIPT_METHODS }).notNull().default('other'),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Bumped whenever the answer changes (an allocation or reversal changes allocated / unallocated). */
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    // Keyset pages of the receipt list, by each sort (and by customer).
    index('receipts_org_received_on').on(t.organizationId, t.receivedOn, t.id),
    index('receipts_org_created').on(t.organizationId, t.createdAt, t.id),
    index('receipts_org_customer_received_on').on(t.organizationId, t.customerId, t.receivedOn, t.id),
    foreignKey({ columns: [t.organizationId, t.customerId], foreignColumns: [customers.organizationId, customers.id] }),
    foreignKey({ columns: [t.organizationId, t.createdBy], foreignColumns: [members.organizationId, members.id] }),
  ],
);

/**
 * Part of a receipt or of a credit note applied to an invoice. A reversal is a new allocation with
 * the opposite amounts and `reverses_id` set; the reversed one gets `reversed_by_id`. Neither counts
 * toward outstanding balances.
 */
export const allocations = pgTable(
  'allocations',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    invoiceId: uuid('invoice_id').notNull(),
    sourceKind: text('source_kind', { enum: ['receipt', 'credit_note'] }).notNull(),
    receiptId: uuid('receipt_id'),
    creditNoteId: uuid('credit_note_id'),
    currency: text('currency').notNull(),
    amount: amount('amount').notNull(),
    baseAmount: amount('base_amount').notNull(),
    /**
     * The realized exchange difference in base currency: the amount at the source's rate (receipt or
     * credit note) less `base_amount` (at the allocated document's rate); positive is a gain.
     */
    exchangeDifference: amount('exchange_difference').notNull().default('0'),
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    reversesId: uuid('reverses_id'),
    reversedById: uuid('reversed_by_id'),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('allocations_invoice_idx').on(t.organizationId, t.invoiceId, t.createdAt),
    index('allocations_credit_note_idx').on(t.organizationId, t.creditNoteId),
    index('allocations_receipt_idx').on(t.organizationId, t.receiptId),
    foreignKey({ columns: [t.organizationId, t.invoiceId], foreignColumns: [receivableDocuments.organizationId, receivableDocuments.id] }),
    foreignKey({ columns: [t.organizationId, t.creditNoteId], foreignColumns: [receivableDocuments.organizationId, receivableDocuments.id] }),
    foreignKey({ columns: [t.organizationId, t.receiptId], foreignColumns: [receipts.organizationId, receipts.id] }),
    foreignKey({ columns: [t.organizationId, t.createdBy], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.reversesId], foreignColumns: [(t.organizationId as AnyPgColumn), (t.id as AnyPgColumn)] }),
    foreignKey({ columns: [t.organizationId, t.reversedById], foreignColumns: [(t.organizationId as AnyPgColumn), (t.id as AnyPgColumn)] }),
  ],
);

/** Decisions taken on a document (contract 2.6), oldest first. */
export const receivableTimeline = pgTable(
  'receivable_timeline',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    documentId: uuid('document_id').notNull(),
    actionKey: text('action_key').notNull(),
    actorMemberId: uuid('actor_member_id').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    fromState: text('from_state').notNull(),
    toState: text('to_state').notNull(),
    reason: text('reason').notNull().default(''),
    via: text('via').notNull().default('grant'),
    /** Order of writing: entries of one instant (a decision and the allocation it made) keep their order. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('receivable_timeline_doc_idx').on(t.organizationId, t.documentId, t.decidedAt, t.seq),
    // The reports as at a day: the decisions taken after it (a document's state then).
    index('receivable_timeline_org_decided').on(t.organizationId, t.decidedAt),
    foreignKey({ columns: [t.organizationId, t.documentId], foreignColumns: [receivableDocuments.organizationId, receivableDocuments.id] }),
    foreignKey({ columns: [t.organizationId, t.actorMemberId], foreignColumns: [members.organizationId, members.id] }),
  ],
);



/**
 * The organization's ageing buckets (one row; the defaults when absent): the upper edges, in days
 * past due, of the buckets after `current`, increasing; the last bucket is over the last edge.
 */
export const ageingSettings = pgTable('ageing_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  edges: integer('edges').array().notNull(),
  revision: integer('revision').notNull().default(1),
});

/**
 * The organization's payment reminder schedule: off until turned on; `steps` are days past the due
 * day (7, 14 and 21 by default). No row: the defaults, off.
 */
export const reminderSchedules = pgTable('reminder_schedules', {
  organizationId: uuid('organization_id').primaryKey().references(() => organizations.id),
  enabled: boolean('enabled').notNull().default(false),
  steps: integer('steps').array().notNull().default(sql`'{7,14,21}'::integer[]`),
  revision: integer('revision').notNull().default(1),
});

/**
 * One payment reminder of one document at one step of the schedule. The row is claimed (inserted and
 * committed) before the e-mail is sent, and the unique key makes a second claim of the same step
 * fail, so no two processes, and no run after a crash, send one step twice; `sent_at` is written once
 * the message has left.
 */
export const paymentReminders = pgTable(
  'payment_reminders',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    documentId: uuid('document_id').notNull(),
    /** Days past due of the schedule's step. */
    step: integer('step').notNull(),
    sentTo: text('sent_to').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('payment_reminders_document_step').on(t.organizationId, t.documentId, t.step),
    index('payment_reminders_org_claimed').on(t.organizationId, t.claimedAt, t.id),
    foreignKey({ columns: [t.organizationId, t.documentId], foreignColumns: [receivableDocuments.organizationId, receivableDocuments.id] }),
  ],
);
