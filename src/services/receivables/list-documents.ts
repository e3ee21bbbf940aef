/**
 * One page of the receivables list (contract 4.3, DESIGN section 9). Read only; it never reads
 * another organization's documents, and the page's cost never grows with the page size (a fixed
 * number of statements: the page with its attachments, q's customer names included; with an
 * invoice-date range in another order than creation, a bounded count before it; the workflow
 * comes from the organization's configuration cache).
 */
import { cachedWorkflow } from '../org-config-cache';
import {
  countRangeUpTo,
  listDocuments as listDocumentRows,
  SORT_VALUE_PATTERN,
  type ListFilters,
  type ListOrder,
  type ListSort,
} from '../../db/queries/receivable-document-list';
import type { DocumentKind } from '../../db/schema';
import { decodeCursor, encodeCursor, invalidCursor, type CursorBinding } from '../../lib/cursor';
import { validationError } from '../../lib/errors';
import type { DocumentListPage } from '../../routers/receivables/invoices/list-schemas';
import type { ServiceContext } from '../context';
import { documentHeaderView } from './document-view';

export type { DocumentListPage };

export interface ListDocumentsInput {
  kind?: DocumentKind;
  group?: 'only' | 'none';
  project_id?: string;
  outstanding?: boolean;
  q?: string;
  invoice_date_from?: string;
  invoice_date_to?: string;
  sort?: ListSort;
  order?: ListOrder;
  limit?: number;
  cursor?: string;
}

export const DEFAULT_LIMIT = 25;
/** Up to this many documents in an invoice-date range, reading the range and sorting it beats walking another sort's index. */
const RANGE_FIRST_CAP = 20_000;

/** Every document field but lines, allocations, timeline and available transitions; a signed cursor to the next page. */
export async function listDocuments(ctx: ServiceContext, input: ListDocumentsInput): Promise<DocumentListPage> {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const sort = input.sort ?? 'created_at';
  const order = input.order ?? 'desc';
  const limit = input.limit ?? DEFAULT_LIMIT;
  if (input.invoice_date_from && input.invoice_date_to && input.invoice_date_from > input.invoice_date_to) {
    throw validationError('/query/invoice_date_to', 'must not be before invoice_date_from');
  }
  const filters: ListFilters = {
    kind: input.kind,
    group: input.group,
    projectId: input.project_id?.toLowerCase(),
    outstanding: input.outstanding,
    q: input.q,
    invoiceDateFrom: input.invoice_date_from,
    invoiceDateTo: input.invoice_date_to,
  };
  // The cursor is bound to everything that decides which rows come in which order; not to limit.
  const binding: CursorBinding = { sort, order, filters: { ...filters } };
  const secret = await ctx.cursorSecret();
  let after: { value: string | null; id: string } | undefined;
  if (input.cursor !== undefined) {
    after = decodeCursor(secret, input.cursor, binding);
    const pattern = sort === 'reference' ? undefined : SORT_VALUE_PATTERN[sort];
    const valueOk = pattern ? after.value !== null && pattern.test(after.value) : true;
    if (!valueOk || !/^[0-9a-f-]{36}$/i.test(after.id)) throw invalidCursor();
  }

  const def = await cachedWorkflow(ctx, 'receivable_document');
  // A narrow invoice-date range with another sort is read range first (see rangeFirst in the query);
  // in creation order the query bounds the walk by itself (see creationRangeWhere).
  const hasRange = filters.invoiceDateFrom !== undefined || filters.invoiceDateTo !== undefined;
  const rangeFirst =
    hasRange && sort !== 'invoice_date' && sort !== 'created_at'
      ? (await countRangeUpTo(db, { organizationId, from: filters.invoiceDateFrom, to: filters.invoiceDateTo, cap: RANGE_FIRST_CAP })) < RANGE_FIRST_CAP
      : false;
  // With q, the customers whose legal name contains it are read in the page's statement, which also
  // picks the plan by their count (see qPageWhere in the query).
  const rows = await listDocumentRows(db, { organizationId, today: ctx.today, sort, order, filters, after, take: limit + 1, rangeFirst });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];

  return {
    documents: page.map((doc) => documentHeaderView(doc, { def, baseCurrency: ctx.org.baseCurrency, attachmentIds: doc.attachmentIds })),
    next_cursor: rows.length > limit && last ? encodeCursor(secret, binding, { value: last.sortValue, id: last.id }) : null,
  };
}
