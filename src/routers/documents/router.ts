import { router } from '../trpc';
import { getDocumentProcedure } from './get-document';

/** documents.*: reading uploaded documents (the upload and the content are fastify routes: upload-route.ts, content-route.ts). */
export const documentsRouter = router({
  get: getDocumentProcedure,
});
