import { customType, foreignKey, integer, pgTable, primaryKey, text, timestamp, uuid, index } from 'drizzle-orm/pg-core';
import { members, organizations } from './organizations';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
  toDriver: (v) => v,
});

/**
 * Uploaded files ("documents" in the contract: POST /v1/documents). The uploader owns a file until a
 * record binds it; the content is kept in the database with its SHA-256.
 */
export const files = pgTable(
  'files',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    uploadedBy: uuid('uploaded_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('files_org_sha256').on(t.organizationId, t.sha256),
    foreignKey({ columns: [t.organizationId, t.uploadedBy], foreignColumns: [members.organizationId, members.id] }),
  ],
);

/**
 * Binds a file to the one record it backs. The primary key (organization, file) is what makes a
 * file bind to at most one record; attachments are never detached.
 */
export const fileAttachments = pgTable(
  'file_attachments',
  {
    organizationId: uuid('organization_id').notNull(),
    fileId: uuid('file_id').notNull(),
    recordType: text('record_type', { enum: ['receivable_document', 'expense_claim_line'] }).notNull(),
    recordId: uuid('record_id').notNull(),
    /** Order of attachment on the record: oldest first. */
    ordinal: integer('ordinal').notNull(),
    attachedBy: uuid('attached_by').notNull(),
    attachedAt: timestamp('attached_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.fileId] }),
    index('file_attachments_record_idx').on(t.organizationId, t.recordType, t.recordId, t.ordinal),
    foreignKey({ columns: [t.organizationId, t.fileId], foreignColumns: [files.organizationId, files.id] }),
    foreignKey({ columns: [t.organizationId, t.attachedBy], foreignColumns: [members.organizationId, members.id] }),
  ],
);
