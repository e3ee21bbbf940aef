import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { InProcessClient } from '../client';
import { uploadDocument } from '../services/documents/upload-document';
import { as, contextOf } from './actors';
import type { Cast, DemoRun, OrganizationSpec, SeededOrganization } from './people';
import type { ReferenceData } from './reference-data';
import type { DemoCustomer, DemoEinvoicing, DemoDocument, DemoMember, DemoOrganization } from './types';
import type { createCustomerInput } from '../routers/receivables/customers/create-customer';
import type { createInvoiceInput } from '../contract/receivables/documents';
import type { z } from 'zod';

/**
 * Receivables of the demo. Customers are created and changed through receivables.customers.*, the
 * group company mapped through settings.counterpartyMappings, delivery and return lines through
 * settings.tradeLines, and documents prepared through receivables.invoices.create, each by the member
 * who would. Issuing, receipts and allocations are people's decisions without an operation yet: they
 * go to their services with the acting member's session context. Documents come in every shape an
 * answer can take: drafts (one with a project, departments, custom fields and an attachment), issued
 * invoices with receipts, a credit note allocated against its invoice, one allocation reversed, a
 * foreign-currency invoice, a debit note.
 */

interface CustomerSpec extends z.input<typeof createCustomerInput> {
  /** Created, then made inactive (receivables.customers.update). */
  inactive?: true;
  /** Mapped to the group's sister company (settings.counterpartyMappings.create). */
  groupCompany?: true;
}

const CUSTOMERS: Record<OrganizationSpec['key'], CustomerSpec[]> = {
  acme: [
    {
      code: 'C-LOCAL',
      legal_name: 'Kedai Runcit Maju Sdn Bhd',
      registration_no: '200801012345',
      registration_type: 'brn',
      tin: 'C11223344050',
      sst_registration_no: 'W10-1234-56789012',
      email: 'accounts@maju.example.my',
      phone: '+60312345678',
      address: { line1: '12 Jalan Ampang', city: 'Kuala Lumpur', postcode: '50450', state: '14' },
      payment_terms_days: 30,
    },
    {
      code: 'C-USD',
      legal_name: 'Pacific Imports LLC',
      currency: 'USD',
      country_code: 'US',
      payment_terms_days: 45,
      tin: 'EI00000000020',
      address: { line1: '500 Market Street', city: 'San Francisco', postcode: '94105' },
    },
    { code: 'C-GROUP', legal_name: 'Acme Properties Sdn Bhd', registration_no: '201901054321', registration_type: 'brn', payment_terms_days: 60, groupCompany: true },
    { code: 'C-OLD', legal_name: 'Dormant Trading Enterprise', party_kind: 'organization', inactive: true },
  ],
  borneo: [{ code: 'B-001', legal_name: 'Kuching Freight Sdn Bhd', payment_terms_days: 14 }],
  solo: [{ code: 'S-001', legal_name: 'Tan Wei Ming', party_kind: 'individual', registration_type: 'nric', registration_no: '880101145566' }],
  'acme-properties': [],
};

export async function seedCustomers(deps: AppDeps, org: SeededOrganization, cast: Cast, groupSibling?: SeededOrganization): Promise<DemoCustomer[]> {
  const manager = cast.issuer;
  const out: DemoCustomer[] = [];
  for (const { inactive, groupCompany, ...input } of CUSTOMERS[org.spec.key]) {
    let customer = await as(deps, manager).receivables.customers.create(input);
    if (inactive) customer = await as(deps, manager, { ifMatch: customer.revision }).receivables.customers.update({ id: customer.id, is_active: false });
    if (groupCompany && groupSibling) {
      await as(deps, cast.owner).settings.counterpartyMappings.create({ customer_id: customer.id, company_organization_id: groupSibling.id, valid_from: '2020-01-01' });
      customer = await as(deps, manager).receivables.customers.get({ id: customer.id });
    }
    out.push({
      id: customer.id,
      code: customer.code,
      legal_name: customer.legal_name,
      currency: customer.currency,
      is_active: customer.is_active,
      is_group_company: customer.is_group_company,
    });
  }
  return out;
}

type Printed = Pick<DemoOrganization, 'trade_lines' | 'invoices'>;

export async function seedDocuments(
  deps: AppDeps,
  run: DemoRun,
  org: SeededOrganization,
  cast: Cast,
  customers: DemoCustomer[],
  ref: ReferenceData,
  einvoicing?: DemoEinvoicing,
): Promise<Printed> {
  const { preparer, issuer } = cast;
  if (einvoicing) await turnOnEinvoicing(deps, org, cast, customers, einvoicing);
  const sole = preparer.id === issuer.id;
  const { services } = ref.accounts;
  const { serviceTax } = ref.taxCodes;
  const asPreparer = await contextOf(deps, preparer, run.now);

  const documents: DemoDocument[] = [];
  const tradeLines: Printed['trade_lines'] = [];
  const prepare = async (input: z.input<typeof createInvoiceInput>) => {
    const doc = await as(deps, preparer).receivables.invoices.create(input);
    documents.push({ id: doc.id, kind: doc.kind, state: doc.state, reference: doc.reference, currency: doc.currency });
    return doc;
  };
  // Issuing is the issuer's decision (receivables.invoices.transition, with their session and the
  // draft's revision); the sole owner issues their own document under the exception, with a reason.
  const issue = async (doc: { id: string; revision: number }) => {
    const issued = await as(deps, issuer, { ifMatch: doc.revision }).receivables.invoices.transition({
      id: doc.id,
      action_key: 'issue',
      ...(sole ? { reason: 'Sole owner: no one else can issue' } : {}),
    });
    if (!einvoicing) {
      Object.assign(documents.find((d) => d.id === doc.id)!, { state: issued.state, reference: issued.reference });
      return issued;
    }
    // With e-invoicing the document waits in `submitted`: LHDN (the simulator) validates it now.
    await einvoicing.settle(deps, org.id, run.now);
    const valid = await as(deps, issuer).receivables.invoices.get({ id: doc.id });
    Object.assign(documents.find((d) => d.id === doc.id)!, { state: valid.state, reference: valid.reference });
    return valid;
  };
  const receipts = () => as(deps, issuer).receivables.receipts;

  const customer = customers.find((c) => c.is_active && c.currency === org.base_currency);
  if (customer) tradeLines.push(...(await localCustomerDocuments({ deps, org, cast, ref, asPreparer, prepare, issue, receipts }, customer)));

  const foreign = customers.find((c) => c.is_active && c.currency !== org.base_currency);
  if (foreign) {
    await prepare({
      kind: 'sales_invoice',
      customer_id: foreign.id,
      currency: foreign.currency,
      fx_rate: '4.4712',
      lines: [{ account_id: services.id, description: 'Remote support, March', quantity: '10', unit_price: '99.99', unit_code: 'HUR', tax_code_id: serviceTax.id }],
    });
  }
  return { trade_lines: tradeLines, invoices: documents };
}

/**
 * The owner turns e-invoicing on (settings.einvoicing.update) against the in-process simulator with
 * an ERP client registered there for the organization's TIN, and the customers with a TIN are made
 * known to it as taxpayers (LHDN knows every registered business).
 */
async function turnOnEinvoicing(deps: AppDeps, org: SeededOrganization, cast: Cast, customers: DemoCustomer[], einvoicing: DemoEinvoicing) {
  const seller = await as(deps, cast.owner).organization.profile.get();
  const client = { clientId: `demo-${org.spec.key}-erp`, clientSecret: randomBytes(18).toString('base64url'), tin: seller.tin! };
  const known = [];
  for (const c of customers) {
    const full = await as(deps, cast.owner).receivables.customers.get({ id: c.id });
    if (full.tin && full.registration_no && full.registration_type === 'brn' && !full.tin.startsWith('EI')) {
      known.push({ tin: full.tin, idType: 'BRN' as const, idValue: full.registration_no, name: full.legal_name });
    }
  }
  einvoicing.register(client, [{ tin: client.tin, idType: 'BRN', idValue: seller.registration_no!, name: seller.name ?? org.name }, ...known]);
  const settings = await as(deps, cast.owner).settings.einvoicing.get();
  await as(deps, cast.owner, { ifMatch: settings.revision }).settings.einvoicing.update({
    enabled: true,
    environment: 'simulator',
    api_base_url: einvoicing.apiBaseUrl,
    portal_base_url: einvoicing.portalBaseUrl,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

/** Where the delivery and return lines stand now that documents have taken from them. */
async function tradeLinesNow(
  deps: AppDeps,
  owner: DemoMember,
  customerId: string,
  taken: { id: string; kind: string; customer_id: string; quantity: string; quantity_invoiced: string }[],
): Promise<Printed['trade_lines']> {
  const lines = await as(deps, owner).settings.tradeLines.list({ customer_id: customerId, limit: 100 });
  return taken.map((line) => {
    const now = lines.items.find((l) => l.id === line.id) ?? line;
    return { id: now.id, kind: now.kind, customer_id: now.customer_id, quantity: now.quantity, quantity_invoiced: now.quantity_invoiced };
  });
}

/** What the local customer's documents are written with: the seeding organization's people and their operations. */
interface DocumentsKit {
  deps: AppDeps;
  org: SeededOrganization;
  cast: Cast;
  ref: ReferenceData;
  asPreparer: Awaited<ReturnType<typeof contextOf>>;
  prepare: (input: z.input<typeof createInvoiceInput>) => ReturnType<InProcessClient['receivables']['invoices']['create']>;
  issue: (doc: { id: string; revision: number }) => ReturnType<InProcessClient['receivables']['invoices']['transition']>;
  receipts: () => InProcessClient['receivables']['receipts'];
}

/**
 * The local customer's documents: a draft with everything a draft can carry, an invoice paid in part
 * and credited in part, an invoice whose receipt allocation was reversed and re-applied in part, and
 * a debit note draft. Answers where the customer's delivery and return lines stand afterwards.
 */
async function localCustomerDocuments(kit: DocumentsKit, customer: DemoCustomer): Promise<Printed['trade_lines']> {
  const { deps, org, cast, ref, asPreparer, prepare, issue, receipts } = kit;
  const { today } = ref;
  const { sales, services } = ref.accounts;
  const { serviceTax, salesTax, exempt, notApplicable } = ref.taxCodes;
  const tradeLines: Printed['trade_lines'] = [];
  const tradeLine = (input: { kind: 'delivery' | 'sales_return'; reference: string; description: string; quantity: string }) =>
    as(deps, cast.owner).settings.tradeLines.create({ customer_id: customer.id, unit_code: 'C62', ...input });
  const delivery = await tradeLine({ kind: 'delivery', reference: 'DO-1001', description: 'Steel brackets', quantity: '500' });
  const salesReturn = await tradeLine({ kind: 'sales_return', reference: 'RN-2001', description: 'Steel brackets returned', quantity: '20' });

  // A draft with a project, departments, custom fields and an attachment (uploaded as through POST /v1/documents).
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
        tax_code_id: serviceTax.id,
        shares: [
          { analytic_account_id: ref.projects.klcc.id, percentage: '100' },
          { analytic_account_id: ref.departments.operations.id, percentage: '100' },
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
      { account_id: sales.id, description: 'Steel brackets', quantity: '200', unit_price: '4.75', unit_code: 'C62', tax_code_id: salesTax.id, trade_line_id: delivery.id, classification_code: '022' },
      {
        account_id: services.id,
        description: 'Delivery and installation',
        quantity: '1',
        unit_price: '350.00',
        tax_code_id: serviceTax.id,
        shares: [
          { analytic_account_id: ref.projects.klcc.id, percentage: '60' },
          { analytic_account_id: ref.projects.penang.id, percentage: '40' },
          { analytic_account_id: ref.departments.sales.id, percentage: '100' },
        ],
      },
    ],
  });
  await issue(inv1);
  await receipts().create({
    customer_id: customer.id,
    reference: 'OR-0001',
    currency: customer.currency,
    amount: '500.00',
    received_on: today,
    method: 'bank_transfer',
    allocations: [{ invoice_id: inv1.id, amount: '500.00' }],
  });
  const cn = await prepare({
    kind: 'customer_credit_note',
    customer_id: customer.id,
    reason: 'Ten brackets returned damaged',
    original_invoice_id: inv1.id,
    lines: [{ account_id: sales.id, description: 'Steel brackets returned', quantity: '10', unit_price: '4.75', unit_code: 'C62', tax_code_id: salesTax.id, trade_line_id: salesReturn.id }],
  });
  await issue(cn);
  await receipts().applyCreditNote({ credit_note_id: cn.id, invoice_id: inv1.id, amount: cn.gross_amount });

  // Issued invoice with an exempt line; its receipt allocation was reversed, then re-applied in part.
  const inv2 = await prepare({
    kind: 'sales_invoice',
    customer_id: customer.id,
    lines: [
      {
        account_id: services.id,
        description: 'Training for a statutory body',
        quantity: '1',
        unit_price: '2500.00',
        tax_code_id: exempt.id,
        tax_exemption_reason: 'Exempted under the Service Tax (Persons Exempted from Payment of Tax) Order 2018',
      },
      { account_id: sales.id, description: 'Printed manuals', quantity: '20', unit_price: '12.35', tax_code_id: notApplicable.id },
    ],
  });
  await issue(inv2);
  const receipt2 = await receipts().create({
    customer_id: customer.id,
    reference: 'OR-0002',
    currency: customer.currency,
    amount: '2747.00',
    received_on: today,
    method: 'duitnow',
    allocations: [{ invoice_id: inv2.id, amount: '2747.00' }],
  });
  const wrong = receipt2.allocations[0]!;
  await receipts().reverseAllocation({ allocation_id: wrong.id, reason: 'Allocated in full by mistake: the customer paid part of it' });
  await receipts().allocate({ receipt_id: receipt2.id, allocations: [{ invoice_id: inv2.id, amount: '1000.00' }] });

  // A debit note draft against the first invoice.
  await prepare({
    kind: 'customer_debit_note',
    customer_id: customer.id,
    reason: 'Freight charged after delivery',
    original_invoice_id: inv1.id,
    lines: [{ account_id: sales.id, description: 'Freight', quantity: '1', unit_price: '85.00', tax_code_id: salesTax.id }],
  });

  tradeLines.push(...(await tradeLinesNow(deps, cast.owner, customer.id, [delivery, salesReturn])));
  return tradeLines;
}
