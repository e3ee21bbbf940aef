import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { authenticate } from '../../services/access/authenticate';
import { hasPermission } from '../../services/access/principal';
import { uploadDocument } from '../../services/documents/upload-document';

export const UPLOAD_PATH = '/documents';

/**
 * POST /v1/documents: one file as multipart/form-data, part `file`. The REST adapter speaks JSON
 * only, so this is a fastify route; it authenticates with the same service as every procedure and
 * calls the documents service. Refusals are AppErrors, rendered as problems by the REST scope.
 */
export async function registerUploadRoute(app: FastifyInstance, deps: AppDeps) {
  const maxBytes = deps.config.DOCUMENT_MAX_BYTES;
  await app.register(fastifyMultipart, { limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12 } });

  app.post(UPLOAD_PATH, async (req, reply) => {
    const authorization = Array.isArray(req.headers.authorization) ? req.headers.authorization.join(', ') : req.headers.authorization;
    const principal = await authenticate(deps.db, authorization, deps.now());
    if (!hasPermission(principal, 'documents.create')) {
      throw new AppError('forbidden', { detail: 'This operation needs the permission documents.create' });
    }
    if (!req.isMultipart()) {
      throw new AppError('unsupported_media_type', { detail: 'Send the file as multipart/form-data with one part named file' });
    }
    const part = await req.file();
    if (!part || part.fieldname !== 'file') {
      throw new AppError('invalid_request', { detail: 'file is required: send one part named file', errors: [{ pointer: '/file', detail: 'is required' }] });
    }
    const content = await part.toBuffer();
    const doc = await uploadDocument(deps.db, principal, { filename: part.filename, declaredType: part.mimetype, content });
    return reply.code(201).header('content-type', 'application/json; charset=utf-8').send(doc);
  });
}
