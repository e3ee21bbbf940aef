/** documents.get, GET /v1/documents/{id}: an uploaded document's metadata; meta, schemas and one service call. */
import { z } from 'zod';
import { getDocumentFile } from '../../services/documents/read-document-file';
import { svc } from '../context';
import { authedProcedure } from '../procedures';
import { uuid } from '../../contract/fields';
import { uploadedDocumentSchema } from '../../contract/documents';

export const getDocumentProcedure = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/documents/{id}',
      summary: 'Read an uploaded document (metadata)',
      description:
        'Answers the document as POST /documents did: id, filename, content_type, size, sha256, created_at. ' +
        'Readable by its uploader and by whoever may read the record it is bound to (a receivables document: receivables.invoice.read; ' +
        'a claim: whoever may read the claim); anyone else gets 404, as for a document that does not exist. The bytes: GET /documents/{id}/content.',
      tags: ['Documents'],
      protect: true,
    },
  })
  .input(z.strictObject({ id: uuid().describe('The document id') }))
  .output(uploadedDocumentSchema.meta({ id: 'UploadedDocument' }))
  .query(({ ctx, input }) => getDocumentFile(svc(ctx), input));
