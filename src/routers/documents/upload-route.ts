import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { sha256Hex } from '../../lib/crypto';
import { hasPermission } from '../../services/access/principal';
import { serviceContext } from '../../services/context';
import { uploadDocument } from '../../services/documents/upload-document';
import { guardRouteAuthenticated, sendIdempotentWrite } from '../route-guard';
import { uploadedDocumentSchema } from '../../contract/documents';

export const UPLOAD_PATH = '/documents';

/**
 * POST /v1/documents: one file as multipart/form-data, part `file`. The REST adapter speaks JSON
 * only, so this is a fastify route; it goes through the same steps as every procedure (route-guard:
 * authentication with failed-key counting, rate limits; then the idempotent write in one transaction,
 * identified by the file's SHA-256, name and type) and calls the documents service. Refusals are
 * AppErrors, rendered as problems by the REST scope.
 */
/** fastify's refusals that name a limit (413, too many parts) keep their own problem (server.ts). */
const LIMIT_CODES = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_INVALID_MULTIPART_CONTENT_TYPE']);

/**
 * A body the multipart parser cannot read (no boundary, cut short, not multipart at all) is the
 * client's fault: 400 naming the file, never the parser's own 500.
 */
function multipartRefusal(e: unknown): unknown {
  if (e instanceof AppError) return e;
  if (LIMIT_CODES.has(String((e as { code?: unknown })?.code))) return e;
  return new AppError('invalid_request', {
    detail: 'The body is not a readable multipart/form-data message (send one part named file, with the boundary the Content-Type names)',
    errors: [{ pointer: '/file', detail: 'could not be read from the multipart body' }],
  });
}

export async function registerUploadRoute(app: FastifyInstance, deps: AppDeps) {
  // A scope of its own (inside the facade's, whose prefix, hooks and error handler it keeps): the
  // multipart parser and the two hooks it adds to every request of its scope serve this route alone.
  await app.register(async (scope) => uploadRoute(scope, deps));
}

async function uploadRoute(app: FastifyInstance, deps: AppDeps) {
  const maxBytes = deps.config.DOCUMENT_MAX_BYTES;
  await app.register(fastifyMultipart, { limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12 } });

  app.post(UPLOAD_PATH, async (req, reply) => {
    const { principal, org } = await guardRouteAuthenticated(deps, req, reply);
    if (!hasPermission(principal, 'documents.create')) {
      throw new AppError('forbidden', { detail: 'This operation needs the permission documents.create' });
    }
    // Before the body is read: a member has so many uploads a minute (429 with Retry-After past them).
    await deps.rateLimits.countMemberAction('uploads', principal.memberId);
    if (!req.isMultipart()) {
      throw new AppError('unsupported_media_type', { detail: 'Send the file as multipart/form-data with one part named file' });
    }
    let part: Awaited<ReturnType<typeof req.file>>;
    let content: Buffer;
    try {
      part = await req.file();
      if (!part || part.fieldname !== 'file') {
        throw new AppError('invalid_request', { detail: 'file is required: send one part named file', errors: [{ pointer: '/file', detail: 'is required' }] });
      }
      content = await part.toBuffer();
    } catch (e) {
      throw multipartRefusal(e);
    }
    const input = { filename: part.filename, declared_type: part.mimetype, content, quota_bytes: deps.config.DOCUMENT_STORAGE_QUOTA_BYTES };
    reply.header('content-type', 'application/json; charset=utf-8');
    return sendIdempotentWrite(deps, req, reply, {
      principal,
      route: 'documents.upload',
      input: { sha256: sha256Hex(content), filename: part.filename, content_type: part.mimetype },
      run: async (tx) => {
        const ctx = serviceContext(tx, principal, org, deps.now(), deps.config.CURSOR_SECRET);
        return { status: 201, headers: {}, body: uploadedDocumentSchema.parse(await uploadDocument(ctx, input)) };
      },
    });
  });
}
