/** The shapes of the receivables list: its query (strict scalars, no coercion) and its page, from which the list service's return type is inferred. */
import { z } from 'zod';
import { DOCUMENT_LIST_SORTS as LIST_SORTS } from '../../domain/receivables';
import { DOCUMENT_KINDS } from '../../domain/receivables';
import { uuid, isoDate, currencyCode } from '../fields';
import { documentSchema } from './documents';

/**
 * Query parameters arrive as strings over REST. Scalars are strict: `limit` is digits only (or an
 * integer from a tRPC caller) and `outstanding` exactly "true" or "false"; trpc-to-openapi's
 * coercion never touches them because neither is a bare z.number / z.boolean.
 */
export const limitParam = z
  .union([z.string().regex(/^\d{1,4}$/, 'must be an integer from 1 to 100'), z.int()])
  .transform((v) => Number(v))
  // Out of range is a malformed request (400), as the list's issue specifies, not a 422 rule.
  .pipe(z.int().refine((n) => n >= 1 && n <= 100, 'must be an integer from 1 to 100'))
  .describe('Page size, 1 to 100 (25 by default)');

/** A query boolean: exactly "true" or "false" over REST, a boolean from tRPC callers. */
export const booleanParam = z.union([z.stringbool({ truthy: ['true'], falsy: ['false'], case: 'sensitive' }), z.boolean()]).pipe(z.boolean());

export const listInvoicesInput = z.strictObject({
  kind: z.enum(DOCUMENT_KINDS).optional().describe('Only documents of this kind'),
  group: z
    .enum(['only', 'none'])
    .optional()
    .describe("only: documents of customers mapped to a company of the organization's group as at today; none: the rest"),
  project_id: uuid().optional().describe('Only documents with a line charged to this project'),
  outstanding: booleanParam
    .optional()
    .describe('true: issued documents with something outstanding; false: issued documents with nothing outstanding'),
  q: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
    .optional()
    .describe('Case-insensitive substring of the reference, customer reference or customer legal name; % and _ are literal'),
  // Several states: the parameter repeated (state=draft&state=issued); an unknown state key is a rule (422), not a shape.
  state: z
    .array(z.string().min(1, 'must not be blank').max(100, 'must be at most 100 characters').meta({ examples: ['issued'] }))
    .min(1)
    .max(20, 'must list at most 20 states')
    .meta({ examples: [['issued']] })
    .optional()
    .describe('Only documents in one of these states of the receivables workflow (state keys; repeat the parameter for several; an unknown key is 422)'),
  customer_id: uuid().optional().describe('Only documents of this customer'),
  currency: currencyCode().optional().describe('Only documents in this currency (ISO 4217)'),
  overdue: booleanParam
    .optional()
    .describe(
      "true: issued invoices and debit notes with something outstanding whose due date is before the organization's today; " +
        'false: issued invoices and debit notes with something outstanding, due today or later (awaiting payment, not yet due). Credit notes and drafts are never in either',
    ),
  updated_after: z.iso
    .datetime({ offset: true, message: 'must be a date-time with its offset (2026-01-31T09:00:00.000Z)' })
    .optional()
    .describe(
      'Documents changed at or after this instant (inclusive), for incremental sync: walk it with sort=updated_at&order=asc and the cursor to the end, ' +
        "then start the next sync from the last document's updated_at. A document changed by a write still in progress is held back until it commits, so none is missed; " +
        'documents at the boundary come again (recognise them by id and updated_at)',
    ),
  invoice_date_from: isoDate().optional().describe('Issued on or after this day (drafts are left out)'),
  invoice_date_to: isoDate().optional().describe('Issued on or before this day (drafts are left out)'),
  sort: z
    .enum(LIST_SORTS)
    .optional()
    .describe('Ordering key, then id; created_at by default. reference: drafts (no reference) last; updated_at: when the document last changed'),
  order: z.enum(['asc', 'desc']).optional().describe('desc by default'),
  limit: limitParam.optional(),
  cursor: z.string().max(2000).optional().describe("The previous page's next_cursor, with the same sort, order and filters"),
});

export const documentListItemSchema = documentSchema
  .omit({ lines: true, allocations: true, timeline: true, available_transitions: true })
  .meta({ id: 'ReceivablesDocumentListItem' });

export const documentListSchema = z
  .object({
    documents: z.array(documentListItemSchema),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .meta({ id: 'ReceivablesDocumentList' });

/** One document of the list, and a page: the services' return types are inferred from these schemas. */
export type DocumentListItem = z.output<typeof documentListItemSchema>;
export type DocumentListPage = z.output<typeof documentListSchema>;
