/**
 * Reading an uploaded document (GET /v1/documents/{id} and its /content, docs/design.md §12): its
 * metadata and its bytes. Read only. The one rule of who may read a document lives here: its
 * uploader, and whoever may read the record it is bound to (a receivables document: the permission
 * receivables.invoice.read; a claim line or settlement: the claim read rule of queries/claims.ts).
 * Anyone else, and another organization, gets 404, as for a document that does not exist.
 */
import { isClaimOfRecordReadable } from '../../db/queries/claims';
import { findFile, findFileContent } from '../../db/queries/files';
import { notFound } from '../../lib/errors';
import type { UploadedDocument } from '../../contract/documents';
import { hasPermission } from '../access/principal';
import type { ServiceContext } from '../context';
import { claimReader } from '../expenses/read-claim';

type FileRow = NonNullable<Awaited<ReturnType<typeof findFile>>>;


async function mayRead(ctx: ServiceContext, file: FileRow): Promise<boolean> {
  const { principal } = ctx;
  if (file.uploadedBy === principal.memberId) return true;
  if (!file.recordType || !file.recordId) return false;
  if (file.recordType === 'receivable_document') return hasPermission(principal, 'receivables.invoice.read');
  return isClaimOfRecordReadable(ctx.db, {
    organizationId: ctx.org.id,
    recordType: file.recordType,
    recordId: file.recordId,
    reader: claimReader(ctx),
  });
}

/** The file when it exists in the organization and the caller may read it; 404 otherwise. */
async function readableFile(ctx: ServiceContext, id: string): Promise<FileRow> {
  const file = await findFile(ctx.db, { organizationId: ctx.org.id, id });
  if (!file || !(await mayRead(ctx, file))) throw notFound('document');
  return file;
}

/** The metadata, in the shape POST /v1/documents answers. */
export async function getDocumentFile(ctx: ServiceContext, input: { id: string }): Promise<UploadedDocument> {
  const file = await readableFile(ctx, input.id);
  return {
    id: file.id,
    filename: file.filename,
    content_type: file.contentType as UploadedDocument['content_type'],
    size: file.size,
    sha256: file.sha256,
    created_at: file.createdAt.toISOString(),
  };
}

export interface DocumentContent {
  filename: string;
  content_type: string;
  content: Buffer;
}

/** The bytes, with what the answer's headers need. */
export async function getDocumentContent(ctx: ServiceContext, input: { id: string }): Promise<DocumentContent> {
  const file = await readableFile(ctx, input.id);
  const content = await findFileContent(ctx.db, { organizationId: ctx.org.id, id: file.id });
  if (!content) throw notFound('document');
  return { filename: file.filename, content_type: file.contentType, content };
}
