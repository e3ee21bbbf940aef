import type { DemoOrganization } from '../../src/demo/types';

/**
 * Well-formed bodies built from the demo data (the shapes the HTTP tests send), by operation: the first
 * bodies the fuzz mutates, before the operations' own accepted answers add more. A mutation of a body
 * the service accepts reaches the rules and the database, where a generated one mostly stops at validation.
 */
export function seedBodies(org: DemoOrganization): Map<string, unknown[]> {
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
  const map = new Map<string, unknown[]>();
  for (const [op, body] of seeds) map.set(op, [...(map.get(op) ?? []), body]);
  return map;
}
