import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, testDatabaseEnv, type TestApp } from '../helpers/app';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

/**
 * Issue 9's first acceptance item, as a new user goes: the admin CLI's `org create` makes an
 * organization and its owner; from there on everything is an HTTP call a person or an integration
 * makes (tRPC for people and set-up, /v1 for the public operations). No demo data, no direct database
 * access: the owner logs in, adds an accountant with a password; the accountant logs in, creates a
 * customer over REST, an analytic account and a custom field, and prepares an invoice with the
 * default chart of accounts and a default SST code: 201 with the exact totals.
 */

const url = process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'from-nothing-'));
let t: TestApp | undefined;
afterAll(async () => {
  await t?.app.close();
  await t?.handle.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function orgCreate(args: string[]): Promise<{ code: number; json: any; output: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY,
    ...(url ? testDatabaseEnv() : { DATA_DIR: dataDir }),
  };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', 'org', 'create', ...args, '--json'], { cwd: process.cwd(), env, timeout: 120_000 }, (error, stdout, stderr) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: error ? 1 : 0, json, output: stdout + stderr });
    });
  });
}

describe('from nothing to an invoice ready to issue', { timeout: 240_000 }, () => {
  it('org create → owner logs in → adds an accountant → accountant sets up and prepares an invoice: 201, exact totals', async () => {
    const unique = Math.random().toString(36).slice(2, 8);
    const ownerEmail = `zaleha.${unique}@kedai.example.my`;
    const accountantEmail = `ben.${unique}@kedai.example.my`;
    const created = await orgCreate(['--name', `Kedai Baru ${unique} Sdn Bhd`, '--owner-email', ownerEmail, '--owner-password', 'correct horse battery', '--owner-name', 'Puan Zaleha']);
    expect(created.code, created.output).toBe(0);
    const organizationId: string = created.json.id;

    // The CLI has exited (the embedded database admits one process at a time); the service opens it.
    t = await createTestApp({}, { dataDir });
    const app = t.app;
    const trpc = async (path: string, input: unknown, token?: string, headers: Record<string, string> = {}) => {
      const res = await app.inject({
        method: 'POST',
        url: `/trpc/${path}`,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        payload: JSON.stringify(input),
      });
      // Creations answer 201 on /trpc as on /v1.
      expect([200, 201], `${path}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      return res.json().result.data;
    };
    const trpcGet = async (path: string, input: unknown, token: string) => {
      const res = await app.inject({ method: 'GET', url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      return res.json().result.data;
    };

    // The owner logs in and adds an accountant with a password.
    const owner = await trpc('auth.login', { email: ownerEmail, password: 'correct horse battery' });
    expect(owner.organization.id).toBe(organizationId);
    const accountantMember = await trpc('organization.members.add', { name: 'Ben Accountant', email: accountantEmail, password: 'ledger balances 2026', roles: ['accountant'] }, owner.session_token);
    expect(accountantMember).toMatchObject({ email: accountantEmail, roles: ['accountant'], active: true });

    // The accountant logs in.
    const accountant = await trpc('auth.login', { email: accountantEmail, password: 'ledger balances 2026' });
    const token: string = accountant.session_token;
    const me = await trpcGet('auth.me', {}, token);
    expect(me.permissions).toEqual(expect.arrayContaining(['receivables.invoice.create', 'receivables.customer.create', 'organization.settings.manage']));

    // A customer over REST.
    const customerRes = await app.inject({
      method: 'POST',
      url: '/v1/receivables/customers',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: {
        code: 'C-001',
        legal_name: 'Syarikat Pelanggan Setia Sdn Bhd',
        registration_type: 'brn',
        registration_no: '202001012345',
        tin: 'C21234567890',
        address: { line1: '1 Jalan Tun Razak', city: 'Kuala Lumpur', postcode: '50400', state: '14' },
        payment_terms_days: 30,
      },
    });
    expect(customerRes.statusCode, customerRes.body).toBe(201);
    const customer = customerRes.json();
    expect(customer).toMatchObject({ code: 'C-001', currency: 'MYR', country_code: 'MY', revision: 1 });

    // An analytic account on a new project axis, and a custom field for invoices.
    const axis = await trpc('settings.analyticAxes.create', { code: 'PRJ', name: 'Projects', is_project_axis: true }, token);
    const project = await trpc('settings.analyticAccounts.create', { axis_id: axis.id, code: 'P-001', name: 'Shah Alam warehouse' }, token);
    await trpc('settings.customFields.create', { record_type: 'receivable_document', key: 'po_number', label: 'Customer PO number', type: 'text' }, token);

    // The default chart and the default SST codes, found by listing them.
    const accounts = (await trpcGet('settings.accounts.list', { limit: 100 }, token)).items as { id: string; type: string; name: string }[];
    const serviceRevenue = accounts.find((a) => a.type === 'revenue' && /service/i.test(a.name));
    expect(serviceRevenue).toBeDefined();
    const taxCodes = (await trpcGet('settings.taxCodes.list', { limit: 100 }, token)).items as { id: string; rate: string; tax_type: string }[];
    const serviceTax8 = taxCodes.find((c) => c.tax_type === '02' && c.rate === '8');
    expect(serviceTax8).toBeDefined();

    // The invoice: 3 × 1,250.00 less 150.00, and 12 × 18.75, both at service tax 8%.
    const invoiceRes = await app.inject({
      method: 'POST',
      url: '/v1/receivables/invoices',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: {
        kind: 'sales_invoice',
        customer_id: customer.id,
        customer_reference: 'PO-2026-118',
        custom_fields: { po_number: 'PO-2026-118' },
        lines: [
          {
            account_id: serviceRevenue!.id,
            description: 'Racking installation',
            quantity: '3',
            unit_price: '1250.00',
            discount_amount: '150.00',
            tax_code_id: serviceTax8!.id,
            shares: [{ analytic_account_id: project.id, percentage: '100' }],
          },
          { account_id: serviceRevenue!.id, description: 'Safety inspection (hours)', quantity: '12', unit_price: '18.75', unit_code: 'HUR', tax_code_id: serviceTax8!.id },
        ],
      },
    });
    expect(invoiceRes.statusCode, invoiceRes.body).toBe(201);
    const invoice = invoiceRes.json();
    expect(invoice).toMatchObject({
      kind: 'sales_invoice',
      state: 'draft',
      semantic: 'draft',
      reference: null,
      currency: 'MYR',
      fx_rate: '1',
      payment_terms_days: 30,
      prepared_by: accountantMember.id,
      custom_fields: { po_number: 'PO-2026-118' },
      // 3 × 1250.00 − 150.00 = 3600.00; 12 × 18.75 = 225.00
      net_total: '3825.00',
      // 8% of 3600.00 = 288.00; 8% of 225.00 = 18.00
      tax_total: '306.00',
      gross_amount: '4131.00',
      gross_base: '4131.00',
      outstanding: '4131.00',
      project: { id: project.id, code: 'P-001', name: 'Shah Alam warehouse' },
      multiple_projects: false,
    });
    expect(invoice.lines.map((l: any) => [l.net_amount, l.tax_amount, l.tax_rate])).toEqual([
      ['3600.00', '288.00', '8'],
      ['225.00', '18.00', '8'],
    ]);
    // Ready to issue, by someone else: the preparer may not issue their own invoice (segregation of
    // duties), and the owner sees the issue edge allowed.
    const issueEdge = invoice.available_transitions.find((d: any) => d.action_key === 'issue');
    expect(issueEdge).toMatchObject({ allowed: false, refusal: { code: 'self_approval' } });
    const asOwner = await app.inject({ method: 'GET', url: `/v1/receivables/invoices/${invoice.id}`, headers: { authorization: `Bearer ${owner.session_token}` } });
    expect(asOwner.json().available_transitions.find((d: any) => d.action_key === 'issue')).toMatchObject({ allowed: true });
  });
});
