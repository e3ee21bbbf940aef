/**
 * organization.readiness: what the organization still lacks before invoices can be issued, before
 * e-invoicing can be turned on and before claims can be approved. Every item is the same check the
 * service refusing the act makes, so the checklist and the refusals never disagree:
 * - invoicing: a draft names an active customer, and each line an active account and an active tax
 *   code (services/receivables/prepare-document.ts); the issue edge of the organization's workflow is
 *   evaluated (services/workflow/transitions.ts) for its active members, one preparing and another
 *   (or the sole active member) issuing; with e-invoicing on, issuing needs the seller identity the
 *   preflight checks (services/einvoicing/preflight.ts).
 * - e-invoicing: what turning it on refuses without (services/einvoicing/settings.ts): the seller
 *   identity and the MyInvois credentials.
 * - claims: a claim line needs an active expense category (services/expenses/claim-line-rules.ts);
 *   someone must be found to sign the review and the finance step, as the approval engine resolves
 *   them (services/workflow/approvals/resolve.ts) on today's chart, grants and approver assignments.
 * Read only.
 */
import { listAssignmentsOn, listGrants, loadOrgChart } from '../../db/queries/approval-engine';
import { activeAnalyticAccounts, activeMemberPermissions, readinessCounts } from '../../db/queries/readiness';
import type { ServiceContext } from '../context';
import { einvoicingCredentialsProblem, findEinvoiceRow, type EinvoiceRow } from '../einvoicing/settings';
import { sellerPreflight } from '../einvoicing/preflight';
import { OrgChart } from '../workflow/approvals/org-chart';
import { resolveSignoff } from '../workflow/approvals/resolve';
import { describeTransition, stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';
import type { MyinvoisDeps } from '../einvoicing/build-client';
import { CLAIM_ROLES, INVOICING_ROLES, JournalAccounts, missingRoles } from '../journal/accounts';
import type { JournalAccountRole } from '../../domain/journal';

/** The journal's control accounts an area posts to, each resolved to an active account (journal set-up or default chart). */
function journalItem(key: string, accounts: JournalAccounts, roles: JournalAccountRole[], what: string): ReadinessItem {
  const missing = missingRoles(accounts, roles);
  return {
    key,
    done: missing.length === 0,
    detail: missing.length
      ? `Choose an active account in the journal accounts set-up (PUT /v1/journal/accounts) for: ${missing.join('; ')}: ${what} is refused without it.`
      : `Every journal account ${what} posts to is set.`,
  };
}

export type ReadinessAreaKey = 'invoicing' | 'einvoicing' | 'claims';

export interface ReadinessItem {
  key: string;
  done: boolean;
  detail: string;
}

export interface ReadinessArea {
  key: ReadinessAreaKey;
  ready: boolean;
  items: ReadinessItem[];
}

export interface Readiness {
  areas: ReadinessArea[];
}

/** A member id no member has: the claimant of a finance sign-off whose approver is anybody else. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

/** How many analytic accounts the finance check tries (any one with an approver makes it ready). */
const ANALYTIC_ACCOUNTS_TRIED = 500;

const area = (key: ReadinessAreaKey, items: ReadinessItem[]): ReadinessArea => ({ key, ready: items.every((i) => i.done), items });

function sellerItem(ctx: ServiceContext): ReadinessItem {
  const problems = sellerPreflight(ctx.org.seller);
  return {
    key: 'profile.seller_identity',
    done: problems.length === 0,
    detail: problems.length
      ? `Complete the organization's seller identity in the profile: ${problems.map((p) => p.detail.replace(/ \(organization\.profile\)$/, '')).join('; ')}.`
      : "The organization's seller identity (TIN, BRN, MSIC code, address and phone) is complete.",
  };
}

/** Whether the workflow's issue edge can be taken on a draft one active member prepared. */
async function issuerItem(ctx: ServiceContext, people: { id: string; permissions: string[] }[]): Promise<ReadinessItem> {
  const def = await loadWorkflow(ctx.db, ctx.org.id, 'receivable_document');
  const draft = def.states.find((s) => s.semantic === 'draft')?.key ?? def.initial_state;
  const issuing = def.transitions.filter((t) => t.from === draft && !t.system && stateOf(def, t.to).semantic === 'accrual');
  const sole = people.length === 1;
  const preparers = people.filter((p) => p.permissions.includes('receivables.invoice.create'));
  const canIssue = (issuer: { id: string; permissions: string[] }, preparerId: string) =>
    issuing.some((t) => describeTransition(t, { state: draft, reporterMemberId: preparerId, unmet: {} }, { memberId: issuer.id, permissions: new Set(issuer.permissions), isSoleActiveMember: sole }).allowed);
  const done = people.some(
    (issuer) => (preparers.some((p) => p.id !== issuer.id) && canIssue(issuer, NOBODY)) || (preparers.some((p) => p.id === issuer.id) && canIssue(issuer, issuer.id)),
  );
  return {
    key: 'members.issuer',
    done,
    detail: done
      ? 'A member can issue the invoices another member prepares.'
      : 'Add a member who may issue invoices (for example with the accountant role) besides the member who prepares them: the one who prepares an invoice may not issue it.',
  };
}

async function invoicingArea(
  ctx: ServiceContext,
  counts: Awaited<ReturnType<typeof readinessCounts>>,
  people: { id: string; permissions: string[] }[],
  einvoicingOn: boolean,
  journal: JournalAccounts,
): Promise<ReadinessArea> {
  const items: ReadinessItem[] = [
    {
      key: 'customers.any',
      done: counts.customer,
      detail: counts.customer ? 'The organization has an active customer.' : 'Add a customer: an invoice is made out to one.',
    },
    {
      key: 'accounts.any',
      done: counts.account,
      detail: counts.account ? 'The chart of accounts has an active account.' : 'Add an account to the chart of accounts (or reactivate one): every invoice line is booked to one.',
    },
    {
      key: 'tax_codes.any',
      done: counts.taxCode,
      detail: counts.taxCode ? 'The organization has an active tax code.' : 'Add a tax code (or reactivate one): every invoice line carries one.',
    },
    await issuerItem(ctx, people),
    journalItem('journal.receivables_accounts', journal, INVOICING_ROLES, 'issuing a document or recording a receipt'),
  ];
  // With e-invoicing on, issuing is refused while the seller identity is incomplete (the preflight).
  if (einvoicingOn) items.push(sellerItem(ctx));
  return area('invoicing', items);
}

function einvoicingArea(ctx: ServiceContext, row: EinvoiceRow | undefined, deps: Pick<MyinvoisDeps, 'intermediary'>): ReadinessArea {
  const credentials = einvoicingCredentialsProblem(row, deps);
  return area('einvoicing', [
    sellerItem(ctx),
    {
      key: 'einvoicing.credentials',
      done: !credentials,
      detail: credentials ?? 'The MyInvois credentials are saved in the e-invoicing settings.',
    },
  ]);
}

async function claimsArea(ctx: ServiceContext, counts: Awaited<ReturnType<typeof readinessCounts>>, journal: JournalAccounts): Promise<ReadinessArea> {
  const organizationId = ctx.org.id;
  const [chartRows, grants, analytic] = await Promise.all([
    loadOrgChart(ctx.db, { organizationId, day: ctx.today }),
    listGrants(ctx.db, { organizationId }),
    activeAnalyticAccounts(ctx.db, { organizationId, limit: ANALYTIC_ACCOUNTS_TRIED }),
  ]);
  const assignments = await listAssignmentsOn(ctx.db, { organizationId, analyticAccountIds: analytic.map((a) => a.id), day: ctx.today });
  const chart = new OrgChart(chartRows, ctx.now);
  const base = { chart, grants, assignments, amount: '0', currency: ctx.org.baseCurrency };
  const someAccount = analytic[0] ?? { id: NOBODY, axisId: NOBODY };
  // Review: some active member's claim finds someone else to sign it.
  const review = [...chart.active].some(
    (memberId) =>
      resolveSignoff({ ...base, step: 'review', claimantMemberId: memberId, claimantPositionId: chart.primaryPosition.get(memberId) ?? null, analyticAccountId: someAccount.id, axisId: someAccount.axisId }).groups.length > 0,
  );
  // Finance: some analytic account a claim line may be charged to has someone to sign its share.
  const finance = analytic.some(
    (a) => resolveSignoff({ ...base, step: 'finance', claimantMemberId: NOBODY, claimantPositionId: null, analyticAccountId: a.id, axisId: a.axisId }).groups.length > 0,
  );
  return area('claims', [
    {
      key: 'expense_categories.any',
      done: counts.expenseCategory,
      detail: counts.expenseCategory ? 'The organization has an active expense category.' : 'Add an expense category (for example Meals or Travel): every claim line names one.',
    },
    {
      key: 'approvals.review',
      done: review,
      detail: review
        ? "A claim's review step finds a member to sign it."
        : "Nobody would be found to review a claim: give members positions under a unit head (org units, positions and assignments), or give the review step's approval grant a holder.",
    },
    {
      key: 'approvals.finance',
      done: finance,
      detail: finance
        ? "A claim's finance step finds a member to sign it."
        : analytic.length === 0
          ? 'Add an analytic account (for example a project) for claim lines to be charged to, and assign its approver (approver assignments).'
          : "Nobody would be found to sign a claim's finance step: assign an approver to an analytic account (approver assignments), or give the finance step's approval grant a holder.",
    },
    journalItem('journal.claims_accounts', journal, CLAIM_ROLES, 'approving or paying a claim'),
  ]);
}

/** The readiness answer of the caller's organization. */
export async function organizationReadiness(ctx: ServiceContext, deps: Pick<MyinvoisDeps, 'intermediary'>): Promise<Readiness> {
  const organizationId = ctx.org.id;
  const [counts, people, row, journal] = await Promise.all([
    readinessCounts(ctx.db, { organizationId }),
    activeMemberPermissions(ctx.db, { organizationId }),
    findEinvoiceRow(ctx.db, organizationId),
    JournalAccounts.load(ctx),
  ]);
  return {
    areas: [await invoicingArea(ctx, counts, people, row?.enabled ?? false, journal), einvoicingArea(ctx, row, deps), await claimsArea(ctx, counts, journal)],
  };
}
