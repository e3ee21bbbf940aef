import type { BuiltInRole } from '../domain/permissions';

/**
 * What `demo --json` prints (docs/design.md §10): every id and credential of the data set. The names
 * are the contract scripts rely on; more keys may be added, none renamed or removed.
 */

export interface DemoMember {
  id: string;
  name: string;
  /** The member's login e-mail (unique to this run's organization). */
  email: string;
  /** A random password of this run: `auth.login` with the e-mail answers a session. */
  password: string;
  role: BuiltInRole;
  /** What the member's roles grant, sorted. */
  permissions: string[];
  active: boolean;
  /** An API key carrying the member's permissions; null for an inactive member (deactivation revokes keys). */
  api_key: string | null;
  /** A session from logging in; null for an inactive member, who cannot log in. */
  session_token: string | null;
}

export interface DemoCustomer {
  id: string;
  code: string;
  legal_name: string;
  currency: string;
  is_active: boolean;
  is_group_company: boolean;
}

export interface DemoAccount {
  id: string;
  code: string;
  name: string;
  type: string;
  active: boolean;
}

export interface DemoTaxCode {
  id: string;
  code: string;
  rate: string;
  tax_type: string;
}

export interface DemoDocument {
  id: string;
  kind: string;
  state: string;
  reference: string | null;
  currency: string;
}

export interface DemoClaim {
  id: string;
  reference: string;
  /** The workflow state the claim was left in: draft, review, finance, disputed, approved, paid, rejected, cancelled. */
  state: string;
  claimant_member_id: string;
  title: string;
}

export interface DemoOrganization {
  id: string;
  name: string;
  base_currency: string;
  members: DemoMember[];
  customers: DemoCustomer[];
  accounts: DemoAccount[];
  tax_codes: DemoTaxCode[];
  analytic_axes: { id: string; code: string; name: string; is_project_axis: boolean }[];
  projects: { id: string; code: string; name: string }[];
  departments: { id: string; code: string; name: string }[];
  custom_fields: { id: string; key: string; label: string; type: string; options: string[]; required: boolean }[];
  trade_lines: { id: string; kind: string; customer_id: string; quantity: string; quantity_invoiced: string }[];
  invoices: DemoDocument[];
  expense_categories: { id: string; code: string; name: string }[];
  claim_groups: { id: string; name: string; retired: boolean }[];
  payout_channels: { id: string; member_id: string; channel_key: string; name: string; active: boolean }[];
  org_units: { id: string; code: string; name: string; parent_id: string | null }[];
  positions: { id: string; title: string; org_unit_id: string; holder_member_id: string | null; retired: boolean }[];
  mileage_rates: { id: string; name: string }[];
  per_diem_rates: { id: string; name: string }[];
  exchange_rates: { id: string; currency: string; rate_date: string; rate: string }[];
  claims: DemoClaim[];
  /** Sources of approval authority (settings.approvalGrants): the defaults and the finance controller. */
  approval_grants: { id: string; name: string; kind: string; step: string; fallback_grant_id: string | null; active: boolean }[];
  /** Approver assignments of analytic accounts, with their band (settings.approverAssignments). */
  approver_assignments: { id: string; analytic_account_id: string; member_id: string; min_amount: string; max_amount: string | null }[];
  /** Delegations of approval authority (settings.delegations). */
  delegations: { id: string; delegator_member_id: string; delegate_member_id: string; valid_from: string; valid_to: string; scope: string }[];
  /** Acme only: the group company its C-GROUP customer is, with that organization's owner. */
  group_sibling_organization_id?: string;
  group_sibling?: { id: string; name: string; owner: Pick<DemoMember, 'id' | 'name' | 'email' | 'password'> };
  /** The organization of one person: documents are issued under the sole-owner exception. */
  sole_owner?: true;
}

export interface DemoData {
  organizations: DemoOrganization[];
}

/**
 * E-invoicing for the demo (npm start on the embedded database): the in-process MyInvois simulator
 * Acme's settings point at, and `settle`, which runs the submission, LHDN's validation and the poll
 * at once so the demo's invoices are validated e-invoices before its receipts and credit notes.
 */
export interface DemoEinvoicing {
  apiBaseUrl: string;
  portalBaseUrl: string;
  /** Registers Acme's ERP client and the taxpayers its documents name with the simulator. */
  register(client: { clientId: string; clientSecret: string; tin: string }, taxpayers: { tin: string; idType: 'BRN' | 'NRIC' | 'PASSPORT' | 'ARMY'; idValue: string; name: string }[]): void;
  settle(deps: { db: unknown }, organizationId: string, now: Date): Promise<void>;
}
