import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { claims } from '../../src/db/schema';
import { Dec, formatAmount } from '../../src/lib/money';
import { decide, insertGrant, retireGrants } from '../factories/approvals';
import { setClaimCreatedAt, submitForSignoff } from '../factories/claim-access';
import { addClaimLine, createClaimReferenceData, uploadClaimDocument, withdrawClaimLine } from '../factories/claims';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { useTestApp } from '../helpers/app';

/**
 * The claim list's items are the `claim` part of each claim's answer (GET /v1/expenses/claims/{id}),
 * built for the whole page at once: every item deep-equals what `get` answers for that claim, and the
 * statements a page costs do not grow with the page's size.
 */
const t = useTestApp();
const at = (iso: string) => new Date(iso);
const all = (account: { id: string }) => [{ analyticAccountId: account.id, percentage: '100' }];

afterEach(() => t.setNow(undefined));

/**
 * An employee and a colleague in the Sales Department, headed by the accountant (their superior, who
 * signs in review); the employee moves to Finance on 1 May 2026, so a claim's unit depends on the day
 * it is looked up on. The finance controller (the accountant) signs every share in finance.
 */
async function setup() {
  const org = await createTestOrganization(t.db);
  const employee = await createTestMember(t.db, org.id, { role: 'employee', name: 'Devi' });
  const accountant = await createTestMember(t.db, org.id, { role: 'accountant', name: 'Ben' });
  const colleague = await createTestMember(t.db, org.id, { role: 'employee', name: 'Chong' });
  const ref = await createClaimReferenceData(t.db, org.id);
  const client = (token: string) => createInProcessClient(t.deps, { token, idempotencyKey: randomUUID() });
  const sales = await createOrgUnit(t.db, { organizationId: org.id, code: 'SALES', name: 'Sales Department' });
  const finance = await createOrgUnit(t.db, { organizationId: org.id, code: 'FIN', name: 'Finance' });
  const head = await createPosition(t.db, { organizationId: org.id, orgUnitId: sales.id, title: 'Sales manager', isUnitHead: true });
  const staff = await createPosition(t.db, { organizationId: org.id, orgUnitId: sales.id, title: 'Sales assistant' });
  const financeExec = await createPosition(t.db, { organizationId: org.id, orgUnitId: finance.id, title: 'Finance executive' });
  await assignPosition(t.db, { organizationId: org.id, memberId: accountant.id, positionId: head.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: colleague.id, positionId: staff.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: staff.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: financeExec.id, validFrom: '2026-05-01' });
  await retireGrants(t.db, org.id);
  const controller = await insertGrant(t.db, org.id, { name: 'Finance controller', kind: 'default', step: 'finance', holderMemberId: accountant.id });
  await insertGrant(t.db, org.id, { name: 'Line manager', kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { name: 'Project approvers', kind: 'account_approver', step: 'finance', fallbackGrantId: controller.id });
  return { org, employee, accountant, colleague, ref, client };
}

/** Clears the unit frozen at submission, as claims submitted before it was frozen have it. */
async function unfreezeUnit(organizationId: string, claimId: string) {
  await t.db.update(claims).set({ claimantUnitName: null, claimantPositionId: null }).where(and(eq(claims.organizationId, organizationId), eq(claims.id, claimId)));
}

describe('the claim list is built from a list view equal to each claim answer’s claim part', () => {
  it('mine, all and to_act (with your_share): every item deep-equals the claim of expenses.claims.get', async () => {
    const { org, employee, accountant, colleague, ref, client } = await setup();
    const scan = 'the same receipt scan, twice';

    // A: lines of every type, shares on several accounts of two axes, a withdrawn line, a receipt
    // scanned again on the colleague's claim; submitted in April (unit frozen: Sales), approved in
    // review, now in finance where the accountant signs.
    t.setNow(at('2026-04-10T02:00:00Z'));
    const a = (await client(employee.apiKey).expenses.claims.create({ title: 'Penang roadshow' })).claim.id;
    const base = { organizationId: org.id, claimId: a, now: at('2026-04-10T02:00:00Z') };
    await addClaimLine(t.db, {
      ...base,
      type: 'receipt',
      expenseDate: '2026-04-08',
      categoryId: ref.meals.id,
      description: 'Team dinner',
      amount: '106.00',
      taxAmount: '6.00',
      supplierName: 'Nasi Kandar Line Clear',
      shares: [
        { analyticAccountId: ref.zeta.id, percentage: '60' },
        { analyticAccountId: ref.alpha.id, percentage: '40' },
        { analyticAccountId: ref.sales.id, percentage: '100' },
      ],
      documentIds: [(await uploadClaimDocument(t.db, org.id, employee.id, scan)).id],
    });
    await addClaimLine(t.db, { ...base, type: 'receipt', expenseDate: '2026-04-08', categoryId: ref.travel.id, description: 'Airport ride', currency: 'USD', amount: '50.00', fxRate: '4.4712', supplierName: 'Uber', documentBasis: 'foreign_supplier', shares: all(ref.alpha) });
    await addClaimLine(t.db, { ...base, type: 'mileage', expenseDate: '2026-04-09', categoryId: ref.travel.id, description: 'KL to Ipoh', quantity: '120.5', rateId: ref.mileage.id, shares: all(ref.sales) });
    await addClaimLine(t.db, { ...base, type: 'per_diem', expenseDate: '2026-04-09', categoryId: ref.meals.id, description: 'Two days in Singapore', quantity: '2', rateId: ref.perDiem.id, band: 'overseas', shares: all(ref.sales) });
    await addClaimLine(t.db, { ...base, type: 'advance_offset', expenseDate: '2026-04-01', categoryId: ref.advance.id, description: 'Cash advance', amount: '200', shares: all(ref.sales) });
    const withdrawn = await addClaimLine(t.db, { ...base, type: 'receipt', expenseDate: '2026-04-09', categoryId: ref.travel.id, description: 'Taxi', currency: 'SGD', amount: '30.00', fxRate: '3.3', supplierName: 'ComfortDelGro', shares: all(ref.zeta) });
    await withdrawClaimLine(t.db, { organizationId: org.id, claimId: a, lineId: withdrawn.id });
    t.setNow(at('2026-04-12T03:00:00Z'));
    await decide(t, employee.session, a, 'submit');

    // C: the colleague's claim with the same scan, submitted: both claims' lines are possible duplicates.
    const c = (await client(colleague.apiKey).expenses.claims.create({ title: 'Dinner, again' })).claim.id;
    const cLine = { organizationId: org.id, claimId: c, now: at('2026-04-12T03:00:00Z'), type: 'receipt' as const, expenseDate: '2026-04-08', categoryId: ref.meals.id };
    await addClaimLine(t.db, { ...cLine, description: 'Dinner', amount: '106.00', shares: all(ref.zeta), documentIds: [(await uploadClaimDocument(t.db, org.id, colleague.id, scan)).id] });
    await decide(t, colleague.session, c, 'submit');

    // E: the colleague's claim, rejected in review. D: the employee's, cancelled in draft (in April: Sales).
    const e = (await client(colleague.apiKey).expenses.claims.create({ title: 'Gym membership' })).claim.id;
    await addClaimLine(t.db, { ...cLine, claimId: e, description: 'Gym', amount: '150.00', shares: all(ref.sales) });
    await decide(t, colleague.session, e, 'submit');
    await decide(t, accountant.session, e, 'reject', 'Not an expense of the company');
    const d = (await client(employee.apiKey).expenses.claims.create({ title: 'Changed my mind' })).claim.id;
    await decide(t, employee.session, d, 'cancel');

    // F: submitted on 20 April without a frozen unit: looked up on the day of the latest submission (Sales).
    t.setNow(at('2026-04-20T03:00:00Z'));
    const f = (await client(employee.apiKey).expenses.claims.create({ title: 'Printer ink' })).claim.id;
    await addClaimLine(t.db, { organizationId: org.id, claimId: f, now: at('2026-04-20T03:00:00Z'), type: 'receipt', expenseDate: '2026-04-19', categoryId: ref.meals.id, description: 'Ink', amount: '45.50', supplierName: 'Popular', shares: all(ref.alpha) });
    await decide(t, employee.session, f, 'submit');
    await unfreezeUnit(org.id, f);

    // G: put in review without a submit decision (submitted_at 15 May, the employee then in Finance).
    t.setNow(at('2026-05-15T03:00:00Z'));
    const g = (await client(employee.apiKey).expenses.claims.create({ title: 'Staged' })).claim.id;
    await submitForSignoff(t.db, { organizationId: org.id, claimId: g, categoryId: ref.travel.id, amount: '80.00', shares: all(ref.zeta), eligible: () => [accountant.id], now: at('2026-05-15T03:00:00Z') });
    await unfreezeUnit(org.id, g);

    // B: all in one foreign currency, still a draft (its unit is today's: Finance). H: an empty draft.
    const b = (await client(employee.apiKey).expenses.claims.create({ title: 'Tokyo' })).claim.id;
    const bLine = { organizationId: org.id, claimId: b, now: at('2026-05-15T03:00:00Z'), type: 'receipt' as const, expenseDate: '2026-05-01', categoryId: ref.meals.id };
    await addClaimLine(t.db, { ...bLine, description: 'Ramen', currency: 'JPY', amount: '1200', fxRate: '0.0301', shares: all(ref.zeta) });
    await addClaimLine(t.db, { ...bLine, description: 'Sushi', currency: 'JPY', amount: '4500', fxRate: '0.0302', supplierName: 'Sushi Dai', shares: all(ref.alpha) });
    const h = (await client(employee.apiKey).expenses.claims.create({ title: 'Empty' })).claim.id;

    t.setNow(at('2026-06-01T02:30:00Z'));
    await decide(t, accountant.session, a, 'approve');

    // The order of filing, newest first: h, b, g, f, d, e, c, a (created_at moved apart, so pages are fixed).
    const order = [a, c, e, d, f, g, b, h];
    for (const [i, id] of order.entries()) await setClaimCreatedAt(t.db, { organizationId: org.id, claimId: id, createdAt: new Date(Date.UTC(2026, 3, 1 + i, 1)) });

    t.setNow(at('2026-06-01T03:00:00Z'));
    const answers = new Map<string, any>();
    for (const id of order) answers.set(id, await client(accountant.apiKey).expenses.claims.get({ id }));
    // The world is what it says: states, units, derived fields, and a possible duplicate.
    const claimOf = (id: string) => answers.get(id)!.claim;
    expect(order.map((id) => [claimOf(id).state, claimOf(id).claimant_unit_name])).toEqual([
      ['finance', 'Sales Department'],
      ['review', 'Sales Department'],
      ['rejected', 'Sales Department'],
      ['cancelled', 'Sales Department'],
      ['review', 'Sales Department'],
      ['review', 'Finance'],
      ['draft', 'Finance'],
      ['draft', 'Finance'],
    ]);
    expect(claimOf(a)).toMatchObject({ total: '526.96', multiple_currencies: true, merchant: 'Nasi Kandar Line Clear', project_names: ['Alpha Bridge', 'Zeta Tower'] });
    expect(claimOf(a).category_ids).toEqual([ref.meals.id, ref.travel.id, ref.advance.id]);
    expect(claimOf(b)).toMatchObject({ total: '172.02', original_currency: 'JPY', original_total: '5700', merchant: 'Sushi Dai', project_names: ['Zeta Tower', 'Alpha Bridge'] });
    expect(claimOf(h)).toMatchObject({ total: '0.00', category_ids: [], project_names: [], merchant: null, submitted_at: null });
    expect(answers.get(a)!.lines[0]).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [claimOf(c).reference] });
    expect(answers.get(c)!.lines[0]).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [claimOf(a).reference] });

    const newestFirst = [...order].reverse();
    const list = (token: string, input: Record<string, unknown>) => client(token).expenses.claims.list(input as never);

    // all, as the accountant (reads every claim): one page, and pages of 3.
    const everything = await list(accountant.apiKey, { scope: 'all', limit: 100 });
    expect(everything.claims.map((x) => x.id)).toEqual(newestFirst);
    for (const item of everything.claims) expect(item).toStrictEqual(claimOf(item.id));
    const paged: any[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await list(accountant.apiKey, { scope: 'all', limit: 3, ...(cursor ? { cursor } : {}) });
      paged.push(...page.claims);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(paged).toStrictEqual(everything.claims);

    // mine, and all, as the employee: their own six claims.
    const mine = await list(employee.apiKey, { scope: 'mine', limit: 100 });
    expect(mine.claims.map((x) => x.id)).toEqual(newestFirst.filter((id) => ![c, e].includes(id)));
    for (const item of mine.claims) expect(item).toStrictEqual((await client(employee.apiKey).expenses.claims.get({ id: item.id })).claim);
    expect((await list(employee.apiKey, { scope: 'all', limit: 100 })).claims).toStrictEqual(mine.claims);

    // to_act, as the accountant: A (finance controller) and C (the colleague's superior), each with
    // your_share, the sum of what the approve descriptor of its answer signs.
    const toAct = await list(accountant.apiKey, { scope: 'to_act', limit: 100 });
    expect(toAct.claims.map((x) => x.id)).toEqual([c, a]);
    for (const { your_share, ...item } of toAct.claims) {
      const answer = answers.get(item.id)!;
      expect(item).toStrictEqual(answer.claim);
      const signs = answer.available_transitions.find((x: any) => x.action_key === 'approve').signs as { amount: string }[];
      expect(your_share).toBe(formatAmount(signs.reduce((sum, s) => sum.plus(s.amount), new Dec(0)), 'MYR'));
    }
    // A's shares charge two axes, so its sign-offs add up to more than its total: D-SALES 303.40,
    // P-ALPHA 265.96 and P-ZETA 63.60.
    expect(toAct.claims.map((x) => x.your_share)).toEqual(['106.00', '632.96']);
  });

  it('a page costs the same statements whatever its size', async () => {
    const { org, employee, ref, client } = await setup();
    // 24 claims of the employee, each with two lines (one with a receipt, one withdrawn), in draft
    // or submitted; the newest two are a draft and a claim whose unit is looked up on its submission.
    t.setNow(at('2026-04-10T02:00:00Z'));
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const id = (await client(employee.apiKey).expenses.claims.create({ title: `Claim ${i}` })).claim.id;
      const line = { organizationId: org.id, claimId: id, now: at('2026-04-10T02:00:00Z'), type: 'receipt' as const, expenseDate: '2026-04-08', categoryId: ref.meals.id };
      await addClaimLine(t.db, { ...line, description: 'Lunch', amount: `${10 + i}.00`, shares: all(i % 2 ? ref.zeta : ref.alpha), documentIds: [(await uploadClaimDocument(t.db, org.id, employee.id, `scan ${i}`)).id] });
      const gone = await addClaimLine(t.db, { ...line, description: 'Taxi', amount: '5.00', shares: all(ref.sales) });
      await withdrawClaimLine(t.db, { organizationId: org.id, claimId: id, lineId: gone.id });
      if (i % 3 !== 2) await decide(t, employee.session, id, 'submit');
      if (i % 3 === 1) await unfreezeUnit(org.id, id);
      await setClaimCreatedAt(t.db, { organizationId: org.id, claimId: id, createdAt: new Date(Date.UTC(2026, 3, 1, i)) });
      ids.push(id);
    }
    t.setNow(at('2026-06-01T03:00:00Z'));
    const logger = (t.db as unknown as { session: { logger: { logQuery(query: string, params: unknown[]): void } } }).session.logger;
    const statementsOf = async (limit: number) => {
      let n = 0;
      logger.logQuery = () => void (n += 1);
      try {
        const page = await client(employee.apiKey).expenses.claims.list({ scope: 'mine', limit });
        expect(page.claims).toHaveLength(limit);
        return n;
      } finally {
        delete (logger as { logQuery?: unknown }).logQuery;
      }
    };
    await statementsOf(2); // warm: the credential's and the organization's caches
    const small = await statementsOf(2);
    const large = await statementsOf(20);
    console.info(`statements per page of claims: ${small} for 2 claims, ${large} for 20`);
    expect(large).toBe(small);
    // The listing, and the list view's lines, shares, latest submissions and units: a handful beyond authentication.
    expect(small).toBeLessThanOrEqual(20);
  });

  it('to_act and mine: a page of 50 claims costs the statements a page of 5 does', async () => {
    const { org, employee, accountant, ref, client } = await setup();
    // 55 claims of the employee, submitted: each awaits the accountant's review sign-off (their superior).
    t.setNow(at('2026-04-10T02:00:00Z'));
    for (let i = 0; i < 55; i++) {
      const id = (await client(employee.apiKey).expenses.claims.create({ title: `Claim ${i}` })).claim.id;
      const line = { organizationId: org.id, claimId: id, now: at('2026-04-10T02:00:00Z'), type: 'receipt' as const, expenseDate: '2026-04-08', categoryId: ref.meals.id };
      await addClaimLine(t.db, { ...line, description: 'Lunch', amount: `${10 + i}.00`, shares: all(i % 2 ? ref.zeta : ref.alpha) });
      await decide(t, employee.session, id, 'submit');
      await setClaimCreatedAt(t.db, { organizationId: org.id, claimId: id, createdAt: new Date(Date.UTC(2026, 3, 1, 0, i)) });
    }
    t.setNow(at('2026-04-11T03:00:00Z'));
    const logger = (t.db as unknown as { session: { logger: { logQuery(query: string, params: unknown[]): void } } }).session.logger;
    const statementsOf = async (token: string, scope: 'to_act' | 'mine', limit: number) => {
      let n = 0;
      logger.logQuery = () => void (n += 1);
      try {
        const page = await client(token).expenses.claims.list({ scope, limit });
        expect(page.claims).toHaveLength(limit);
        if (scope === 'to_act') expect(page.claims.filter((c) => c.your_share !== c.total)).toEqual([]);
        return n;
      } finally {
        delete (logger as { logQuery?: unknown }).logQuery;
      }
    };
    for (const [token, scope] of [[accountant.apiKey, 'to_act'], [employee.apiKey, 'mine']] as const) {
      await statementsOf(token, scope, 5); // warm: the credential's and the organization's caches
      const small = await statementsOf(token, scope, 5);
      const large = await statementsOf(token, scope, 50);
      console.info(`statements per ${scope} page: ${small} for 5 claims, ${large} for 50`);
      expect(large).toBe(small);
      // The listing, the approval engine's reads for the page's candidates and the list view's: a couple of dozen beyond authentication.
      expect(small).toBeLessThanOrEqual(scope === 'to_act' ? 40 : 20);
    }
  });
});
