import type { Database } from '../../db/client';
import { bumpRevision, lockDocument } from '../../db/queries/receivable-documents';
import { AppError } from '../../lib/errors';
import type { Principal } from '../access/principal';
import { findAttachmentIds } from '../../db/queries/files';
import { bindDocuments } from '../documents/bind-documents';
import { LIMITS } from './prepare-document';
import { readDocument, type DocumentView } from './read-document';

/**
 * Attaches more uploaded documents to a receivables document (DESIGN section 12). The document's
 * revision moves when something new is bound; attachments are never detached.
 */
export async function addAttachments(db: Database, principal: Principal, input: { id: string; attachment_ids: string[] }, now: Date): Promise<DocumentView> {
  const organizationId = principal.organizationId;
  const doc = await lockDocument(db, { organizationId, id: input.id });
  if (!doc) throw new AppError('not_found', { detail: 'No such receivables document in this organization' });
  if (input.attachment_ids.length > LIMITS.attachments) {
    throw new AppError('validation', { detail: `attachment_ids: at most ${LIMITS.attachments} documents`, errors: [{ pointer: '/attachment_ids', detail: `at most ${LIMITS.attachments} documents` }] });
  }
  const before = await readAttachmentCount(db, organizationId, input.id);
  await bindDocuments(db, principal, { recordType: 'receivable_document', recordId: input.id, ids: input.attachment_ids, pointer: '/attachment_ids', now });
  const after = await readAttachmentCount(db, organizationId, input.id);
  if (after > before) await bumpRevision(db, { organizationId, id: input.id });
  return readDocument(db, principal, input.id, now);
}

async function readAttachmentCount(db: Database, organizationId: string, recordId: string) {
  return (await findAttachmentIds(db, { organizationId, recordType: 'receivable_document', recordId })).length;
}
