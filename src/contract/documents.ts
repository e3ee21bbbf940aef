/**
 * The answer of POST /v1/documents: the one declaration of its shape. The service's return type is
 * inferred from it, the route parses its answer with it, and the OpenAPI document describes it from
 * it (openapi.ts), since the multipart route is outside what the REST adapter generates.
 */
import { z } from 'zod';
import { ALLOWED_TYPES } from '../domain/documents';
import { uuid } from './fields';

export const uploadedDocumentSchema = z.object({
  id: uuid(),
  filename: z.string(),
  content_type: z.enum(ALLOWED_TYPES).describe('Decided from the content (magic bytes), not from the declared type'),
  size: z.int().min(0).describe('Bytes'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.iso.datetime({ offset: true }),
});

export type UploadedDocument = z.output<typeof uploadedDocumentSchema>;

/** The schema as JSON Schema for the OpenAPI document (3.1 speaks JSON Schema 2020-12). */
export function uploadedDocumentJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(uploadedDocumentSchema, { io: 'output' });
  return schema;
}
