/** The input of a set-up list that is also a /v1 operation: query strings arrive as text, so its scalars are the REST list's strict ones. */
import { z } from 'zod';
import { booleanParam, limitParam } from '../receivables/document-list';

/** `include_inactive` exactly "true" or "false" (a boolean from tRPC callers), `limit` 1 to 100, the previous page's `next_cursor`. */
export function queryListInput() {
  return z.strictObject({
    include_inactive: booleanParam.optional().describe('true: retired records too (active only by default)'),
    limit: limitParam.describe('Page size, 1 to 100 (50 by default)').optional(),
    cursor: z.string().min(1).max(1000).optional().describe("The previous page's next_cursor, with the same include_inactive"),
  });
}
