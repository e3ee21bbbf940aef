/**
 * Every gap reason and every refusal code of the contract (2.5), each from a situation built here, and
 * for refusals the act agreeing with the descriptor: the act is refused 403 transition_refused with
 * the very refusal the caller was shown (docs/design.md §11 and §17).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { analyticAxes, members, positions } from '../../src/db/schema';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { decide, insertAssignment, insertGrant, readClaim, retireGrants } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData } from '../factories/claims';
import { createTestMember, createTestOrganization, type TestMember } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { refusal } from '../helpers/settings';

const t = useTestApp();

type Chart = 'plain' | 'retired_head' | 'vacant_head' | 'inactive_head' | 'headless' | 'claimant_heads_unit';

async function world(opts: { chart?: Chart; superiorBands?: { level?: number; min_amount: string; max_amount: string | null }[]; pmMax?: string; fallback?: boolean } = {}) {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const m = (o: { role?: 'employee' | 'accountant' } = {}) => createTestMember(t.db, org.id, { role: o.role ?? 'employee' });
  const employee = await m();
  const div = await m();
  const head = await m();
  const [pm, pm2, controller, accountant, loner] = [await m(), await m(), await m(), await m({ role: 'accountant' }), await m()];
  const division = await createOrgUnit(t.db, { organizationId: org.id, code: 'DIV', name: 'Division' });
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT', name: 'Department', parentId: division.id });
  const divHead = await createPosition(t.db, { organizationId: org.id, orgUnitId: division.id, title: 'Division head', isUnitHead: true });
  await assignPosition(t.db, { organizationId: org.id, memberId: div.id, positionId: divHead.id, validFrom: '2020-01-01' });
  let deptHead: { id: string } | undefined;
  if (opts.chart !== 'headless') {
    deptHead = await createPosition(t.db, {
      organizationId: org.id,
      orgUnitId: dept.id,
      title: 'Department head',
      isUnitHead: true,
    });
    if (opts.chart === 'claimant_heads_unit') await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: deptHead.id, validFrom: '2020-01-01', isPrimary: false });
    else if (opts.chart !== 'vacant_head') await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: deptHead.id, validFrom: '2020-01-01' });
  }
  // Retired and deactivated after the assignments were made, as happens in an organization.
  if (opts.chart === 'retired_head') await t.db.update(positions).set({ retiredAt: new Date('2021-01-01T00:00:00Z') }).where(eq(positions.id, deptHead!.id));
  if (opts.chart === 'inactive_head') await t.db.update(members).set({ active: false }).where(eq(members.id, head.id));
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });

  await retireGrants(t.db, org.id);
  const fc = opts.fallback ? await insertGrant(t.db, org.id, { kind: 'default', step: 'finance', holderMemberId: controller.id }) : undefined;
  const superior = await insertGrant(t.db, org.id, { kind: 'superior', step: 'review', bands: opts.superiorBands ?? [] });
  const accounts = await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance', fallbackGrantId: fc?.id ?? null });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm.id, maxAmount: opts.pmMax ?? null });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.alpha.id, memberId: pm2.id });
  return { org, ref, employee, div, head, pm, pm2, controller, accountant, loner, superior, accounts, deptHead, divHead };
}
type World = Awaited<ReturnType<typeof world>>;

/** A claim of `claimant` with one line per [amount, account], submitted. */
async function submitted(w: World, claimant: TestMember, lines: [string, string][]) {
  const claim = await fileTestClaim(t, claimant);
  for (const [amount, accountId] of lines) {
    await addClaimLine(t.db, {
      organizationId: w.org.id,
      claimId: claim.id,
      now: new Date(),
      type: 'receipt',
      expenseDate: '2026-01-10',
      categoryId: w.ref.meals.id,
      description: 'Meal',
      amount,
      documentBasis: 'relaxation_receipt',
      relaxationReason: 'Hawker stall',
      shares: [{ analyticAccountId: accountId, percentage: '100' }],
    });
  }
  return decide(t, claimant.session, claim.id, 'submit');
}

/** Up to finance: the department head signs review. */
async function inFinance(w: World, lines: [string, string][]) {
  const review = await submitted(w, w.employee, lines);
  return decide(t, w.head.session, review.claim.id, 'approve');
}

const approveOf = (answer: any) => answer.available_transitions.find((d: any) => d.action_key === 'approve');

describe('gap reasons, each from its situation', () => {
  const review: [string, Chart | undefined, (w: World) => object][] = [
    ['position_retired', 'retired_head', (w) => ({ position_id: w.deptHead!.id })],
    ['vacant', 'vacant_head', (w) => ({ position_id: w.deptHead!.id })],
    ['member_inactive', 'inactive_head', (w) => ({ position_id: w.deptHead!.id, member_id: w.head.id })],
    ['no_unit_head', 'headless', () => ({})],
    ['only_the_claimant', 'claimant_heads_unit', (w) => ({ position_id: w.deptHead!.id, member_id: w.employee.id })],
  ];
  it.each(review)('%s: the walk passes the superior over with the gap, and the division head may sign', async (reason, chart, fields) => {
    const w = await world({ chart });
    const answer = await submitted(w, w.employee, [['50.00', w.ref.zeta.id]]);
    expect(answer.signoffs).toHaveLength(1);
    expect(answer.signoffs[0]).toMatchObject({ eligible: [w.div.id], gap: { grant_id: w.superior.id, reason, ...fields(w) } });
    expect(approveOf(await readClaim(t, w.div.session, answer.claim.id))).toMatchObject({ allowed: true, signs: [{ amount: '50.00', analytic_account_id: w.ref.zeta.id }] });
  });

  it('no_primary_position: a claimant without a position has nobody, and the step shows the gap', async () => {
    const w = await world();
    const answer = await submitted(w, w.loner, [['50.00', w.ref.zeta.id]]);
    expect(answer.signoffs[0]).toMatchObject({ eligible: [], gap: { reason: 'no_primary_position', member_id: w.loner.id, grant_id: w.superior.id } });
    const shown = approveOf(await readClaim(t, w.accountant.session, answer.claim.id));
    expect(shown).toMatchObject({ allowed: false, gaps: [{ reason: 'no_primary_position', grant_id: w.superior.id }] });
    expect(shown.refusal).toBeUndefined();
    expect((await refusal(decide(t, w.accountant.session, answer.claim.id, 'approve'))).status).toBe(403);
  });

  it('above_root: the division head has no superior', async () => {
    const w = await world();
    const answer = await submitted(w, w.div, [['50.00', w.ref.zeta.id]]);
    expect(answer.signoffs[0]).toMatchObject({ eligible: [], gap: { reason: 'above_root', position_id: w.divHead.id } });
    expect(approveOf(await readClaim(t, w.accountant.session, answer.claim.id)).gaps).toEqual([expect.objectContaining({ reason: 'above_root' })]);
  });

  it('no_band_covers_amount: holders found, none covers the claim total', async () => {
    const w = await world({ superiorBands: [{ level: 1, min_amount: '0', max_amount: '100' }] });
    const answer = await submitted(w, w.employee, [['500.00', w.ref.zeta.id]]);
    expect(answer.signoffs[0]).toMatchObject({ eligible: [], gap: { reason: 'no_band_covers_amount', analytic_account_id: w.ref.zeta.id } });
  });

  it('no_account_approver: a finance share on an account nobody approves', async () => {
    const w = await world();
    const finance = await inFinance(w, [['80.00', w.ref.sales.id]]);
    expect(finance.claim.state).toBe('finance');
    expect(finance.signoffs[0]).toMatchObject({ eligible: [], amount: '80.00', gap: { reason: 'no_account_approver', grant_id: w.accounts.id, analytic_account_id: w.ref.sales.id } });
  });

  it('unallocated: a required axis the lines do not charge blocks the step, even with every share signed', async () => {
    const w = await world();
    const answer = await submitted(w, w.employee, [['60.00', w.ref.zeta.id]]);
    await t.db.update(analyticAxes).set({ requiredOnClaims: true }).where(eq(analyticAxes.id, w.ref.departments.id));
    const shown = approveOf(await readClaim(t, w.head.session, answer.claim.id));
    expect(shown).toMatchObject({ allowed: true, gaps: [{ reason: 'unallocated', axis_id: w.ref.departments.id, grant_id: w.superior.id }] });
    const after = await decide(t, w.head.session, answer.claim.id, 'approve');
    expect(after.claim.state).toBe('review');
    expect(after.signoffs[0].signed).toMatchObject({ actor_member_id: w.head.id, via: 'grant' });
  });
});

describe('refusal codes: the descriptor and the act agree', () => {
  async function agree(w: World, session: string, claimId: string, action: string, code: string) {
    const shown = (await readClaim(t, session, claimId)).available_transitions.find((d: any) => d.action_key === action);
    expect(shown).toMatchObject({ allowed: false, refusal: { code } });
    const e: any = await refusal(decide(t, session, claimId, action, 'Because'));
    expect({ status: e.status, code: e.appCode, refusal: e.extensions?.refusal }).toEqual({ status: 403, code: 'transition_refused', refusal: shown.refusal });
  }

  it('not_reporter: only the claimant submits', async () => {
    const w = await world();
    const claim = await fileTestClaim(t, w.employee);
    await addClaimLine(t.db, { organizationId: w.org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-10', categoryId: w.ref.meals.id, description: 'Meal', amount: '10.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Stall', shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '100' }] });
    await agree(w, w.accountant.session, claim.id, 'submit', 'not_reporter');
  });

  it('self_approval: the claimant may not sign', async () => {
    const w = await world();
    const answer = await submitted(w, w.employee, [['10.00', w.ref.zeta.id]]);
    await agree(w, w.employee.session, answer.claim.id, 'approve', 'self_approval');
  });

  it('already_signed: a second signature by the same approver', async () => {
    const w = await world();
    const finance = await inFinance(w, [['10.00', w.ref.zeta.id], ['20.00', w.ref.alpha.id]]);
    const signed = await decide(t, w.pm.session, finance.claim.id, 'approve');
    expect(signed.claim.state).toBe('finance');
    await agree(w, w.pm.session, finance.claim.id, 'approve', 'already_signed');
  });

  it('no_band_covers_amount: nobody at all covers the share', async () => {
    const w = await world({ pmMax: '100' });
    const finance = await inFinance(w, [['500.00', w.ref.zeta.id]]);
    await agree(w, w.pm.session, finance.claim.id, 'approve', 'no_band_covers_amount');
  });

  it('not_in_band: the approver holds authority, not for this amount; the fallback covers it', async () => {
    const w = await world({ pmMax: '100', fallback: true });
    const finance = await inFinance(w, [['500.00', w.ref.zeta.id]]);
    await agree(w, w.pm.session, finance.claim.id, 'approve', 'not_in_band');
    const detail = approveOf(await readClaim(t, w.pm.session, finance.claim.id)).refusal.detail;
    expect(detail).toContain('0.00 to 100.00');
    expect(approveOf(await readClaim(t, w.controller.session, finance.claim.id))).toMatchObject({ allowed: true });
  });

  it('dispute_raiser: the account approver who disputed may not resolve', async () => {
    const w = await world({ fallback: true });
    const finance = await inFinance(w, [['10.00', w.ref.zeta.id], ['20.00', w.ref.alpha.id]]);
    const disputed = await decide(t, w.pm.session, finance.claim.id, 'dispute', 'Not our project');
    expect(disputed.claim).toMatchObject({ state: 'disputed', semantic: 'dispute' });
    await agree(w, w.pm.session, finance.claim.id, 'resolve', 'dispute_raiser');
    const resolved = await decide(t, w.pm2.session, finance.claim.id, 'resolve');
    expect(resolved.claim.state).toBe('finance');
  });
});
