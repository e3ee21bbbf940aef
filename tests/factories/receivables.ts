import type { Database } from '../../src/db/client';
import {
  createAccount,
  createAnalyticAccount,
  createAnalyticAxis,
  createCustomFieldDefinition,
  createTaxCode,
  createTradeLine,
} from './setup';
import * as allocations from '../../src/services/receivables/allocations';
import { issueDocument } from '../../src/services/receivables/issue-document';
import { contextFor } from './context';
import { createTestCustomer } from './customer';
import { createTestOrganization } from './organization';

/** Reference data of one organization, as most receivables tests need it. */
export async function createReceivablesSetup(db: Database, organizationId: string) {
  const revenue = await createAccount(db, organizationId, { code: '4000', name: 'Sales revenue' });
  const services = await createAccount(db, organizationId, { code: '4100', name: 'Service revenue' });
  const retiredAccount = await createAccount(db, organizationId, { code: '4900', name: 'Old revenue', active: false });
  const sv8 = await createTaxCode(db, organizationId, { code: 'SV8', name: 'Service tax 8%', rate: '8', taxType: '02' });
  const st10 = await createTaxCode(db, organizationId, { code: 'ST10', name: 'Sales tax 10%', rate: '10', taxType: '01' });
  const exempt = await createTaxCode(db, organizationId, { code: 'EX', name: 'Exempt', rate: '0', taxType: 'E' });
  const na = await createTaxCode(db, organizationId, { code: 'NA', name: 'Not applicable', rate: '0', taxType: '06' });
  const retiredTax = await createTaxCode(db, organizationId, { code: 'SV6', name: 'Service tax 6% (old)', rate: '6', taxType: '02', active: false });
  const projectAxis = await createAnalyticAxis(db, organizationId, { code: 'PRJ', name: 'Projects', isProjectAxis: true });
  const departmentAxis = await createAnalyticAxis(db, organizationId, { code: 'DEPT', name: 'Departments' });
  const alpha = await createAnalyticAccount(db, organizationId, { axisId: projectAxis.id, code: 'P-ALPHA', name: 'Project Alpha' });
  const beta = await createAnalyticAccount(db, organizationId, { axisId: projectAxis.id, code: 'P-BETA', name: 'Project Beta' });
  const closedProject = await createAnalyticAccount(db, organizationId, { axisId: projectAxis.id, code: 'P-OLD', name: 'Closed project', active: false });
  const sales = await createAnalyticAccount(db, organizationId, { axisId: departmentAxis.id, code: 'SALES', name: 'Sales' });
  const ops = await createAnalyticAccount(db, organizationId, { axisId: departmentAxis.id, code: 'OPS', name: 'Operations' });
  return { revenue, services, retiredAccount, sv8, st10, exempt, na, retiredTax, projectAxis, departmentAxis, alpha, beta, closedProject, sales, ops };
}

export type ReceivablesSetup = Awaited<ReturnType<typeof createReceivablesSetup>>;

export async function createTestCustomFields(db: Database, organizationId: string) {
  await createCustomFieldDefinition(db, organizationId, { key: 'po_number', label: 'PO number', type: 'text', required: true });
  await createCustomFieldDefinition(db, organizationId, { key: 'region', label: 'Region', type: 'select', options: ['Central', 'Northern', 'Borneo'] });
  await createCustomFieldDefinition(db, organizationId, { key: 'weight_kg', label: 'Weight (kg)', type: 'number' });
  await createCustomFieldDefinition(db, organizationId, { key: 'delivered_on', label: 'Delivered on', type: 'date' });
  await createCustomFieldDefinition(db, organizationId, { key: 'urgent', label: 'Urgent', type: 'boolean' });
  await createCustomFieldDefinition(db, organizationId, { key: 'legacy_code', label: 'Legacy code', type: 'text', active: false });
}

export { createTradeLine, issueDocument };

import { uploadDocument } from '../../src/services/documents/upload-document';

/** Uploads a small PDF as the member (the service POST /v1/documents calls). */
export async function uploadTestDocument(db: Database, organizationId: string, memberId: string, name = 'receipt.pdf') {
  return uploadDocument(await contextFor(db, organizationId, memberId), {
    filename: name,
    declared_type: 'application/pdf',
    content: Buffer.from(`%PDF-1.4\n% ${name} ${Math.random()}\n%%EOF\n`),
  });
}

/** Issues a document as a member other than the preparer would (the service the people's operations will call). */
export async function issueTestDocument(db: Database, organizationId: string, documentId: string, actorMemberId: string, now = new Date()) {
  return issueDocument(await contextFor(db, organizationId, actorMemberId, now), { id: documentId, reason: 'Issued in a test', via: 'grant' });
}

// Receipts and allocations as the tests write them (people's operations not public yet): the
// services of allocations.ts, acting as the member `createdBy`.

export async function recordReceipt(
  db: Database,
  q: { organizationId: string; customerId: string; reference: string; currency: string; amount: string; fxRate?: string; receivedOn: string; createdBy: string },
) {
  return allocations.recordReceipt(await contextFor(db, q.organizationId, q.createdBy), {
    customer_id: q.customerId,
    reference: q.reference,
    currency: q.currency,
    amount: q.amount,
    ...(q.fxRate !== undefined ? { fx_rate: q.fxRate } : {}),
    received_on: q.receivedOn,
  });
}

export async function allocate(
  db: Database,
  q: { organizationId: string; invoiceId: string; amount: string; effectiveOn: string; createdBy: string; receiptId?: string; creditNoteId?: string; now?: Date },
) {
  return allocations.allocate(await contextFor(db, q.organizationId, q.createdBy, q.now), {
    invoice_id: q.invoiceId,
    amount: q.amount,
    effective_on: q.effectiveOn,
    ...(q.receiptId !== undefined ? { receipt_id: q.receiptId } : {}),
    ...(q.creditNoteId !== undefined ? { credit_note_id: q.creditNoteId } : {}),
  });
}

export async function reverseAllocation(db: Database, q: { organizationId: string; allocationId: string; effectiveOn: string; createdBy: string; now?: Date }) {
  return allocations.reverseAllocation(await contextFor(db, q.organizationId, q.createdBy, q.now), { allocation_id: q.allocationId, effective_on: q.effectiveOn });
}

/**
 * An organization ready to prepare documents: reference data, a MYR customer on 30 days, and
 * builders of a valid one-line sales invoice body (3 × 120.50 less 10.00 at SST service tax 8%).
 */
export async function createInvoiceWorld(db: Database) {
  const org = await createTestOrganization(db);
  const ref = await createReceivablesSetup(db, org.id);
  const customer = await createTestCustomer(db, org.id, { paymentTermsDays: 30 });
  const line = (over: Record<string, unknown> = {}) => ({
    account_id: ref.revenue.id,
    description: 'Consulting',
    quantity: '3',
    unit_price: '120.50',
    discount_amount: '10.00',
    tax_code_id: ref.sv8.id,
    ...over,
  });
  const body = (over: Record<string, unknown> = {}) => ({ kind: 'sales_invoice', customer_id: customer.id, lines: [line()], ...over });
  return { org, ref, customer, line, body };
}

export type InvoiceWorld = Awaited<ReturnType<typeof createInvoiceWorld>>;
