/**
 * Binding uploaded files to the record they back (an invoice, a claim line, a settlement): the one
 * place the binding rules live, shared by every record type. It never detaches a file and never
 * opens its own transaction: it runs in the caller's, so a refusal rolls the whole record back.
 */
import { findFilesForBinding, insertAttachments, nextAttachmentOrdinal, type AttachmentRecordType } from '../../db/queries/files';
import { AppError, pointerLabel, validationError } from '../../lib/errors';
import type { ServiceContext } from '../context';

export interface BindDocumentsInput {
  record_type: AttachmentRecordType;
  record_id: string;
  /** File ids, bound in this order after the ones already bound. */
  ids: string[];
  /** Where the ids are in the request (`/attachment_ids`, `/documents`): refusals point at `<pointer>/<i>`. */
  pointer: string;
}

/**
 * Binds uploaded files to a record, in the order given, as the caller. Each id must name a file of
 * this organization (else 422 document_unknown) that the caller uploaded (else 422
 * document_not_yours) and that backs no other record (else 409 document_bound_elsewhere). A file
 * already bound to this same record is left as it is.
 */
export async function bindDocuments(ctx: ServiceContext, input: BindDocumentsInput): Promise<void> {
  const { organizationId, memberId } = ctx.principal;
  const seen = new Set<string>();
  for (const [i, id] of input.ids.entries()) {
    if (seen.has(id)) throw validationError(`${input.pointer}/${i}`, 'names the same document twice');
    seen.add(id);
  }
  const found = await findFilesForBinding(ctx.db, { organizationId, ids: input.ids });
  const fresh: string[] = [];
  for (const [i, id] of input.ids.entries()) {
    const pointer = `${input.pointer}/${i}`;
    const file = found.find((f) => f.id === id);
    if (!file) {
      throw new AppError('document_unknown', { detail: `${pointerLabel(pointer)}: no such document in this organization`, errors: [{ pointer, detail: 'no such document' }] });
    }
    if (file.binding) {
      if (file.binding.recordType === input.record_type && file.binding.recordId === input.record_id) continue;
      throw new AppError('document_bound_elsewhere', {
        detail: `${pointerLabel(pointer)}: the document already backs another record`,
        errors: [{ pointer, detail: 'is attached to another record' }],
      });
    }
    if (file.uploadedBy !== memberId) {
      throw new AppError('document_not_yours', {
        detail: `${pointerLabel(pointer)}: the document was uploaded by someone else`,
        errors: [{ pointer, detail: 'was uploaded by someone else' }],
      });
    }
    fresh.push(id);
  }
  if (!fresh.length) return;
  const first = await nextAttachmentOrdinal(ctx.db, { organizationId, recordType: input.record_type, recordId: input.record_id });
  await insertAttachments(
    ctx.db,
    fresh.map((fileId, i) => ({
      organizationId,
      fileId,
      recordType: input.record_type,
      recordId: input.record_id,
      ordinal: first + i,
      attachedBy: memberId,
      attachedAt: ctx.now,
    })),
  );
}
