import { queryRows, sql, type Database } from '../src/db/client';
import { addMember, createApiKey, createOrganization, rolePermissions } from '../src/services/access/admin';
import { insertAssignment, insertGrant, retireGrants } from '../tests/factories/approvals';
import { createAnalyticAxis, createExpenseCategory } from '../tests/factories/setup';

/**
 * Seeds one organization with `claims` expense claims awaiting finance's sign-off and `approvers`
 * approvers, set-based (INSERT ... SELECT generate_series), for the claim list benchmark:
 * - the bench member (an owner: reads every claim) and `approvers` approvers, each the approver of
 *   one project account (approver assignments under an account-approver grant in finance, the bench
 *   member the default grant's holder); as many claimants;
 * - every claim in `finance`, round 1, one line of one share on one project account, and its open
 *   sign-off with the stored authority the engine would have resolved (that account's approver);
 * - one claim in 100 charged to the bench member's own account (their `to_act`), another one in 100
 *   filed by the bench member (their `mine`); created_at one a minute, newest last.
 */
export interface SeededClaims {
  organizationId: string;
  apiKey: string;
}

export async function seedClaimsOrganization(db: Database, opts: { name: string; claims: number; approvers: number; log?: (line: string) => void }): Promise<SeededClaims> {
  const log = opts.log ?? (() => {});
  const { claims: n, approvers: a } = opts;
  const org = await createOrganization(db, { name: opts.name });
  const organizationId = org.id;
  const me = await addMember(db, { organizationId, name: 'Bench approver', roles: ['owner'] });
  const key = await createApiKey(db, { organizationId, ownerMemberId: me.id, permissions: rolePermissions('owner') });
  const meals = await createExpenseCategory(db, { organizationId, code: 'MEAL', name: 'Meals' });
  const axis = await createAnalyticAxis(db, organizationId, { code: 'PRJ', name: 'Projects', isProjectAxis: true });
  const t0 = Date.now();
  const step = (what: string) => log(`  ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const exec = (q: ReturnType<typeof sql>) => queryRows(db, q);

  await exec(sql`
    insert into members (organization_id, name, email)
    select ${organizationId}::uuid, kind || ' ' || lpad(g::text, 5, '0'), lower(kind) || g || '@bench.test'
    from generate_series(1, ${a}) g, (values ('Approver'), ('Claimant')) k(kind)`);
  // Account 0 is the bench member's; account k (1..a) is approver k's.
  await exec(sql`
    insert into analytic_accounts (organization_id, axis_id, code, name)
    select ${organizationId}::uuid, ${axis.id}::uuid, 'P-' || lpad(g::text, 5, '0'), 'Project ' || g
    from generate_series(0, ${a}) g`);
  step(`${a} approvers, ${a} claimants, ${a + 1} project accounts`);

  await retireGrants(db, organizationId);
  const fallback = await insertGrant(db, organizationId, { name: 'Finance controller', kind: 'default', step: 'finance', holderMemberId: me.id });
  const grant = await insertGrant(db, organizationId, { name: 'Project approvers', kind: 'account_approver', step: 'finance', fallbackGrantId: fallback.id });
  const [mine] = await exec(sql`select id from analytic_accounts where organization_id = ${organizationId}::uuid and code = 'P-00000'`);
  await insertAssignment(db, organizationId, { analyticAccountId: (mine as { id: string }).id, memberId: me.id });
  await exec(sql`
    insert into approver_assignments (organization_id, analytic_account_id, member_id, valid_from)
    select ${organizationId}::uuid, aa.id, m.id, '2020-01-01'
    from analytic_accounts aa join members m on m.organization_id = aa.organization_id and m.name = 'Approver ' || substr(aa.code, 3)
    where aa.organization_id = ${organizationId}::uuid`);
  step('grants and approver assignments');

  await exec(sql`
    insert into claims (organization_id, reference, title, claimant_member_id, currency, state, revision, created_at, submitted_at, round, claimant_unit_name)
    select ${organizationId}::uuid, 'EC-' || lpad(g::text, 7, '0'), 'Site visit ' || g,
      case when g % 100 = 50 then ${me.id}::uuid else c.id end, 'MYR', 'finance', 3,
      timestamptz '2025-01-01 00:00:00+00' + g * interval '1 minute', timestamptz '2025-01-01 00:00:00+00' + g * interval '1 minute',
      1, 'Field operations'
    from generate_series(1, ${n}) g
    join members c on c.organization_id = ${organizationId}::uuid and c.name = 'Claimant ' || lpad((1 + g % ${a})::text, 5, '0')`);
  // Fresh statistics before each join on what was just loaded (else the planner expects a handful of rows and nests loops).
  await exec(sql`analyze members, analytic_accounts, approver_assignments, claims`);
  step(`${n} claims`);
  await exec(sql`
    insert into claim_lines (organization_id, claim_id, line_no, type, expense_date, category_id, description, currency, amount, base_amount,
      fx_rate, fx_rate_source, reimbursement_basis, quantity, tax_amount, document_basis, created_at)
    select organization_id, id, 1, 'receipt', (created_at - interval '2 days')::date, ${meals.id}::uuid, 'Meals on site', 'MYR',
      (10 + substr(reference, 4)::int % 490)::numeric, (10 + substr(reference, 4)::int % 490)::numeric,
      1, 'identity', 'expense_date_rate', 1, 0, 'einvoice_company', created_at
    from claims where organization_id = ${organizationId}::uuid`);
  await exec(sql`analyze claim_lines`);
  // Claim g charges account 0 (the bench member's) when g % 100 = 0, else account 1 + g % a.
  const accountOf = sql`'P-' || lpad((case when substr(c.reference, 4)::int % 100 = 0 then 0 else 1 + substr(c.reference, 4)::int % ${a} end)::text, 5, '0')`;
  await exec(sql`
    insert into claim_line_shares (organization_id, line_id, analytic_account_id, percentage)
    select l.organization_id, l.id, aa.id, 100
    from claim_lines l
    join claims c on c.organization_id = l.organization_id and c.id = l.claim_id
    join analytic_accounts aa on aa.organization_id = l.organization_id and aa.code = ${accountOf}
    where l.organization_id = ${organizationId}::uuid`);
  await exec(sql`analyze claim_line_shares`);
  step('lines and shares');
  await exec(sql`
    insert into claim_signoffs (organization_id, claim_id, state, analytic_account_id, axis_id, account_code, account_name, amount, currency,
      eligible, authorities, escalated_at, created_at, round)
    select c.organization_id, c.id, 'finance', aa.id, aa.axis_id, aa.code, aa.name, l.base_amount, 'MYR',
      array[x.member_id::text],
      jsonb_build_array(jsonb_build_object('member_id', x.member_id, 'via', 'grant', 'grant_id', ${grant.id}::text, 'approver_assignment_id', x.id)),
      c.submitted_at, c.submitted_at, 1
    from claims c
    join claim_lines l on l.organization_id = c.organization_id and l.claim_id = c.id
    join analytic_accounts aa on aa.organization_id = c.organization_id and aa.code = ${accountOf}
    join approver_assignments x on x.organization_id = c.organization_id and x.analytic_account_id = aa.id
    where c.organization_id = ${organizationId}::uuid`);
  step('open sign-offs');
  await exec(sql`analyze`);
  step('analyze');
  return { organizationId, apiKey: key.token };
}
