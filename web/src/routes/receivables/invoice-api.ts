import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { trpc } from '../../api/trpc';

/**
 * The reads of the invoice screens: documents (list, one, its e-invoice), the draft editor's
 * reference data (customers, revenue accounts, tax codes, analytic axes and accounts) and the
 * server's preview of a draft's totals. Query keys are the procedure path and its input.
 */
export type InvoiceAnswer = Awaited<ReturnType<typeof trpc.receivables.invoices.get.query>>;
export type InvoiceListPage = Awaited<ReturnType<typeof trpc.receivables.invoices.list.query>>;
export type InvoiceListItem = InvoiceListPage['documents'][number];
export type InvoiceDescriptor = InvoiceAnswer['available_transitions'][number];
export type EinvoiceAnswer = Awaited<ReturnType<typeof trpc.receivables.invoices.einvoice.query>>;
export type PreviewInput = Parameters<typeof trpc.receivables.invoices.preview.query>[0];
export type PreviewAnswer = Awaited<ReturnType<typeof trpc.receivables.invoices.preview.query>>;
export type Customer = Awaited<ReturnType<typeof trpc.receivables.customers.get.query>>;
export type InvoiceListInput = NonNullable<Parameters<typeof trpc.receivables.invoices.list.query>[0]>;

export const invoiceListQuery = (input: InvoiceListInput) =>
  queryOptions({
    queryKey: ['receivables.invoices.list', input],
    queryFn: () => trpc.receivables.invoices.list.query(input),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });

export const invoiceQuery = (id: string) =>
  queryOptions({ queryKey: ['receivables.invoices.get', { id }], queryFn: () => trpc.receivables.invoices.get.query({ id }), staleTime: 5_000 });

/** A document's e-invoice, read again every few seconds while LHDN has not answered (submitted, or a job retrying). */
export const einvoiceQuery = (id: string) =>
  queryOptions({
    queryKey: ['receivables.invoices.einvoice', { id }],
    queryFn: () => trpc.receivables.invoices.einvoice.query({ id }),
    refetchInterval: (query) => (query.state.data && (query.state.data.status === 'submitted' || query.state.data.next_attempt_at) ? 3_000 : false),
  });

export const customerQuery = (id: string) =>
  queryOptions({ queryKey: ['receivables.customers.get', { id }], queryFn: () => trpc.receivables.customers.get.query({ id }), staleTime: 60_000 });

export const previewQuery = (input: PreviewInput) =>
  queryOptions({
    queryKey: ['receivables.invoices.preview', input],
    queryFn: () => trpc.receivables.invoices.preview.query(input),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });

/** Every page of a settings list (reference data is short: a few pages at most). */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const p = await page(cursor);
    items.push(...p.items);
    if (!p.next_cursor) break;
    cursor = p.next_cursor;
  }
  return items;
}

/** The active customers, by legal name (the editor's and the list filter's choices). */
export const customersQuery = queryOptions({
  queryKey: ['receivables.customers.list', 'active'],
  staleTime: 5 * 60_000,
  queryFn: async () => {
    const all: Customer[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await trpc.receivables.customers.list.query({ is_active: true, sort: 'legal_name', limit: 100, ...(cursor ? { cursor } : {}) });
      all.push(...page.customers);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    return all;
  },
});

/** What a document line can name: revenue accounts, tax codes, analytic axes and their accounts (active ones). */
export const invoiceReferenceQuery = queryOptions({
  queryKey: ['receivables.invoiceReference'],
  staleTime: 10 * 60_000,
  queryFn: async () => {
    const s = trpc.settings;
    const [accounts, taxCodes, axes, analyticAccounts] = await Promise.all([
      allPages((cursor) => s.accounts.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.taxCodes.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.analyticAxes.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.analyticAccounts.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
    ]);
    return {
      accounts: accounts.filter((a) => a.active && a.type === 'revenue'),
      allAccounts: accounts,
      taxCodes: taxCodes.filter((t) => t.active),
      allTaxCodes: taxCodes,
      axes: axes.filter((a) => a.active),
      analyticAccounts: analyticAccounts.filter((a) => a.active),
    };
  },
});
export type InvoiceReference = Awaited<ReturnType<NonNullable<typeof invoiceReferenceQuery.queryFn>>>;

/** The console's label of a descriptor: the server's words in the person's language, English where it has none. */
export function labelOf(labels: Record<string, string | undefined>, language: string): string {
  return labels[language] ?? labels.en ?? '';
}
