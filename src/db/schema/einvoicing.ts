import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { members, organizations } from './organizations';
import { receivableDocuments } from './receivables';

/**
 * The organization's e-invoicing settings (LHDN MyInvois, docs/myinvois.md point 1), one row per
 * organization; defaults when absent (off, sandbox, version 1.0). The client secret and the
 * certificate with its key and passphrase are sealed with the payout-channel secret box
 * (AES-256-GCM under PAYOUT_ENCRYPTION_KEY, the organization id as associated data); only the
 * certificate's public facts are kept in clear.
 */
export interface EinvoiceCertificateFacts {
  subject: string;
  issuer: string;
  serial: string;
  not_after: string;
}

export const einvoicingSettings = pgTable('einvoicing_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  enabled: boolean('enabled').notNull().default(false),
  environment: text('environment', { enum: ['simulator', 'sandbox', 'production'] }).notNull().default('sandbox'),
  /** Per-environment URL overrides: `{ [environment]: { api_base_url?, portal_base_url? } }`. */
  urls: jsonb('urls').$type<Record<string, { api_base_url?: string; portal_base_url?: string }>>().notNull().default({}),
  /**
   * How the service logs in to MyInvois: `own` (the organization's client id and secret) or
   * `intermediary` (the operator's intermediary system, MYINVOIS_INTERMEDIARY_CLIENT_ID and _SECRET,
   * with `onbehalfof` the organization's TIN: for an organization that appointed the operator in MyTax).
   */
  login: text('login', { enum: ['own', 'intermediary'] }).notNull().default('own'),
  clientId: text('client_id'),
  clientSecretSealed: text('client_secret_sealed'),
  /** Sealed JSON `{certificate, private_key, passphrase}` (PEM). */
  certificateSealed: text('certificate_sealed'),
  certificate: jsonb('certificate').$type<EinvoiceCertificateFacts>(),
  version: text('version', { enum: ['1.0', '1.1'] }).notNull().default('1.0'),
  revision: integer('revision').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One LHDN error kept on an e-invoice: LHDN's code, its message and where in the document. */
export interface EinvoiceError {
  code: string;
  detail: string;
  pointer: string | null;
}

/**
 * One submission of a receivables document to LHDN MyInvois (docs/myinvois.md point 4), and the outbox
 * row that asks for it: written `queued` in the issuing transaction, then moved on by the jobs only
 * (src/jobs/myinvois.ts): `queued` → `sending` (committed before the request leaves, so a crash
 * mid-request is recovered by looking the document up at LHDN, never by sending it blindly again) →
 * `submitted` (LHDN accepted it: submission uid and document uuid known) → `valid` | `invalid`;
 * a valid one may be `cancelled`. A document corrected after `invalid` and issued again gets a new
 * row; at most one row per document is live (not invalid). `document` holds the JSON exactly as
 * sent (the hash LHDN checks is over these bytes), written once.
 */
export const einvoices = pgTable(
  'einvoices',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    documentId: uuid('document_id').notNull(),
    state: text('state', { enum: ['queued', 'sending', 'submitted', 'valid', 'invalid', 'cancelled'] }).notNull(),
    /** The document's number, LHDN's `codeNumber`/`internalId`. */
    codeNumber: text('code_number').notNull(),
    version: text('version', { enum: ['1.0', '1.1'] }).notNull(),
    /** The minified UBL JSON exactly as submitted (UTF-8), and its hex SHA-256. Null until composed. */
    document: text('document'),
    documentHash: text('document_hash'),
    /** The member whose decision (issuing) asked for it: the actor of the system's follow-up decisions. */
    requestedBy: uuid('requested_by').notNull(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull(),
    /** When the last submission request left (state `sending`). */
    sendingAt: timestamp('sending_at', { withTimezone: true }),
    sendAttempts: integer('send_attempts').notNull().default(0),
    submissionUid: text('submission_uid'),
    uuid: text('uuid'),
    longId: text('long_id'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /** LHDN's dateTimeValidated. */
    validatedAt: timestamp('validated_at', { withTimezone: true }),
    /** LHDN's errors for an invalid document (or a refused submission). */
    errors: jsonb('errors').$type<EinvoiceError[]>().notNull().default([]),
    /** A cancellation a person asked for and the job has not sent yet. */
    cancelReason: text('cancel_reason'),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    cancelRequestedBy: uuid('cancel_requested_by'),
    /** LHDN's refusal of the last cancellation asked for. */
    cancelErrors: jsonb('cancel_errors').$type<EinvoiceError[]>().notNull().default([]),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The buyer's rejection request, as LHDN reports it. */
    rejectionRequestedAt: timestamp('rejection_requested_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    /** When the poll job next looks at this document (submitted: its verdict; valid: a buyer's rejection within 72 h). */
    nextPollAt: timestamp('next_poll_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('einvoices_live_document_uidx').on(t.organizationId, t.documentId).where(sql`state <> 'invalid'`),
    index('einvoices_document_idx').on(t.organizationId, t.documentId, t.queuedAt),
    index('einvoices_work_idx').on(t.state, t.organizationId).where(sql`state in ('queued', 'sending', 'submitted') or cancel_requested_at is not null or (state = 'valid' and next_poll_at is not null)`),
    uniqueIndex('einvoices_uuid_uidx').on(t.organizationId, t.uuid),
    foreignKey({ columns: [t.organizationId, t.documentId], foreignColumns: [receivableDocuments.organizationId, receivableDocuments.id] }),
    foreignKey({ columns: [t.organizationId, t.requestedBy], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.cancelRequestedBy], foreignColumns: [members.organizationId, members.id] }),
  ],
);
