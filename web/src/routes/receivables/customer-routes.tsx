import { createRoute } from '@tanstack/react-router';
import { lazy } from 'react';
import { z } from 'zod';
import { appRoute, Lazy } from '../app-route';

/** Customers (their open items and balance) and receipts (recording, allocating, reversing). */

// Loaded when first visited: the sign-in and To do screens stay small.
const CustomersPage = lazy(() => import('./customers/list').then((m) => ({ default: m.CustomersPage })));
const CustomerPage = lazy(() => import('./customers/detail').then((m) => ({ default: m.CustomerPage })));
const NewCustomerPage = lazy(() => import('./customers/form').then((m) => ({ default: m.NewCustomerPage })));
const EditCustomerPage = lazy(() => import('./customers/form').then((m) => ({ default: m.EditCustomerPage })));
const ReceiptsPage = lazy(() => import('./receipts/list').then((m) => ({ default: m.ReceiptsPage })));
const ReceiptPage = lazy(() => import('./receipts/detail').then((m) => ({ default: m.ReceiptPage })));
const NewReceiptPage = lazy(() => import('./receipts/new').then((m) => ({ default: m.NewReceiptPage })));

const id = z.string().uuid().optional().catch(undefined);

const customersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers',
  validateSearch: z.object({
    q: z.string().max(100).optional().catch(undefined),
    cursor: z.string().max(2000).optional().catch(undefined),
    inactive: z.boolean().optional().catch(undefined),
  }),
  component: function CustomersRoute() {
    const search = customersRoute.useSearch();
    return <Lazy>{<CustomersPage {...search} />}</Lazy>;
  },
});

const newCustomerRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers/new',
  component: () => <Lazy>{<NewCustomerPage />}</Lazy>,
});

const customerRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers/$customerId',
  component: function CustomerRoute() {
    const { customerId } = customerRoute.useParams();
    return <Lazy>{<CustomerPage key={customerId} customerId={customerId} />}</Lazy>;
  },
});

const editCustomerRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers/$customerId/edit',
  component: function EditCustomerRoute() {
    const { customerId } = editCustomerRoute.useParams();
    return <Lazy>{<EditCustomerPage key={customerId} customerId={customerId} />}</Lazy>;
  },
});

const receiptsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/receipts',
  validateSearch: z.object({
    customer: id,
    open: z.boolean().optional().catch(undefined),
    cursor: z.string().max(2000).optional().catch(undefined),
  }),
  component: function ReceiptsRoute() {
    const search = receiptsRoute.useSearch();
    return <Lazy>{<ReceiptsPage {...search} />}</Lazy>;
  },
});

const newReceiptRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/receipts/new',
  validateSearch: z.object({ customer: id }),
  component: function NewReceiptRoute() {
    const { customer } = newReceiptRoute.useSearch();
    return <Lazy>{<NewReceiptPage customer={customer} />}</Lazy>;
  },
});

const receiptRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/receipts/$receiptId',
  component: function ReceiptRoute() {
    const { receiptId } = receiptRoute.useParams();
    return <Lazy>{<ReceiptPage key={receiptId} receiptId={receiptId} />}</Lazy>;
  },
});

export const customerRoutes = [customersRoute, newCustomerRoute, customerRoute, editCustomerRoute, receiptsRoute, newReceiptRoute, receiptRoute] as const;
