import { queryOptions } from '@tanstack/react-query';
import { trpc } from '../../../api/trpc';

/**
 * The reads of the customers and receipts screens, keyed by procedure path and input: customers (a
 * page, one), a customer's account (open items, balance, MyInvois readiness), receipts (a page, one),
 * a document by id (an allocation's invoice) and the customer custom fields the form shows.
 */
export type Customer = Awaited<ReturnType<typeof trpc.receivables.customers.get.query>>;
export type CustomerListInput = NonNullable<Parameters<typeof trpc.receivables.customers.list.query>[0]>;
export type OpenItemsInput = Parameters<typeof trpc.receivables.customers.openItems.query>[0];
export type OpenItem = Awaited<ReturnType<typeof trpc.receivables.customers.openItems.query>>['documents'][number];
export type Receipt = Awaited<ReturnType<typeof trpc.receivables.receipts.get.query>>;
export type ReceiptAllocation = Receipt['allocations'][number];
export type ReceiptListInput = NonNullable<Parameters<typeof trpc.receivables.receipts.list.query>[0]>;
export type Readiness = Awaited<ReturnType<typeof trpc.receivables.customers.einvoiceReadiness.query>>;

export const customerListQuery = (input: CustomerListInput) =>
  queryOptions({ queryKey: ['receivables.customers.list', input], queryFn: () => trpc.receivables.customers.list.query(input) });

export const customerQuery = (id: string) =>
  queryOptions({ queryKey: ['receivables.customers.get', { id }], queryFn: () => trpc.receivables.customers.get.query({ id }) });

export const openItemsQuery = (input: OpenItemsInput) =>
  queryOptions({ queryKey: ['receivables.customers.openItems', input], queryFn: () => trpc.receivables.customers.openItems.query(input) });

export const balanceQuery = (id: string) =>
  queryOptions({ queryKey: ['receivables.customers.balance', { id }], queryFn: () => trpc.receivables.customers.balance.query({ id }) });

export const readinessQuery = (id: string) =>
  queryOptions({ queryKey: ['receivables.customers.einvoiceReadiness', { id }], queryFn: () => trpc.receivables.customers.einvoiceReadiness.query({ id }) });

export const receiptListQuery = (input: ReceiptListInput) =>
  queryOptions({ queryKey: ['receivables.receipts.list', input], queryFn: () => trpc.receivables.receipts.list.query(input) });

export const receiptQuery = (id: string) =>
  queryOptions({ queryKey: ['receivables.receipts.get', { id }], queryFn: () => trpc.receivables.receipts.get.query({ id }) });

export const documentQuery = (id: string) =>
  queryOptions({ queryKey: ['receivables.invoices.get', { id }], queryFn: () => trpc.receivables.invoices.get.query({ id }), staleTime: 30_000 });

/** The organization's active custom fields on customers (none for a person who may not read the settings). */
export const customerFieldsQuery = queryOptions({
  queryKey: ['settings.customFields.list', { record_type: 'customer' }],
  staleTime: 10 * 60_000,
  retry: false,
  queryFn: async () => {
    try {
      const page = await trpc.settings.customFields.list.query({ record_type: 'customer', limit: 100 });
      return page.items.filter((f) => f.active);
    } catch {
      return [];
    }
  },
});

/** Every change to money or a customer refreshes what shows it. */
export const RECEIVABLES_KEYS = [
  ['receivables.customers.list'],
  ['receivables.customers.get'],
  ['receivables.customers.openItems'],
  ['receivables.customers.balance'],
  ['receivables.customers.einvoiceReadiness'],
  ['receivables.receipts.list'],
  ['receivables.receipts.get'],
  ['receivables.invoices.get'],
  ['receivables.invoices.list'],
] as const;
