import type { DemoOrganization } from '../../src/demo/types';

/** What the fuzz read before it starts (as the owner): the demo's documents and receipts with their ids and revisions. */
export interface Seen {
  invoices: { id: string; kind: string; state: string; allocations?: { id: string; reversed_by_id: string | null; reverses_id: string | null }[] }[];
  receipts: { id: string; unallocated?: string }[];
}

/**
 * Well-formed bodies built from the demo data (the shapes the HTTP tests send), by operation: the first
 * bodies the fuzz mutates, before the operations' own accepted answers add more. A mutation of a body
 * the service accepts reaches the rules and the database, where a generated one mostly stops at validation.
 */
export function seedBodies(org: DemoOrganization, seen: Seen = { invoices: [], receipts: [] }): Map<string, unknown[]> {
  const customer = org.customers.find((c) => c.code === 'C-LOCAL') ?? org.customers[0]!;
  const category = org.expense_categories[0];
  const customerBody = { code: 'FZ', legal_name: 'Fuzz Trading Sdn Bhd', country_code: 'MY', address: { line1: 'Jalan Ampang 1', city: 'Kuala Lumpur' } };
  const invoiceBody = { kind: 'sales_invoice', customer_id: customer.id, customer_reference: 'PO-1', lines: [{ description: 'Widgets', quantity: '2', unit_price: '50.00' }] };
  const claimBody = { title: 'Client visit, Penang' };
  const line = category
    ? { type: 'receipt', expense_date: '2026-04-08', category_id: category.id, description: 'Lunch with the client', amount: '108.00', document_basis: 'relaxation_receipt', relaxation_reason: 'Hawker stall, no e-invoice' }
    : undefined;
  const seeds: [string, unknown][] = [
    ['POST /v1/receivables/customers', customerBody],
    ['trpc receivables.customers.create', customerBody],
    ['POST /v1/receivables/invoices', invoiceBody],
    ['trpc receivables.invoices.create', invoiceBody],
    ['POST /v1/expenses/claims', claimBody],
    ['trpc expenses.claims.create', claimBody],
    ['trpc settings.accounts.create', { code: 'FZ', name: 'Fuzz revenue', type: 'revenue' }],
    ['trpc settings.orgUnits.create', { code: 'FZ', name: 'Fuzz unit' }],
    ['trpc settings.claimGroups.create', { name: 'Fuzz group' }],
  ];
  if (line) seeds.push(['POST /v1/expenses/claims/{id}/lines', line]);
  seeds.push(...peoplesSeeds(org, seen));
  const map = new Map<string, unknown[]>();
  for (const [op, body] of seeds) map.set(op, [...(map.get(op) ?? []), body]);
  return map;
}

/**
 * The people's surfaces (issue 25): set-up of every settings family, people's decisions on documents and
 * claims, receipts and allocations, and the e-invoicing settings, each with bodies the service accepts
 * for the demo organization, so that mutations of them reach the rules and the locks, not only validation.
 */
function peoplesSeeds(org: DemoOrganization, seen: Seen): [string, unknown][] {
  const seeds: [string, unknown][] = [];
  const member = (role: string) => org.members.find((m) => m.role === role && m.active);
  const customer = org.customers.find((c) => c.code === 'C-LOCAL') ?? org.customers[0]!;
  const unit = org.org_units[0];
  const position = org.positions.find((p) => !p.retired);
  const axis = org.analytic_axes[0];
  const project = org.projects[0];
  const clerk = member('clerk');
  const accountant = member('accountant');
  const employee = member('employee');

  // Set-up families.
  seeds.push(
    ['trpc settings.taxCodes.create', { code: 'FZ-6', name: 'Fuzz service tax 6%', rate: '6', tax_type: '02', tax_pack_kind: 'my_sst' }],
    ['trpc settings.expenseCategories.create', { code: 'FZ', name: 'Fuzz category' }],
    ['trpc settings.exchangeRates.create', { currency: 'USD', rate_date: '2026-03-02', rate: '4.4712' }],
    ['trpc settings.analyticAxes.create', { code: 'FZ', name: 'Fuzz axis' }],
    ['trpc settings.customFields.create', { record_type: 'receivable_document', key: 'fz_note', label: 'Fuzz note', type: 'text' }],
    ['trpc settings.customFields.create', { record_type: 'expense_claim', key: 'fz_pick', label: 'Fuzz pick', type: 'select', options: ['a', 'b'] }],
    ['trpc settings.tradeLines.create', { customer_id: customer.id, kind: 'delivery', reference: 'DO-FZ-1', description: 'Fuzz delivery', quantity: '10' }],
    ['trpc settings.mileageRates.create', { name: 'Fuzz mileage', valid_from: '2026-01-01', bands: [{ band: 'all', from_km: '0', rate_per_km: '0.6' }] }],
    ['trpc settings.perDiemRates.create', { name: 'Fuzz per diem', valid_from: '2026-01-01', bands: [{ band: 'local', amount_per_day: '60' }] }],
    ['trpc settings.claimPolicy.update', { escalation_working_days: 3 }],
    ['trpc settings.ageing.update', { edges: [30, 60, 90, 120] }],
    ['trpc settings.einvoicing.update', { environment: 'sandbox' }],
    ['trpc settings.einvoicing.update', { client_id: 'fuzz-client', client_secret: 'fuzz-secret' }],
    ['trpc settings.einvoicing.update', { version: '1.0', api_base_url: null, portal_base_url: null }],
    ['trpc settings.einvoicing.update', { api_base_url: 'http://169.254.169.254/latest' }],
    ['trpc settings.einvoicing.update', { enabled: true }],
  );
  if (axis) seeds.push(['trpc settings.analyticAccounts.create', { axis_id: axis.id, code: 'FZ', name: 'Fuzz account' }]);
  if (unit) seeds.push(['trpc settings.positions.create', { org_unit_id: unit.id, title: 'Fuzz officer' }]);
  if (position && employee) seeds.push(['trpc settings.positionAssignments.create', { member_id: employee.id, position_id: position.id, valid_from: '2026-01-01' }]);
  if (project && accountant) seeds.push(['trpc settings.approverAssignments.create', { analytic_account_id: project.id, member_id: accountant.id, valid_from: '2026-01-01', min_amount: '0' }]);
  if (clerk && accountant) seeds.push(['trpc settings.delegations.create', { delegator_member_id: accountant.id, delegate_member_id: clerk.id, valid_from: '2026-03-01', valid_to: '2026-03-31', scope: 'all' }]);
  if (axis) seeds.push(['trpc settings.approvalGrants.create', { name: 'Fuzz superior', kind: 'superior', step: 'review', bands: [] }]);
  // Members, roles and a member's own payout channels.
  seeds.push(
    ['trpc organization.members.add', { name: 'Fuzz Member', email: 'fuzz.member@example.my', roles: ['viewer'] }],
    ['trpc organization.roles.create', { key: 'fuzz_role', name: 'Fuzz role', permissions: ['receivables.invoice.read'] }],
    ['trpc me.payoutChannels.create', { channel_key: 'duitnow', name: 'Fuzz DuitNow', fields: { id_type: 'mobile', id_value: '+60 12-345 6799' } }],
  );

  // People's decisions on receivables documents: every edge a demo document offers.
  for (const d of seen.invoices) {
    const edges = d.state === 'draft' ? ['issue', 'discard'] : ['dispute', 'cancel', 'resolve', 'keep'];
    for (const action_key of edges) seeds.push(['trpc receivables.invoices.transition', { id: d.id, action_key, reason: 'Fuzz reason' }]);
    seeds.push(['trpc receivables.invoices.transition', { id: d.id, action_key: edges[0] }]);
  }
  // People's decisions on claims: every edge of every state the demo leaves a claim in, and paying.
  const claimEdges: Record<string, string[]> = { draft: ['submit', 'cancel'], review: ['approve', 'return', 'reject', 'withdraw'], finance: ['approve', 'return', 'reject', 'dispute'], disputed: ['resolve', 'amend'], approved: ['pay'] };
  for (const c of org.claims) {
    for (const action_key of claimEdges[c.state] ?? ['submit']) seeds.push(['trpc expenses.claims.transition', { id: c.id, action_key, ...(['return', 'reject', 'dispute'].includes(action_key) ? { reason: 'Fuzz reason' } : {}) }]);
    if (c.state === 'approved') {
      const channel = org.payout_channels.find((p) => p.member_id === c.claimant_member_id && p.active);
      seeds.push(['trpc expenses.claims.pay', { id: c.id }]);
      seeds.push(['trpc expenses.claims.referDifference', { id: c.id, reason: 'Fuzz reason' }]);
      if (channel) seeds.push(['trpc expenses.claims.pay', { id: c.id, channel_id: channel.id }]);
    }
  }

  // Receipts and allocations.
  const issued = seen.invoices.filter((d) => d.state === 'issued' && d.kind !== 'customer_credit_note');
  const creditNote = seen.invoices.find((d) => d.state === 'issued' && d.kind === 'customer_credit_note');
  const receiptBody = { customer_id: customer.id, amount: '10.00', received_on: '2026-03-02', method: 'bank_transfer', reference: 'OR-FZ-1' };
  seeds.push(['POST /v1/receivables/receipts', receiptBody], ['trpc receivables.receipts.create', receiptBody]);
  for (const inv of issued) {
    seeds.push(['trpc receivables.receipts.create', { ...receiptBody, allocations: [{ invoice_id: inv.id, amount: '1.00' }] }]);
    seeds.push(['POST /v1/receivables/receipts', { ...receiptBody, method: 'duitnow', allocations: [{ invoice_id: inv.id, amount: '2.00' }] }]);
    for (const r of seen.receipts) seeds.push(['trpc receivables.receipts.allocate', { receipt_id: r.id, allocations: [{ invoice_id: inv.id, amount: '0.01' }] }]);
    if (creditNote) seeds.push(['trpc receivables.receipts.applyCreditNote', { credit_note_id: creditNote.id, invoice_id: inv.id, amount: '0.01' }]);
    for (const a of inv.allocations ?? []) if (!a.reversed_by_id && !a.reverses_id) seeds.push(['trpc receivables.receipts.reverseAllocation', { allocation_id: a.id, reason: 'Fuzz reversal' }]);
  }
  return seeds;
}
