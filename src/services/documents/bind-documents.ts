import type { Database } from '../../db/client';
import { findFilesForBinding, insertAttachments, nextAttachmentOrdinal, type AttachmentRecordType } from '../../db/queries/files';
import { AppError, pointerLabel, validationError } from '../../lib/errors';
import type { Principal } from '../access/principal';

/**
 * Binds uploaded files to a record, in the order given. Each id must name a file of this
 * organization (else 422 document_unknown) that the caller uploaded (else 422 document_not_yours)
 * and that backs no other record (else 409 document_bound_elsewhere). A file already bound to this
 * same record is left as it is. Runs inside the caller's transaction, so a refusal rolls back the
 * whole record.
 */
export async function bindDocuments(
  db: Database,
  principal: Pick<Principal, 'organizationId' | 'memberId'>,
  q: { recordType: AttachmentRecordType; recordId: string; ids: string[]; pointer: string; now: Date },
): Promise<void> {
  const seen = new Set<string>();
  for (const [i, id] of q.ids.entries()) {
    if (seen.has(id)) throw validationError(`${q.pointer}/${i}`, 'names the same document twice');
    seen.add(id);
  }
  const found = await findFilesForBinding(db, { organizationId: principal.organizationId, ids: q.ids });
  const fresh: string[] = [];
  for (const [i, id] of q.ids.entries()) {
    const pointer = `${q.pointer}/${i}`;
    const file = found.find((f) => f.id === id);
    if (!file) {
      throw new AppError('document_unknown', { detail: `${pointerLabel(pointer)}: no such document in this organization`, errors: [{ pointer, detail: 'no such document' }] });
    }
    if (file.binding) {
      if (file.binding.recordType === q.recordType && file.binding.recordId === q.recordId) continue;
      throw new AppError('document_bound_elsewhere', {
        detail: `${pointerLabel(pointer)}: the document already backs another record`,
        errors: [{ pointer, detail: 'is attached to another record' }],
      });
    }
    if (file.uploadedBy !== principal.memberId) {
      throw new AppError('document_not_yours', {
        detail: `${pointerLabel(pointer)}: the document was uploaded by someone else`,
        errors: [{ pointer, detail: 'was uploaded by someone else' }],
      });
    }
    fresh.push(id);
  }
  if (!fresh.length) return;
  const first = await nextAttachmentOrdinal(db, { organizationId: principal.organizationId, recordType: q.recordType, recordId: q.recordId });
  await insertAttachments(
    db,
    fresh.map((fileId, i) => ({
      organizationId: principal.organizationId,
      fileId,
      recordType: q.recordType,
      recordId: q.recordId,
      ordinal: first + i,
      attachedBy: principal.memberId,
      attachedAt: q.now,
    })),
  );
}
