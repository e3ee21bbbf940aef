import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { claimLines, claimSettlements, fileAttachments, payoutChannels } from '../../src/db/schema';
import { open } from '../../src/lib/secret-box';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { createAnalyticAccount, createTaxCode } from '../factories/setup';
import {
  addClaimLine,
  createClaimReferenceData,
  createTestPayoutChannel,
  detachLineDocument,
  recordClaimSettlement,
  TEST_PAYOUT_KEY,
  uploadClaimDocument,
  withdrawClaimLine,
} from '../factories/claims';
import { decide, insertAssignment, insertGrant, pay, retireGrants } from '../factories/approvals';
import { submitForSignoff } from '../factories/claim-access';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

const at = (iso: string) => new Date(iso);

async function setup() {
  const org = await createTestOrganization(t.db);
  const employee = await createTestMember(t.db, org.id, { role: 'employee', name: 'Devi' });
  const accountant = await createTestMember(t.db, org.id, { role: 'accountant', name: 'Ben' });
  const colleague = await createTestMember(t.db, org.id, { role: 'employee', name: 'Chong' });
  const ref = await createClaimReferenceData(t.db, org.id);
  // A fresh Idempotency-Key per client: writes made with an API key need one.
  const client = (token: string) => createInProcessClient(t.deps, { token, idempotencyKey: randomUUID() });
  // The org chart and grants the engine signs by: Ben heads the Sales Department (the colleague's and
  // the employee's superior signs in review); no account has an approver of its own, so the project
  // approvers' fallback, Ben as finance controller, signs every share in finance (an escalation).
  const salesUnit = await createOrgUnit(t.db, { organizationId: org.id, code: 'SALES', name: 'Sales Department' });
  const head = await createPosition(t.db, { organizationId: org.id, orgUnitId: salesUnit.id, title: 'Sales manager', isUnitHead: true });
  const staff = await createPosition(t.db, { organizationId: org.id, orgUnitId: salesUnit.id, title: 'Sales assistant' });
  await assignPosition(t.db, { organizationId: org.id, memberId: accountant.id, positionId: head.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: colleague.id, positionId: staff.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  const controller = await insertGrant(t.db, org.id, { name: 'Finance controller', kind: 'default', step: 'finance', holderMemberId: accountant.id });
  await insertGrant(t.db, org.id, { name: 'Line manager', kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { name: 'Project approvers', kind: 'account_approver', step: 'finance', fallbackGrantId: controller.id });
  return { org, employee, accountant, colleague, ref, client, salesUnit };
}

/** A share of 100% on the account: what a line needs to be submitted. */
const all = (account: { id: string }) => [{ analyticAccountId: account.id, percentage: '100' }];

describe('the claim answer is built from stored lines, decisions, settlements and sign-offs', () => {
  it('lines of every type, a withdrawn line, several currencies; the claim through submit, sign-off, approve and pay', async () => {
    const { org, employee, accountant, colleague, ref, client, salesUnit: sales } = await setup();
    await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: colleague.id });
    const finance = await createOrgUnit(t.db, { organizationId: org.id, code: 'FIN', name: 'Finance' });
    const salesExec = await createPosition(t.db, { organizationId: org.id, orgUnitId: sales.id, title: 'Sales executive' });
    const financeExec = await createPosition(t.db, { organizationId: org.id, orgUnitId: finance.id, title: 'Finance executive' });
    await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: salesExec.id, validFrom: '2020-01-01' });
    await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: financeExec.id, validFrom: '2026-05-01' });
    // A secondary position never decides the unit.
    await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: financeExec.id, validFrom: '2019-01-01', isPrimary: false });
    const channel = await createTestPayoutChannel(t.db, org.id, employee.id, { accountNumber: '5140-1234-5678' });

    t.setNow(at('2026-04-10T02:00:00Z'));
    const filed = await client(employee.apiKey).expenses.claims.create({ title: 'Penang roadshow', payout_channel_id: channel.id });
    const claimId = filed.claim.id;
    expect(filed.claim.claimant_unit_name).toBe('Sales Department');
    const receipt = await uploadClaimDocument(t.db, org.id, employee.id, 'receipt-nasi-kandar.pdf bytes');
    const receipt2 = await uploadClaimDocument(t.db, org.id, employee.id, 'second page');
    const now = at('2026-04-10T02:00:00Z');
    const base = { organizationId: org.id, claimId, now };
    await addClaimLine(t.db, {
      ...base,
      type: 'receipt',
      expenseDate: '2026-04-08',
      categoryId: ref.meals.id,
      description: 'Team dinner',
      amount: '106.00',
      taxAmount: '6.00',
      supplierName: 'Nasi Kandar Line Clear',
      supplierTin: 'IG20000000001',
      documentBasis: 'einvoice_company',
      einvoiceUuid: 'F9D425P6DS7D8IU9K2M1QX4T7B',
      einvoiceValidatedAt: at('2026-04-08T12:00:00Z'),
      shares: [
        { analyticAccountId: ref.zeta.id, percentage: '60' },
        { analyticAccountId: ref.alpha.id, percentage: '40' },
        { analyticAccountId: ref.sales.id, percentage: '100' },
      ],
      documentIds: [receipt.id, receipt2.id],
    });
    await addClaimLine(t.db, {
      ...base,
      type: 'receipt',
      expenseDate: '2026-04-08',
      categoryId: ref.travel.id,
      description: 'Ride from the airport',
      currency: 'USD',
      amount: '50.00',
      fxRate: '4.4712',
      supplierName: 'Uber',
      documentBasis: 'foreign_supplier',
      shares: [{ analyticAccountId: ref.alpha.id, percentage: '100' }],
    });
    const sales100 = all(ref.sales);
    await addClaimLine(t.db, { ...base, type: 'mileage', expenseDate: '2026-04-09', categoryId: ref.travel.id, description: 'KL to Ipoh', quantity: '120.5', rateId: ref.mileage.id, shares: sales100 });
    await addClaimLine(t.db, { ...base, type: 'per_diem', expenseDate: '2026-04-09', categoryId: ref.meals.id, description: 'Two days in Singapore', quantity: '2', rateId: ref.perDiem.id, band: 'overseas', shares: sales100 });
    await addClaimLine(t.db, { ...base, type: 'advance_offset', expenseDate: '2026-04-01', categoryId: ref.advance.id, description: 'Cash advance', amount: '200', shares: sales100 });
    const sgd = await addClaimLine(t.db, {
      ...base,
      type: 'receipt',
      expenseDate: '2026-04-09',
      categoryId: ref.travel.id,
      description: 'Taxi, paid by card',
      currency: 'SGD',
      amount: '30.00',
      fxRate: '3.3',
      bankChargedAmount: '101.37',
      supplierName: 'ComfortDelGro',
    });
    await withdrawClaimLine(t.db, { organizationId: org.id, claimId, lineId: sgd.id });

    const draft = await client(employee.apiKey).expenses.claims.get({ id: claimId });
    expect(draft.claim).toMatchObject({
      revision: 8,
      // 106.00 + 223.56 + 96.40 + 301.00 - 200.00; the withdrawn SGD line does not count.
      total: '526.96',
      original_currency: null,
      original_total: null,
      multiple_currencies: true,
      merchant: 'Nasi Kandar Line Clear',
      category_ids: [ref.meals.id, ref.travel.id, ref.advance.id],
      project_names: ['Alpha Bridge', 'Zeta Tower'],
      submitted_at: null,
      claimant_unit_name: 'Sales Department',
    });
    expect(draft.lines.map((l) => [l.line_no, l.type, l.withdrawn, l.currency, l.amount, l.base_amount, l.fx_rate, l.fx_rate_source, l.reimbursement_basis, l.quantity, l.band])).toEqual([
      [1, 'receipt', false, 'MYR', '106.00', '106.00', '1', 'identity', 'expense_date_rate', '1', null],
      [2, 'receipt', false, 'USD', '50.00', '223.56', '4.4712', 'reference', 'expense_date_rate', '1', null],
      [3, 'mileage', false, 'MYR', '96.40', '96.40', '1', 'identity', 'expense_date_rate', '120.5', 'first_500_km'],
      [4, 'per_diem', false, 'MYR', '301.00', '301.00', '1', 'identity', 'expense_date_rate', '2', 'overseas'],
      [5, 'advance_offset', false, 'MYR', '-200.00', '-200.00', '1', 'identity', 'expense_date_rate', '1', null],
      [6, 'receipt', true, 'SGD', '30.00', '101.37', '3.379', 'bank_statement', 'bank_charged', '1', null],
    ]);
    expect(draft.lines[0]).toMatchObject({
      tax_amount: '6.00',
      supplier_tin: 'IG20000000001',
      document_basis: 'einvoice_company',
      einvoice_uuid: 'F9D425P6DS7D8IU9K2M1QX4T7B',
      einvoice_validated_at: '2026-04-08T12:00:00.000Z',
      relaxation_reason: null,
      documents: [receipt.id, receipt2.id],
      possible_duplicate: false,
      duplicate_claim_references: [],
    });
    expect(draft.lines[0]!.shares).toEqual(
      expect.arrayContaining([
        { analytic_account_id: ref.zeta.id, percentage: '60' },
        { analytic_account_id: ref.alpha.id, percentage: '40' },
        { analytic_account_id: ref.sales.id, percentage: '100' },
      ]),
    );
    expect(draft.lines[2]).toMatchObject({ rate_id: ref.mileage.id, document_basis: 'relaxation_receipt', relaxation_reason: expect.any(String) });

    // Submit: the claim leaves draft for review; the unit is frozen to the day of submission.
    t.setNow(at('2026-04-12T03:00:00Z'));
    await decide(t, employee.session, claimId, 'submit');
    t.setNow(at('2026-06-01T02:00:00Z'));
    const submitted = await client(accountant.apiKey).expenses.claims.get({ id: claimId });
    expect(submitted.claim).toMatchObject({ state: 'review', semantic: 'pending', submitted_at: '2026-04-12T03:00:00.000Z', claimant_unit_name: 'Sales Department' });
    expect(submitted.decisions).toEqual([
      expect.objectContaining({ actor_member_id: employee.id, authority_member_id: employee.id, decided_at: '2026-04-12T03:00:00.000Z', from: 'draft', to: 'review', via: 'reporter' }),
    ]);
    // One sign-off per analytic account the active lines charge, for the base amount it carries
    // (Sales: 106.00 + 96.40 + 301.00 - 200.00); in review the superior, Ben, signs them all.
    expect(submitted.signoffs.map((s) => [s.account_code, s.amount, s.currency, s.eligible, s.state, s.signed])).toEqual([
      ['D-SALES', '303.40', 'MYR', [accountant.id], 'review', undefined],
      ['P-ALPHA', '265.96', 'MYR', [accountant.id], 'review', undefined],
      ['P-ZETA', '63.60', 'MYR', [accountant.id], 'review', undefined],
    ]);
    expect(submitted.available_transitions.find((x) => x.action_key === 'approve')).toMatchObject({ allowed: true, to: 'finance' });
    expect(submitted.available_transitions.find((x) => x.action_key === 'reject')).toMatchObject({ allowed: true, gate: 'source' });

    // While still in draft, the unit is today's: the employee moved to Finance on 1 May.
    const other = await client(employee.apiKey).expenses.claims.create({ title: 'June taxi' });
    expect(other.claim.claimant_unit_name).toBe('Finance');

    t.setNow(at('2026-06-01T02:30:00Z'));
    const inFinance = await decide(t, accountant.session, claimId, 'approve');
    expect(inFinance.claim.state).toBe('finance');
    expect(inFinance.decisions.at(-1)).toMatchObject({ from: 'review', to: 'finance', via: 'grant', actor_member_id: accountant.id, authority_member_id: accountant.id, decided_at: '2026-06-01T02:30:00.000Z' });
    // Zeta Tower has its own approver (the colleague); the other accounts have none, so the finance
    // controller (the project approvers' fallback) signs them.
    expect(inFinance.signoffs.map((s: any) => [s.account_code, s.amount, s.eligible, s.state, s.signed])).toEqual([
      ['D-SALES', '303.40', [accountant.id], 'finance', undefined],
      ['P-ALPHA', '265.96', [accountant.id], 'finance', undefined],
      ['P-ZETA', '63.60', [colleague.id], 'finance', undefined],
    ]);
    t.setNow(at('2026-06-01T02:45:00Z'));
    await decide(t, accountant.session, claimId, 'approve');
    const signed = await client(accountant.apiKey).expenses.claims.get({ id: claimId });
    expect(signed.claim.state).toBe('finance');
    expect(signed.signoffs.map((s) => [s.account_code, s.signed?.actor_member_id ?? null, s.signed?.via ?? null, s.signed?.decided_at ?? null])).toEqual([
      ['D-SALES', accountant.id, 'escalation', '2026-06-01T02:45:00.000Z'],
      ['P-ALPHA', accountant.id, 'escalation', '2026-06-01T02:45:00.000Z'],
      ['P-ZETA', null, null, null],
    ]);
    expect(signed.signoffs[0]!.signed).toMatchObject({ amount: '303.40', state: 'finance', approver_assignment_id: null, analytic_account_id: ref.sales.id, axis_id: ref.departments.id });
    t.setNow(at('2026-06-01T03:00:00Z'));
    const approved = await decide(t, colleague.session, claimId, 'approve');
    expect(approved.claim.state).toBe('approved');
    expect(approved.decisions.at(-1)).toMatchObject({ from: 'finance', to: 'approved', via: 'grant', actor_member_id: colleague.id, authority_member_id: colleague.id });

    const proof = await uploadClaimDocument(t.db, org.id, accountant.id, 'bank advice');
    t.setNow(at('2026-06-03T03:00:00Z'));
    await pay(t, accountant.session, claimId, { channel_id: channel.id, proof_document_id: proof.id });

    const paid = await client(employee.apiKey).expenses.claims.get({ id: claimId });
    t.setNow(undefined);
    expect(paid.claim).toMatchObject({ state: 'paid', semantic: 'payout', submitted_at: '2026-04-12T03:00:00.000Z' });
    expect(paid.decisions.map((d) => `${d.from}->${d.to}:${d.via}`)).toEqual(['draft->review:reporter', 'review->finance:grant', 'finance->finance:escalation', 'finance->approved:grant', 'approved->paid:grant']);
    // Not a sign-off step any more.
    expect(paid.signoffs).toEqual([]);
    expect(paid.available_transitions).toEqual([]);
    // Newest first, masked.
    expect(paid.settlements).toEqual([
      {
        id: expect.any(String),
        channel_id: channel.id,
        channel_key: 'bank_transfer',
        channel_name: channel.name,
        amount: '526.96',
        currency: 'MYR',
        settled_at: '2026-06-03T03:00:00.000Z',
        settled_by: accountant.id,
        proof_document_id: proof.id,
        account_tail: '5678',
        fields: [
          { key: 'bank_name', label: { en: 'Bank', ms: 'Bank', zh: '银行' }, display: 'Maybank' },
          { key: 'account_holder', label: { en: 'Account holder', ms: 'Pemegang akaun', zh: '账户持有人' }, display: 'N** A***** B**** A****' },
          { key: 'account_number', label: { en: 'Account number', ms: 'Nombor akaun', zh: '账号' }, display: '••••••••5678' },
        ],
      },
    ]);
    const json = JSON.stringify(paid);
    expect(json).not.toContain('1234');
    expect(json).not.toContain('Aisyah');
    expect(json).not.toContain('v1.');
  });

  it('a claim all in one foreign currency has original_currency and original_total', async () => {
    const { org, employee, ref, client } = await setup();
    const filed = await client(employee.apiKey).expenses.claims.create({ title: 'Tokyo' });
    const base = { organizationId: org.id, claimId: filed.claim.id, now: new Date(), categoryId: ref.meals.id, expenseDate: '2026-04-01', type: 'receipt' as const };
    await addClaimLine(t.db, { ...base, description: 'Ramen', currency: 'JPY', amount: '1200', fxRate: '0.0301' });
    await addClaimLine(t.db, { ...base, description: 'Sushi', currency: 'JPY', amount: '4500', fxRate: '0.0302' });
    const answer = await client(employee.apiKey).expenses.claims.get({ id: filed.claim.id });
    expect(answer.claim).toMatchObject({ total: '172.02', original_currency: 'JPY', original_total: '5700', multiple_currencies: false, merchant: null, project_names: [] });
    expect(answer.lines.map((l) => [l.amount, l.base_amount])).toEqual([
      ['1200', '36.12'],
      ['4500', '135.90'],
    ]);
  });
});

describe('possible_duplicate across claims in different states', () => {
  it('signals a document whose SHA-256 supports an active line of another claim that left draft and is not rejected or cancelled', async () => {
    const { org, employee, accountant, colleague, ref, client } = await setup();
    const now = new Date();
    const same = 'the very same receipt scan';
    const fileOf = (who: string) => uploadClaimDocument(t.db, org.id, who, same);

    const mine = await client(employee.apiKey).expenses.claims.create({ title: 'Mine' });
    await addClaimLine(t.db, { organizationId: org.id, claimId: mine.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'Lunch', amount: '20', shares: all(ref.zeta), documentIds: [(await fileOf(employee.id)).id] });
    const theirs = await client(colleague.apiKey).expenses.claims.create({ title: 'Theirs' });
    const theirFile = await fileOf(colleague.id);
    await addClaimLine(t.db, { organizationId: org.id, claimId: theirs.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'Lunch', amount: '20', shares: all(ref.zeta), documentIds: [theirFile.id] });
    const mineAgain = await client(employee.apiKey).expenses.claims.create({ title: 'Mine again' });
    await addClaimLine(t.db, { organizationId: org.id, claimId: mineAgain.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'Lunch', amount: '20', shares: all(ref.zeta), documentIds: [(await fileOf(employee.id)).id] });

    const flag = async (token: string, claimId: string) => {
      const line = (await client(token).expenses.claims.get({ id: claimId })).lines[0]!;
      return [line.possible_duplicate, line.duplicate_claim_references];
    };

    // Every other claim is still a draft: nothing to signal.
    expect(await flag(employee.apiKey, mine.claim.id)).toEqual([false, []]);

    // The colleague's claim is submitted: a possible duplicate. The employee may not read that claim,
    // so its reference is not disclosed to them; the approver sees it.
    await decide(t, colleague.session, theirs.claim.id, 'submit');
    expect(await flag(employee.apiKey, mine.claim.id)).toEqual([true, []]);
    expect(await flag(accountant.apiKey, mine.claim.id)).toEqual([true, [theirs.claim.reference]]);
    // A draft claim of the caller's own with the same file does not count, but once submitted it does, in filing order.
    await decide(t, employee.session, mineAgain.claim.id, 'submit');
    expect(await flag(employee.apiKey, mine.claim.id)).toEqual([true, [mineAgain.claim.reference]]);
    expect(await flag(accountant.apiKey, mine.claim.id)).toEqual([true, [theirs.claim.reference, mineAgain.claim.reference]]);
    // Seen from the colleague's claim: the employee's draft never counts, their submitted claim does.
    expect(await flag(accountant.apiKey, theirs.claim.id)).toEqual([true, [mineAgain.claim.reference]]);

    // Rejected and cancelled claims stop counting.
    await decide(t, accountant.session, theirs.claim.id, 'reject', 'Duplicate');
    await decide(t, employee.session, mineAgain.claim.id, 'withdraw');
    await decide(t, employee.session, mineAgain.claim.id, 'cancel');
    expect(await flag(accountant.apiKey, mine.claim.id)).toEqual([false, []]);
  });

  it('a withdrawn line or a detached document of the other claim does not count; approved and paid claims do', async () => {
    const { org, employee, accountant, colleague, ref, client } = await setup();
    const now = new Date();
    const content = `scan ${Math.random()}`;
    const mine = await client(employee.apiKey).expenses.claims.create({ title: 'Mine' });
    await addClaimLine(t.db, { organizationId: org.id, claimId: mine.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'x', amount: '5', shares: all(ref.zeta), documentIds: [(await uploadClaimDocument(t.db, org.id, employee.id, content)).id] });

    const other = await client(colleague.apiKey).expenses.claims.create({ title: 'Other' });
    const f = await uploadClaimDocument(t.db, org.id, colleague.id, content);
    const line = await addClaimLine(t.db, { organizationId: org.id, claimId: other.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'x', amount: '5', shares: all(ref.zeta), documentIds: [f.id] });
    // A file backs one record only: the same upload cannot support a second line; a second upload of the same scan can.
    await expect(
      t.db.transaction((tx) => addClaimLine(tx, { organizationId: org.id, claimId: other.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'y', amount: '5', documentIds: [f.id] })),
    ).rejects.toMatchObject({ appCode: 'document_bound_elsewhere', fieldErrors: [{ pointer: '/documents/0', detail: 'is attached to another record' }] });
    const f2 = await uploadClaimDocument(t.db, org.id, colleague.id, content);
    expect(f2.sha256).toBe(f.sha256);
    const second = await addClaimLine(t.db, { organizationId: org.id, claimId: other.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'y', amount: '5', shares: all(ref.zeta), documentIds: [f2.id] });
    await withdrawClaimLine(t.db, { organizationId: org.id, claimId: other.claim.id, lineId: line.id });
    await detachLineDocument(t.db, { organizationId: org.id, claimId: other.claim.id, lineId: second.id, fileId: f2.id, now });
    const otherAnswer = await client(colleague.apiKey).expenses.claims.get({ id: other.claim.id });
    // The withdrawn line keeps its document; the detached one no longer supports its line but stays bound to it.
    expect(otherAnswer.lines.map((l) => [l.line_no, l.withdrawn, l.documents])).toEqual([
      [1, true, [f.id]],
      [2, false, []],
    ]);
    expect(await t.db.select({ recordId: fileAttachments.recordId, recordType: fileAttachments.recordType }).from(fileAttachments).where(eq(fileAttachments.fileId, f2.id))).toEqual([
      { recordId: second.id, recordType: 'expense_claim_line' },
    ]);
    await decide(t, colleague.session, other.claim.id, 'submit');
    const read = async () => (await client(accountant.apiKey).expenses.claims.get({ id: mine.claim.id })).lines[0]!;
    expect((await read()).possible_duplicate).toBe(false);

    const third = await client(colleague.apiKey).expenses.claims.create({ title: 'Third' });
    await addClaimLine(t.db, { organizationId: org.id, claimId: third.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'z', amount: '5', shares: all(ref.zeta), documentIds: [(await uploadClaimDocument(t.db, org.id, colleague.id, content)).id] });
    await decide(t, colleague.session, third.claim.id, 'submit');
    await decide(t, accountant.session, third.claim.id, 'approve');
    await decide(t, accountant.session, third.claim.id, 'approve');
    expect(await read()).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [third.claim.reference] });
    await pay(t, accountant.session, third.claim.id, { channel_id: (await createTestPayoutChannel(t.db, org.id, colleague.id)).id });
    expect(await read()).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [third.claim.reference] });
  });
});

describe('who may read a claim: one rule for the read and for duplicate references', () => {
  it('a claim is readable by exactly the callers it is disclosed to as a possible duplicate', async () => {
    const { org, employee, accountant, colleague, ref, client } = await setup();
    const outsider = await createTestMember(t.db, org.id, { role: 'employee', name: 'Eng' });
    const now = new Date();
    const scan = `shared scan ${randomUUID()}`;
    const claimWithScan = async (member: { id: string; apiKey: string }, title: string, shares: { analyticAccountId: string; percentage: string }[] = []) => {
      const filed = await client(member.apiKey).expenses.claims.create({ title });
      const file = await uploadClaimDocument(t.db, org.id, member.id, scan);
      await addClaimLine(t.db, { organizationId: org.id, claimId: filed.claim.id, now, type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'Lunch', amount: '20', shares, documentIds: [file.id] });
      return filed.claim;
    };
    // The colleague's submitted claim; the employee is eligible to sign its sign-off.
    const target = await claimWithScan(colleague, 'Target', [{ analyticAccountId: ref.zeta.id, percentage: '100' }]);
    // Staged as rows (tests/factories/claim-access.ts): the employee is the one eligible signer.
    await submitForSignoff(t.db, { organizationId: org.id, claimId: target.id, categoryId: ref.meals.id, amount: '20.00', shares: all(ref.zeta), eligible: () => [employee.id], now });

    // Each reader looks at a draft claim of their own with the same scan (the accountant at the employee's).
    const employeeClaim = await claimWithScan(employee, 'Employee');
    const viewpoints = [
      { who: 'claimant', reader: colleague, own: await claimWithScan(colleague, 'Colleague again'), readable: true },
      { who: 'eligible signer', reader: employee, own: employeeClaim, readable: true },
      { who: 'approver', reader: accountant, own: employeeClaim, readable: true },
      { who: 'other employee', reader: outsider, own: await claimWithScan(outsider, 'Outsider'), readable: false },
    ];
    for (const v of viewpoints) {
      const line = (await client(v.reader.apiKey).expenses.claims.get({ id: v.own.id })).lines[0]!;
      expect(line.possible_duplicate, v.who).toBe(true);
      const disclosed = line.duplicate_claim_references.includes(target.reference);
      const read = await client(v.reader.apiKey)
        .expenses.claims.get({ id: target.id })
        .then(() => true)
        .catch((err: { code?: string }) => {
          expect(err.code, v.who).toBe('NOT_FOUND');
          return false;
        });
      expect({ who: v.who, read, disclosed }).toEqual({ who: v.who, read: v.readable, disclosed: v.readable });
    }
  });
});

describe('claim lines use the shared documents, tax codes and analytic accounts', () => {
  const lineCount = async (organizationId: string, claimId: string) =>
    (await t.db.select({ id: claimLines.id }).from(claimLines).where(and(eq(claimLines.organizationId, organizationId), eq(claimLines.claimId, claimId)))).length;

  it('binds documents through the shared rules; a refusal leaves no line behind', async () => {
    const { org, employee, colleague, ref, client } = await setup();
    const other = await createTestOrganization(t.db);
    const filed = await client(employee.apiKey).expenses.claims.create({ title: 'Lunch' });
    const base = { organizationId: org.id, claimId: filed.claim.id, now: new Date(), type: 'receipt' as const, expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'Lunch', amount: '20' };
    const add = (documentIds: string[]) => t.db.transaction((tx) => addClaimLine(tx, { ...base, documentIds }));
    const mine = await uploadClaimDocument(t.db, org.id, employee.id, 'my receipt');
    const foreign = await uploadClaimDocument(t.db, other.id, other.owner.id, 'their receipt');
    const colleagues = await uploadClaimDocument(t.db, org.id, colleague.id, 'a colleague receipt');

    await expect(add([mine.id, crypto.randomUUID()])).rejects.toMatchObject({ appCode: 'document_unknown', fieldErrors: [{ pointer: '/documents/1', detail: 'no such document' }] });
    await expect(add([foreign.id])).rejects.toMatchObject({ appCode: 'document_unknown', fieldErrors: [{ pointer: '/documents/0', detail: 'no such document' }] });
    await expect(add([colleagues.id])).rejects.toMatchObject({ appCode: 'document_not_yours', fieldErrors: [{ pointer: '/documents/0', detail: 'was uploaded by someone else' }] });
    await expect(add([mine.id, mine.id])).rejects.toMatchObject({ appCode: 'validation', fieldErrors: [{ pointer: '/documents/1', detail: 'names the same document twice' }] });
    expect(await lineCount(org.id, filed.claim.id)).toBe(0);
    expect(await t.db.select().from(fileAttachments).where(eq(fileAttachments.fileId, mine.id))).toEqual([]);

    const line = await add([mine.id]);
    expect(await t.db.select({ recordType: fileAttachments.recordType, recordId: fileAttachments.recordId, ordinal: fileAttachments.ordinal, attachedBy: fileAttachments.attachedBy }).from(fileAttachments).where(eq(fileAttachments.fileId, mine.id))).toEqual([
      { recordType: 'expense_claim_line', recordId: line.id, ordinal: 1, attachedBy: employee.id },
    ]);
    expect((await client(employee.apiKey).expenses.claims.get({ id: filed.claim.id })).lines[0]!.documents).toEqual([mine.id]);
  });

  it('a tax code is one of the organization\'s shared tax codes, read back as tax_code_id', async () => {
    const { org, employee, ref, client } = await setup();
    const other = await createTestOrganization(t.db);
    const foreignTax = await createTaxCode(t.db, other.id, { code: 'SV8', rate: '8', taxType: '02' });
    const retiredTax = await createTaxCode(t.db, org.id, { code: 'OLD', rate: '5', taxType: '02', active: false });
    const filed = await client(employee.apiKey).expenses.claims.create({ title: 'Dinner' });
    const base = { organizationId: org.id, claimId: filed.claim.id, now: new Date(), type: 'receipt' as const, expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'Dinner', amount: '106.00', taxAmount: '6.00' };
    for (const taxCodeId of [crypto.randomUUID(), foreignTax.id, retiredTax.id]) {
      await expect(t.db.transaction((tx) => addClaimLine(tx, { ...base, taxCodeId }))).rejects.toMatchObject({
        appCode: 'validation',
        fieldErrors: [{ pointer: '/tax_code_id', detail: 'is not an active tax code of this organization' }],
      });
    }
    expect(await lineCount(org.id, filed.claim.id)).toBe(0);
    await addClaimLine(t.db, { ...base, taxCodeId: ref.serviceTax.id });
    expect((await client(employee.apiKey).expenses.claims.get({ id: filed.claim.id })).lines[0]).toMatchObject({ tax_code_id: ref.serviceTax.id, tax_amount: '6.00' });
  });

  it('shares name the shared analytic accounts; project_names come from the shared project axis', async () => {
    const { org, employee, ref, client } = await setup();
    const other = await createTestOrganization(t.db);
    const otherRef = await createClaimReferenceData(t.db, other.id);
    const filed = await client(employee.apiKey).expenses.claims.create({ title: 'Site visit' });
    const base = { organizationId: org.id, claimId: filed.claim.id, now: new Date(), type: 'receipt' as const, expenseDate: '2026-04-01', categoryId: ref.meals.id, description: 'Site visit', amount: '50' };
    await expect(t.db.transaction((tx) => addClaimLine(tx, { ...base, shares: [{ analyticAccountId: otherRef.zeta.id, percentage: '100' }] }))).rejects.toMatchObject({
      appCode: 'validation',
      fieldErrors: [{ pointer: '/shares/0/analytic_account_id', detail: 'is not an active analytic account of this organization' }],
    });
    const closed = await createAnalyticAccount(t.db, org.id, { axisId: ref.projects.id, code: 'P-CLOSED', name: 'Closed', active: false });
    await expect(t.db.transaction((tx) => addClaimLine(tx, { ...base, shares: [{ analyticAccountId: closed.id, percentage: '100' }] }))).rejects.toMatchObject({ appCode: 'validation' });
    await addClaimLine(t.db, { ...base, shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }, { analyticAccountId: ref.sales.id, percentage: '100' }] });
    const answer = await client(employee.apiKey).expenses.claims.get({ id: filed.claim.id });
    // Only accounts on the project axis are projects; the department is not.
    expect(answer.claim.project_names).toEqual(['Zeta Tower']);
  });

  it('a settlement proof is a shared document the payer uploaded, bound to the settlement', async () => {
    const { org, employee, accountant, ref, client } = await setup();
    const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
    const filed = await client(employee.apiKey).expenses.claims.create({ title: 'Taxi' });
    const receipt = await uploadClaimDocument(t.db, org.id, employee.id, 'taxi receipt');
    await addClaimLine(t.db, { organizationId: org.id, claimId: filed.claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-04-01', categoryId: ref.travel.id, description: 'Taxi', amount: '30', documentIds: [receipt.id] });
    const settle = (proofDocumentId: string) =>
      t.db.transaction((tx) => recordClaimSettlement(tx, { organizationId: org.id, claimId: filed.claim.id, channelId: channel.id, settledBy: accountant.id, amount: '30.00', proofDocumentId, now: new Date() }));
    await expect(settle(receipt.id)).rejects.toMatchObject({ appCode: 'document_bound_elsewhere' });
    await expect(settle((await uploadClaimDocument(t.db, org.id, employee.id, 'not the payer')).id)).rejects.toMatchObject({ appCode: 'document_not_yours' });
    await expect(settle(crypto.randomUUID())).rejects.toMatchObject({ appCode: 'document_unknown' });
    expect(await t.db.select().from(claimSettlements).where(eq(claimSettlements.organizationId, org.id))).toEqual([]);
    const proof = await uploadClaimDocument(t.db, org.id, accountant.id, 'bank advice');
    const settlement = await settle(proof.id);
    expect(await t.db.select({ recordType: fileAttachments.recordType, recordId: fileAttachments.recordId }).from(fileAttachments).where(eq(fileAttachments.fileId, proof.id))).toEqual([
      { recordType: 'expense_claim_settlement', recordId: settlement!.id },
    ]);
    expect((await client(employee.apiKey).expenses.claims.get({ id: filed.claim.id })).settlements.map((s) => s.proof_document_id)).toEqual([proof.id]);
  });
});

describe('payout channels are encrypted at rest', () => {
  it('stores only ciphertext and the masked form; the ciphertext opens with the key and the organization', async () => {
    const org = await createTestOrganization(t.db);
    const channel = await createTestPayoutChannel(t.db, org.id, org.owner.id, { accountNumber: '1122334455' });
    const [row] = await t.db.select().from(payoutChannels).where(eq(payoutChannels.id, channel.id));
    expect(row!.fieldsCiphertext).not.toContain('1122334455');
    expect(JSON.stringify(row!.fieldsMasked)).not.toContain('1122334455');
    expect(row!.accountTail).toBe('4455');
    expect(JSON.parse(open(TEST_PAYOUT_KEY, row!.fieldsCiphertext, org.id))).toMatchObject({ account_number: '1122334455' });
    expect(() => open(TEST_PAYOUT_KEY, row!.fieldsCiphertext, crypto.randomUUID())).toThrow();
    const rows = await t.db.select().from(claimSettlements).where(eq(claimSettlements.organizationId, org.id));
    expect(rows).toEqual([]);
  });
});
