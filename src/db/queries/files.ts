import { and, asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { anyOf, insertInChunks, queryRows, type Database } from '../client';
import { fileAttachments, files } from '../schema';

export type AttachmentRecordType = (typeof fileAttachments.$inferInsert)['recordType'];

/**
 * A column of another statement: the ids of a record's attachments, oldest first, as a JSON array
 * (decode it with decodeAttachmentIds). Runs per row of the outer statement; the record type is a
 * literal of the enum, so the plan is the same as for a hand-written subquery.
 */
export function attachmentIdsColumn(organizationId: SQLWrapper, recordType: AttachmentRecordType, recordId: SQLWrapper) {
  return sql<unknown>`(select coalesce(json_agg(a.file_id order by a.ordinal), '[]'::json) from ${fileAttachments} a
    where a.organization_id = ${organizationId} and a.record_type = ${sql.raw(`'${recordType}'`)} and a.record_id = ${recordId})`;
}

/** attachmentIdsColumn's value (json arrives parsed from postgres.js, as text from PGlite). */
export function decodeAttachmentIds(value: unknown): string[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as string[];
}

export async function insertFile(db: Database, values: typeof files.$inferInsert) {
  const [row] = await db
    .insert(files)
    .values(values)
    .returning({
      id: files.id,
      filename: files.filename,
      contentType: files.contentType,
      size: files.size,
      sha256: files.sha256,
      createdAt: files.createdAt,
    });
  return row;
}

/** The files named, with the record each is bound to (if any); locked so two binds cannot race. */
export async function findFilesForBinding(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  const rows = await db
    .select({ id: files.id, uploadedBy: files.uploadedBy })
    .from(files)
    .where(and(eq(files.organizationId, q.organizationId), anyOf(files.id, q.ids)))
    .orderBy(files.id)
    .for('update');
  const bindings = await db
    .select({ fileId: fileAttachments.fileId, recordType: fileAttachments.recordType, recordId: fileAttachments.recordId })
    .from(fileAttachments)
    .where(and(eq(fileAttachments.organizationId, q.organizationId), anyOf(fileAttachments.fileId, q.ids)));
  return rows.map((r) => ({ ...r, binding: bindings.find((b) => b.fileId === r.id) }));
}

export async function nextAttachmentOrdinal(db: Database, q: { organizationId: string; recordType: AttachmentRecordType; recordId: string }) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${fileAttachments.ordinal}), 0)::int` })
    .from(fileAttachments)
    .where(
      and(eq(fileAttachments.organizationId, q.organizationId), eq(fileAttachments.recordType, q.recordType), eq(fileAttachments.recordId, q.recordId)),
    );
  return Number(row?.n ?? 0) + 1;
}

export async function insertAttachments(db: Database, values: (typeof fileAttachments.$inferInsert)[]) {
  await insertInChunks(values, (chunk) => db.insert(fileAttachments).values(chunk));
}

/** Ids of the files bound to a record, oldest attachment first. */
export async function findAttachmentIds(db: Database, q: { organizationId: string; recordType: AttachmentRecordType; recordId: string }) {
  const rows = await db
    .select({ id: fileAttachments.fileId })
    .from(fileAttachments)
    .where(
      and(eq(fileAttachments.organizationId, q.organizationId), eq(fileAttachments.recordType, q.recordType), eq(fileAttachments.recordId, q.recordId)),
    )
    .orderBy(asc(fileAttachments.ordinal));
  return rows.map((r) => r.id);
}

/** One file's metadata (not its bytes) with the record it is bound to, if any. */
export async function findFile(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({
      id: files.id,
      filename: files.filename,
      contentType: files.contentType,
      size: files.size,
      sha256: files.sha256,
      createdAt: files.createdAt,
      uploadedBy: files.uploadedBy,
      recordType: fileAttachments.recordType,
      recordId: fileAttachments.recordId,
    })
    .from(files)
    .leftJoin(fileAttachments, and(eq(fileAttachments.organizationId, files.organizationId), eq(fileAttachments.fileId, files.id)))
    .where(and(eq(files.organizationId, q.organizationId), eq(files.id, q.id)));
  return row;
}

/** One file's bytes. */
export async function findFileContent(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({ content: files.content })
    .from(files)
    .where(and(eq(files.organizationId, q.organizationId), eq(files.id, q.id)));
  return row?.content;
}

/**
 * Serializes the uploads of one organization until the transaction ends (a transaction-scoped
 * advisory lock), then answers the bytes its files take: read in a statement of its own, after the
 * lock, so an upload committed while this one waited is counted.
 */
export async function lockFileStorage(db: Database, q: { organizationId: string }): Promise<number> {
  await queryRows(db, sql`select pg_advisory_xact_lock(hashtextextended(${`files-quota:${q.organizationId}`}, 0))`);
  const [row] = await queryRows<{ used: string | number }>(
    db,
    sql`select coalesce(sum(size), 0)::bigint as used from files where organization_id = ${q.organizationId}::uuid`,
  );
  return Number(row?.used ?? 0);
}

/**
 * Deletes up to `batchSize` files, of every organization, uploaded before `before` and never bound
 * to a record (no attachment, no claim settlement's proof). A file being bound is locked by the
 * binding (findFilesForBinding) and skipped here; one deleted first is unknown to the binding.
 */
export async function deleteUnboundFilesOfAllOrganizations(db: Database, q: { before: Date; batchSize: number }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from files where (organization_id, id) in (
            select f.organization_id, f.id from files f
            where f.created_at < ${q.before.toISOString()}::timestamptz
              and not exists (select 1 from file_attachments a where a.organization_id = f.organization_id and a.file_id = f.id)
              and not exists (select 1 from claim_settlements s where s.organization_id = f.organization_id and s.proof_document_id = f.id)
            limit ${q.batchSize}
            for update of f skip locked)
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
