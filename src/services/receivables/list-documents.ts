/**
 * One page of the receivables list (contract 4.3, docs/design.md §9). Read only; it never reads
 * another organization's documents, and the page's cost never grows with the page size (a fixed
 * number of statements: the page with its attachments, q's customer names included; with an
 * invoice-date range in another order than creation, a bounded count before it; the workflow
 * comes from the organization's configuration cache).
 */
import { cachedWorkflow } from '../org-config-cache';
import {
  countRangeUpTo,
  listDocuments as listDocumentRows,
  updatedHorizon,
  SORT_VALUE_PATTERN,
  type ListFilters,
  type ListOrder,
  type ListSort,
} from '../../db/queries/receivable-document-list';
import type { DocumentKind } from '../../db/schema';
import type { CursorBinding } from '../../lib/cursor';
import { keysetPage } from '../keyset-page';
import { validationError } from '../../lib/errors';
import type { DocumentListPage } from '../../contract/receivables/document-list';
import type { ServiceContext } from '../context';
import { documentHeaderView } from './document-view';

export type { DocumentListPage };

export interface ListDocumentsInput {
  kind?: DocumentKind;
  group?: 'only' | 'none';
  project_id?: string;
  outstanding?: boolean;
  state?: string[];
  customer_id?: string;
  currency?: string;
  overdue?: boolean;
  updated_after?: string;
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
  const organizationId = ctx.org.id;
  const sort = input.sort ?? 'created_at';
  const order = input.order ?? 'desc';
  const limit = input.limit ?? DEFAULT_LIMIT;
  if (input.invoice_date_from && input.invoice_date_to && input.invoice_date_from > input.invoice_date_to) {
    throw validationError('/query/invoice_date_to', 'must not be before invoice_date_from');
  }
  const def = await cachedWorkflow(ctx, 'receivable_document');
  const states = input.state === undefined ? undefined : knownStates(def.states.map((s) => s.key), input.state);
  const filters: ListFilters = {
    kind: input.kind,
    states,
    customerId: input.customer_id?.toLowerCase(),
    currency: input.currency,
    overdue: input.overdue,
    updatedAfter: input.updated_after,
    group: input.group,
    projectId: input.project_id?.toLowerCase(),
    outstanding: input.outstanding,
    q: input.q,
    invoiceDateFrom: input.invoice_date_from,
    invoiceDateTo: input.invoice_date_to,
  };
  // The cursor is bound to everything that decides which rows come in which order; not to limit.
  const binding: CursorBinding = { sort, order, filters: { ...filters } };
  // A reference position may be null (drafts sort last); every other sort's is a value of its type.
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit, value: sort === 'reference' ? undefined : SORT_VALUE_PATTERN[sort] });
  const after = keyset.after;

  // A narrow invoice-date range with another sort is read range first (see rangeFirst in the query);
  // in creation order the query bounds the walk by itself (see creationRangeWhere).
  const hasRange = filters.invoiceDateFrom !== undefined || filters.invoiceDateTo !== undefined;
  const rangeFirst =
    hasRange && sort !== 'invoice_date' && sort !== 'created_at'
      ? (await countRangeUpTo(db, { organizationId, from: filters.invoiceDateFrom, to: filters.invoiceDateTo, cap: RANGE_FIRST_CAP })) < RANGE_FIRST_CAP
      : false;
  // With q, the customers whose legal name contains it are read in the page's statement, which also
  // picks the plan by their count (see qPageWhere in the query).
  // updated_after: what writes still in progress changed is held back (see updatedHorizon); not bound into the cursor.
  const updatedBefore = filters.updatedAfter !== undefined ? await updatedHorizon(db) : undefined;
  const rows = await listDocumentRows(db, {
    organizationId,
    today: ctx.today,
    sort,
    order,
    filters: { ...filters, updatedBefore },
    after,
    take: keyset.take,
    rangeFirst,
  });
  const { page, next_cursor } = keyset.cut(rows, (doc) => ({ value: doc.sortValue, id: doc.id }));
  return {
    documents: page.map((doc) => documentHeaderView(doc, { def, baseCurrency: ctx.org.baseCurrency, attachmentIds: doc.attachmentIds })),
    next_cursor,
  };
}

/** The state filter's keys, each once and sorted (the cursor binds the set, not its spelling); an unknown key is 422 at its index. */
function knownStates(keys: readonly string[], asked: readonly string[]): string[] {
  asked.forEach((key, i) => {
    if (!keys.includes(key)) throw validationError(`/query/state/${i}`, `is not a state of the receivables workflow (${keys.join(', ')})`);
  });
  return [...new Set(asked)].sort();
}
