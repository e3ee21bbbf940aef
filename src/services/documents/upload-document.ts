import type { Database } from '../../db/client';
import { insertFile } from '../../db/queries/files';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { Principal } from '../access/principal';
import { ALLOWED_TYPES, canonicalType, detectType } from './file-types';

export interface UploadInput {
  filename: string;
  declaredType: string | undefined;
  content: Buffer;
}

export interface DocumentView {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
}

const MAX_FILENAME = 255;

/**
 * Stores an uploaded file for the caller. The type is decided from the content: a file that is none
 * of the accepted types, or whose declared type disagrees with its content, is refused (415).
 */
export async function uploadDocument(db: Database, principal: Principal, input: UploadInput): Promise<DocumentView> {
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
  const declared = canonicalType(input.declaredType);
  if (declared === undefined || (declared !== 'application/octet-stream' && declared !== detected)) {
    throw new AppError('unsupported_media_type', {
      detail: `The file was declared as ${input.declaredType ?? '(none)'} but its content is ${detected}`,
      errors: [{ pointer: '/file', detail: `content is ${detected}, not ${input.declaredType}` }],
    });
  }
  const filename = (input.filename || 'upload').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, MAX_FILENAME) || 'upload';
  const row = await insertFile(db, {
    organizationId: principal.organizationId,
    filename,
    contentType: detected,
    size: input.content.length,
    sha256: sha256Hex(input.content),
    content: input.content,
    uploadedBy: principal.memberId,
  });
  if (!row) throw new AppError('internal');
  return {
    id: row.id,
    filename: row.filename,
    content_type: row.contentType,
    size: row.size,
    sha256: row.sha256,
    created_at: row.createdAt.toISOString(),
  };
}
