/**
 * Attaching more uploaded documents to a receivables document (docs/design.md §12). Attachments are
 * never detached; the document's revision moves only when something new is bound.
 */
import { findAttachmentIds } from '../../db/queries/files';
import { bumpRevision, lockDocument } from '../../db/queries/receivable-documents';
import { AppError } from '../../lib/errors';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { bindDocuments } from '../documents/bind-documents';
import { LIMITS } from './prepare-document';
import { readDocument, type DocumentView } from './read-document';

export async function addAttachments(ctx: ServiceContext, input: { id: string; attachment_ids: string[] }): Promise<DocumentView> {
  const organizationId = ctx.org.id;
  const doc = await lockDocument(ctx.db, { organizationId, id: input.id });
  if (!doc) throw new AppError('not_found', { detail: 'No such receivables document in this organization' });
  const r = new Refusals();
  r.check(input.attachment_ids.length <= LIMITS.attachments, '/attachment_ids', `at most ${LIMITS.attachments} documents`);
  r.throwIfAny();
  const attached = () => findAttachmentIds(ctx.db, { organizationId, recordType: 'receivable_document', recordId: input.id });
  const before = (await attached()).length;
  await bindDocuments(ctx, { record_type: 'receivable_document', record_id: input.id, ids: input.attachment_ids, pointer: '/attachment_ids' });
  const after = (await attached()).length;
  if (after > before) await bumpRevision(ctx.db, { organizationId, id: input.id });
  return readDocument(ctx, { id: input.id });
}
