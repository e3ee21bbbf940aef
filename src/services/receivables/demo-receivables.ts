import type { Database } from '../../db/client';
import { findOrganization } from '../../db/queries/organizations';
import { BUILT_IN_ROLES } from '../access/permissions';
import type { Principal } from '../access/principal';
import { serviceContext } from '../context';
import type { DemoOrganization, DemoSection } from '../demo/seed-demo';
import { uploadDocument } from '../documents/upload-document';
import { allocate, recordReceipt, reverseAllocation } from './allocations';
import { issueDocument } from './issue-document';
import { prepareDocument, type PrepareDocumentInput } from './prepare-document';
import {
  createAccount,
  createAnalyticAccount,
  createAnalyticAxis,
  createCustomFieldDefinition,
  createTaxCode,
  createTradeLine,
} from './reference-data';

function principalOf(org: DemoOrganization, memberId: string, role: string): Principal {
  return { organizationId: org.id, memberId, via: 'session', credentialId: memberId, permissions: new Set((BUILT_IN_ROLES as Record<string, { permissions: readonly string[] } | undefined>)[role]?.permissions ?? []) };
}

/**
 * Receivables part of the demo: chart of accounts, SST tax codes, a project axis with projects and a
 * department axis, custom fields, trade lines, and documents in every shape a response can take —
 * drafts, issued invoices with receipts, a credit note allocated against its invoice, one
 * allocation reversed, a foreign-currency invoice, a debit note.
 */
export const receivablesDemoSection: DemoSection = async (db: Database, org, { now, today }) => {
  const revenue = await createAccount(db, org.id, { code: '4000', name: 'Sales of goods' });
  const services = await createAccount(db, org.id, { code: '4100', name: 'Service revenue' });
  const receivable = await createAccount(db, org.id, { code: '1200', name: 'Trade receivables', type: 'asset' });
  const retired = await createAccount(db, org.id, { code: '4900', name: 'Old revenue (retired)', active: false });

  const sv8 = await createTaxCode(db, org.id, { code: 'SV8', name: 'Service tax 8%', rate: '8', taxType: '02' });
  const st10 = await createTaxCode(db, org.id, { code: 'ST10', name: 'Sales tax 10%', rate: '10', taxType: '01' });
  const ex = await createTaxCode(db, org.id, { code: 'EX', name: 'Exempt', rate: '0', taxType: 'E' });
  const na = await createTaxCode(db, org.id, { code: 'NA', name: 'Not applicable', rate: '0', taxType: '06' });

  const projectAxis = await createAnalyticAxis(db, org.id, { code: 'PRJ', name: 'Projects', isProjectAxis: true });
  const departmentAxis = await createAnalyticAxis(db, org.id, { code: 'DEPT', name: 'Departments' });
  const klcc = await createAnalyticAccount(db, org.id, { axisId: projectAxis.id, code: 'P-KLCC', name: 'KLCC fit-out' });
  const penang = await createAnalyticAccount(db, org.id, { axisId: projectAxis.id, code: 'P-PNG', name: 'Penang warehouse' });
  const sales = await createAnalyticAccount(db, org.id, { axisId: departmentAxis.id, code: 'SALES', name: 'Sales' });
  const ops = await createAnalyticAccount(db, org.id, { axisId: departmentAxis.id, code: 'OPS', name: 'Operations' });

  const fields = [
    await createCustomFieldDefinition(db, org.id, { key: 'po_number', label: 'Customer PO number', type: 'text' }),
    await createCustomFieldDefinition(db, org.id, { key: 'region', label: 'Sales region', type: 'select', options: ['Central', 'Northern', 'Southern', 'East Coast', 'Borneo'] }),
    await createCustomFieldDefinition(db, org.id, { key: 'delivery_date', label: 'Delivery date', type: 'date' }),
    await createCustomFieldDefinition(db, org.id, { key: 'urgent', label: 'Urgent', type: 'boolean' }),
  ];

  const customer = org.customers.find((c) => c.is_active && c.currency === org.base_currency);
  const preparerMember = org.members.find((m) => m.active && m.role === 'clerk') ?? org.members.find((m) => m.active && m.role === 'owner')!;
  const issuerMember = org.members.find((m) => m.active && m.role === 'accountant' && m.id !== preparerMember.id) ?? org.members.find((m) => m.active && m.role === 'owner')!;
  const sole = preparerMember.id === issuerMember.id;
  const preparer = principalOf(org, preparerMember.id, preparerMember.role);
  const settings = await findOrganization(db, { organizationId: org.id });
  if (!settings) throw new Error(`no organization ${org.id}`);
  const asPreparer = serviceContext(db, preparer, settings, now);
  const asIssuer = serviceContext(db, principalOf(org, issuerMember.id, issuerMember.role), settings, now);

  const documents: { id: string; kind: string; state: string; reference: string | null; currency: string }[] = [];
  const tradeLines: { id: string; kind: string; customer_id: string; quantity: string; quantity_invoiced: string }[] = [];
  const issue = async (id: string) =>
    issueDocument(asIssuer, {
      id,
      via: sole ? 'sole_owner_exception' : 'grant',
      reason: sole ? 'Sole owner: no one else can issue' : 'Checked against the delivery order',
    });
  const prepare = async (input: PrepareDocumentInput) => {
    const doc = await prepareDocument(asPreparer, input);
    documents.push({ id: doc.id, kind: doc.kind, state: doc.state, reference: doc.reference, currency: doc.currency });
    return doc;
  };
  const refresh = (id: string, state: string, reference: string) => {
    const d = documents.find((x) => x.id === id);
    if (d) Object.assign(d, { state, reference });
  };

  if (customer) {
    const delivery = await createTradeLine(db, org.id, { customerId: customer.id, kind: 'delivery', reference: 'DO-1001', description: 'Steel brackets', quantity: '500', unitCode: 'C62' });
    const salesReturn = await createTradeLine(db, org.id, { customerId: customer.id, kind: 'sales_return', reference: 'RN-2001', description: 'Steel brackets returned', quantity: '20', unitCode: 'C62' });

    // A draft with a project, departments, custom fields and an attachment.
    const pdf = await uploadDocument(asPreparer, {
      filename: 'purchase-order-7781.pdf',
      declared_type: 'application/pdf',
      content: Buffer.from(`%PDF-1.4\n% demo purchase order for ${org.name}\n%%EOF\n`),
    });
    await prepare({
      kind: 'sales_invoice',
      customer_id: customer.id,
      customer_reference: 'PO-7781',
      custom_fields: { po_number: 'PO-7781', region: 'Central', urgent: 'false' },
      attachment_ids: [pdf.id],
      lines: [
        {
          account_id: services.id,
          description: 'Site installation',
          quantity: '3',
          unit_price: '120.50',
          discount_amount: '10.00',
          unit_code: 'HUR',
          tax_code_id: sv8.id,
          shares: [
            { analytic_account_id: klcc.id, percentage: '100' },
            { analytic_account_id: ops.id, percentage: '100' },
          ],
        },
      ],
    });

    // Issued invoice, paid in part by a receipt, credited in part by an issued credit note.
    const inv1 = await prepare({
      kind: 'sales_invoice',
      customer_id: customer.id,
      customer_reference: 'PO-7702',
      lines: [
        { account_id: revenue.id, description: 'Steel brackets', quantity: '200', unit_price: '4.75', unit_code: 'C62', tax_code_id: st10.id, trade_line_id: delivery.id, classification_code: '022' },
        {
          account_id: services.id,
          description: 'Delivery and installation',
          quantity: '1',
          unit_price: '350.00',
          tax_code_id: sv8.id,
          shares: [
            { analytic_account_id: klcc.id, percentage: '60' },
            { analytic_account_id: penang.id, percentage: '40' },
            { analytic_account_id: sales.id, percentage: '100' },
          ],
        },
      ],
    });
    refresh(inv1.id, 'issued', (await issue(inv1.id)).reference);
    const receipt = await recordReceipt(asIssuer, { customer_id: customer.id, reference: 'OR-0001', currency: customer.currency, amount: '500.00', received_on: today });
    await allocate(asIssuer, { invoice_id: inv1.id, receipt_id: receipt.id, amount: '500.00', effective_on: today });
    const cn = await prepare({
      kind: 'customer_credit_note',
      customer_id: customer.id,
      reason: 'Ten brackets returned damaged',
      original_invoice_id: inv1.id,
      lines: [{ account_id: revenue.id, description: 'Steel brackets returned', quantity: '10', unit_price: '4.75', unit_code: 'C62', tax_code_id: st10.id, trade_line_id: salesReturn.id }],
    });
    refresh(cn.id, 'issued', (await issue(cn.id)).reference);
    await allocate(asIssuer, { invoice_id: inv1.id, credit_note_id: cn.id, amount: cn.gross_amount, effective_on: today });

    // Issued invoice with an exempt line; its receipt allocation was reversed, then re-applied in part.
    const inv2 = await prepare({
      kind: 'sales_invoice',
      customer_id: customer.id,
      lines: [
        { account_id: services.id, description: 'Training for a statutory body', quantity: '1', unit_price: '2500.00', tax_code_id: ex.id, tax_exemption_reason: 'Exempted under the Service Tax (Persons Exempted from Payment of Tax) Order 2018' },
        { account_id: revenue.id, description: 'Printed manuals', quantity: '20', unit_price: '12.35', tax_code_id: na.id },
      ],
    });
    refresh(inv2.id, 'issued', (await issue(inv2.id)).reference);
    const receipt2 = await recordReceipt(asIssuer, { customer_id: customer.id, reference: 'OR-0002', currency: customer.currency, amount: '2747.00', received_on: today });
    const wrong = await allocate(asIssuer, { invoice_id: inv2.id, receipt_id: receipt2.id, amount: '2747.00', effective_on: today });
    await reverseAllocation(asIssuer, { allocation_id: wrong.id, effective_on: today });
    await allocate(asIssuer, { invoice_id: inv2.id, receipt_id: receipt2.id, amount: '1000.00', effective_on: today });

    // A debit note draft against the first invoice.
    await prepare({
      kind: 'customer_debit_note',
      customer_id: customer.id,
      reason: 'Freight charged after delivery',
      original_invoice_id: inv1.id,
      lines: [{ account_id: revenue.id, description: 'Freight', quantity: '1', unit_price: '85.00', tax_code_id: st10.id }],
    });
    tradeLines.push(
      { id: delivery.id, kind: 'delivery', customer_id: customer.id, quantity: '500', quantity_invoiced: '200' },
      { id: salesReturn.id, kind: 'sales_return', customer_id: customer.id, quantity: '20', quantity_invoiced: '10' },
    );
  }

  const foreign = org.customers.find((c) => c.is_active && c.currency !== org.base_currency);
  if (foreign) {
    await prepare({
      kind: 'sales_invoice',
      customer_id: foreign.id,
      currency: foreign.currency,
      fx_rate: '4.4712',
      lines: [{ account_id: services.id, description: 'Remote support, March', quantity: '10', unit_price: '99.99', unit_code: 'HUR', tax_code_id: sv8.id }],
    });
  }

  Object.assign(org, {
    accounts: [revenue, services, receivable, retired].map((a) => ({ id: a.id, code: a.code, name: a.name, type: a.type, active: a.active })),
    tax_codes: [sv8, st10, ex, na].map((c) => ({ id: c.id, code: c.code, rate: c.rate.replace(/\.?0+$/, ''), tax_type: c.taxType })),
    analytic_axes: [projectAxis, departmentAxis].map((a) => ({ id: a.id, code: a.code, name: a.name, is_project_axis: a.isProjectAxis })),
    projects: [klcc, penang].map((p) => ({ id: p.id, code: p.code, name: p.name })),
    departments: [sales, ops].map((p) => ({ id: p.id, code: p.code, name: p.name })),
    custom_fields: fields.map((f) => ({ id: f.id, key: f.key, label: f.label, type: f.type, options: f.options, required: f.required })),
    trade_lines: tradeLines,
    invoices: documents,
  });
};
