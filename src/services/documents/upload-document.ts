/**
 * Storing an uploaded file for the caller (POST /v1/documents). The type is decided from the content,
 * never from the declared type or the name; the file belongs to its uploader until a record binds it
 * (bind-documents.ts). It never binds, and never stores a file it could not recognise.
 */
import { insertFile, lockFileStorage } from '../../db/queries/files';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { UploadedDocument } from '../../contract/documents';
import type { ServiceContext } from '../context';
import { ALLOWED_TYPES, canonicalType, detectType } from './file-types';
import { checkXmlOffThread } from './xml-check-thread';

export interface UploadDocumentInput {
  filename: string;
  /** The media type the multipart part declared, if any. */
  declared_type: string | undefined;
  content: Buffer;
  /** The organization's storage quota in bytes (DOCUMENT_STORAGE_QUOTA_BYTES). */
  quota_bytes?: number;
}

const MIB = 1024 * 1024;
const inMiB = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

const MAX_FILENAME = 255;

/**
 * Stores the file. A file that is none of the accepted types, or whose declared type disagrees with
 * its content, is refused (415); an empty one is 422.
 */
export async function uploadDocument(ctx: ServiceContext, input: UploadDocumentInput): Promise<UploadedDocument> {
  if (input.content.length === 0) {
    throw new AppError('validation', { detail: 'file: the file is empty', errors: [{ pointer: '/file', detail: 'is empty' }] });
  }
  const detected = detectType(input.content);
  if (!detected) {
    throw new AppError('unsupported_media_type', {
      detail: `The file is not one of the accepted types (${ALLOWED_TYPES.join(', ')}); its content was checked, not its name`,
      errors: [{ pointer: '/file', detail: 'is not an accepted file type' }],
    });
  }
  const declared = canonicalType(input.declared_type);
  if (declared === undefined || (declared !== 'application/octet-stream' && declared !== detected)) {
    throw new AppError('unsupported_media_type', {
      detail: `The file was declared as ${input.declared_type ?? '(none)'} but its content is ${detected}`,
      errors: [{ pointer: '/file', detail: `content is ${detected}, not ${input.declared_type}` }],
    });
  }
  if (detected === 'application/xml') {
    // Not well-formed, or not an e-invoice: not an accepted type (415, as any other content); carrying
    // script or entity definitions, or past a size, depth or time bound: refused by a rule (422).
    const xml = await checkXmlOffThread(input.content);
    if (!xml.ok) {
      throw new AppError(xml.kind === 'malformed' || xml.kind === 'foreign' ? 'unsupported_media_type' : 'validation', {
        detail: `file: the XML document ${xml.detail}`,
        errors: [{ pointer: '/file', detail: xml.detail }],
      });
    }
  }
  if (input.quota_bytes !== undefined) {
    // Reserved atomically: the organization's uploads are serialized until this transaction ends,
    // so two uploads at once can never both fit into the last free bytes.
    const used = await lockFileStorage(ctx.db, { organizationId: ctx.org.id });
    if (used + input.content.length > input.quota_bytes) {
      throw new AppError('storage_quota_exceeded', {
        detail:
          `The organization's files take ${inMiB(used)} of its ${inMiB(input.quota_bytes)} storage quota; this file (${inMiB(input.content.length)}) does not fit. ` +
          'Files never attached to a record are deleted a day after their upload',
        errors: [{ pointer: '/file', detail: 'does not fit in the storage quota' }],
      });
    }
  }
  const filename = (input.filename || 'upload').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, MAX_FILENAME) || 'upload';
  const row = await insertFile(ctx.db, {
    organizationId: ctx.org.id,
    filename,
    contentType: detected,
    size: input.content.length,
    sha256: sha256Hex(input.content),
    content: input.content,
    uploadedBy: ctx.principal.memberId,
  });
  if (!row) throw new AppError('internal');
  return {
    id: row.id,
    filename: row.filename,
    content_type: detected,
    size: row.size,
    sha256: row.sha256,
    created_at: row.createdAt.toISOString(),
  };
}
