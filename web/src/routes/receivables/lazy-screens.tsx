import { useParams, useSearch } from '@tanstack/react-router';
import { EditDraftPage, NewInvoicePage, type NewDocumentSearch } from './invoice-editor';
import { InvoiceListPage } from './invoice-list';
import type { InvoiceListSearch } from './invoice-search';
import { InvoicePage } from './invoice-page';

/** The invoice screens as the routes load them (one chunk, loaded when an invoice screen is first visited). */
export { EinvoiceMonitorPage } from './einvoice-monitor';

export function InvoiceListRoute() {
  const search = useSearch({ strict: false }) as InvoiceListSearch;
  return <InvoiceListPage search={search} />;
}

export function NewInvoiceRoute() {
  const search = useSearch({ strict: false }) as NewDocumentSearch;
  return <NewInvoicePage key={`${search.kind ?? ''}:${search.original ?? ''}`} kind={search.kind} original={search.original} />;
}

export function InvoiceRoute() {
  const { invoiceId } = useParams({ strict: false }) as { invoiceId: string };
  return <InvoicePage key={invoiceId} invoiceId={invoiceId} />;
}

export function EditInvoiceRoute() {
  const { invoiceId } = useParams({ strict: false }) as { invoiceId: string };
  return <EditDraftPage key={invoiceId} invoiceId={invoiceId} />;
}
