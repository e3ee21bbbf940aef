import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { appRoute } from '../app-route';
import { invoiceListSearch } from './invoice-search';

/** The accountant's invoice screens: the list, the draft editor, the document, and the e-invoice monitor (each loaded on first visit). */

const invoicesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/invoices',
  validateSearch: invoiceListSearch,
  // The To do screen's "e-invoices needing attention" is the monitor's first section.
  beforeLoad: ({ search }) => {
    if (search.view === 'einvoice_attention') throw redirect({ to: '/einvoices' });
  },
  component: lazyRouteComponent(() => import('./lazy-screens'), 'InvoiceListRoute'),
});

export const newInvoiceSearch = z.object({
  kind: z.enum(['sales_invoice', 'customer_credit_note', 'customer_debit_note']).optional().catch(undefined),
  original: z.uuid().optional().catch(undefined),
});

const newInvoiceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/invoices/new',
  validateSearch: newInvoiceSearch,
  component: lazyRouteComponent(() => import('./lazy-screens'), 'NewInvoiceRoute'),
});

const invoiceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/invoices/$invoiceId',
  component: lazyRouteComponent(() => import('./lazy-screens'), 'InvoiceRoute'),
});

const editInvoiceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/invoices/$invoiceId/edit',
  component: lazyRouteComponent(() => import('./lazy-screens'), 'EditInvoiceRoute'),
});

const einvoicesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/einvoices',
  component: lazyRouteComponent(() => import('./lazy-screens'), 'EinvoiceMonitorPage'),
});

export const receivablesRoutes = [invoicesRoute, newInvoiceRoute, invoiceRoute, editInvoiceRoute, einvoicesRoute] as const;
