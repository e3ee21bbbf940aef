import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { serviceContext } from '../../services/context';
import { getDocumentContent } from '../../services/documents/read-document-file';
import { guardRouteAuthenticated } from '../route-guard';

export const CONTENT_PATH = '/documents/:id/content';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `Content-Disposition: attachment` with the filename as RFC 6266 says: an ASCII fallback in
 * `filename` (anything else, quotes and backslashes become `_`) and the exact name in `filename*`,
 * UTF-8 percent-encoded as RFC 5987 (8187) attr-chars allow.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'document';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * GET /v1/documents/{id}/content: the bytes of an uploaded document. The REST adapter answers JSON
 * only, so this is a fastify route; it goes through the same authentication and limits as every
 * procedure (route-guard.ts) and calls the documents service, which decides who may read (404 for
 * anyone else). Always a download (`attachment`, `nosniff`): the bytes are never rendered as a page
 * of this origin.
 */
export async function registerContentRoute(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { id: string } }>(CONTENT_PATH, async (req, reply) => {
    const { principal, org } = await guardRouteAuthenticated(deps, req, reply);
    const id = req.params.id;
    if (!UUID.test(id)) {
      throw new AppError('invalid_request', { detail: 'id: must be a UUID', errors: [{ pointer: '/path/id', detail: 'must be a UUID' }] });
    }
    const ctx = serviceContext(deps.db, principal, org, deps.now(), deps.config.CURSOR_SECRET);
    const file = await getDocumentContent(ctx, { id });
    return reply
      .code(200)
      .headers({
        'content-type': file.content_type,
        'content-length': String(file.content.length),
        'content-disposition': contentDisposition(file.filename),
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      })
      .send(file.content);
  });
}
