/**
 * Issue 11's end-to-end path, as the people of an organization go: everything is an operation (the
 * set-up procedures, the claim's REST-backed procedures, the people's decisions with their sessions).
 * A realistic org chart — a division, two departments, a vacant head, a retired position, an
 * inactive member — a project with an approver assignment and a band, a finance controller default
 * grant, a delegation. An employee's three-line, two-project, two-currency claim goes draft → review
 * (the superior signs) → finance (each project's approver signs their share; the share over the
 * band goes to the fallback with no_band_covers_amount) → approved → paid, and every field of every
 * intermediate answer is asserted.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { createTestOrganization, uniqueEmail } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();
const NOW = new Date('2026-11-16T02:00:00Z'); // a Monday, 10:00 in Kuala Lumpur
const iso = NOW.toISOString();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const as = (token: string, ifMatch?: number): Any =>
  createInProcessClient(t.deps, { token, idempotencyKey: randomUUID(), ...(ifMatch !== undefined ? { ifMatch: `"${ifMatch}"` } : {}) });

describe('a claim from filing to payout through the approval engine', { timeout: 120_000 }, () => {
  it('draft → review → finance → approved → paid, every answer asserted', async () => {
    t.setNow(NOW);
    try {
      const org = await createTestOrganization(t.db);
      const owner = () => as(org.owner.session);
      const person = async (name: string, roles: string[]) => {
        const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
        const member = await owner().organization.members.add({ name, email, password: 'claims are fun 2026', roles });
        const login = await createInProcessClient(t.deps, {}).auth.login({ email, password: 'claims are fun 2026' });
        return { id: member.id as string, token: login.session_token as string };
      };
      const aisyah = await person('Aisyah Rahman', ['employee']);
      const hafiz = await person('Hafiz Structures', ['employee']);
      const meiLing = await person('Mei Ling Engineering', ['employee']);
      const rajesh = await person('Rajesh Zeta', ['employee']);
      const tan = await person('Tan Alpha', ['employee']);
      const ahmad = await person('Ahmad Deputy', ['employee']);
      const farah = await person('Farah Controller', ['accountant']);
      const kumar = await person('Kumar Payables', ['accountant']);
      const siti = await person('Siti Logistics', ['employee']);

      // The org chart, through the set-up procedures.
      const s = new Proxy({}, { get: (_, key: string) => owner().settings[key] }) as Any;
      const eng = await s.orgUnits.create({ code: 'ENG', name: 'Engineering Division' });
      const str = await s.orgUnits.create({ code: 'STR', name: 'Structures', parent_id: eng.id });
      const log = await s.orgUnits.create({ code: 'LOG', name: 'Logistics', parent_id: eng.id });
      const engHead = await s.positions.create({ org_unit_id: eng.id, title: 'Head of Engineering', is_unit_head: true });
      const strHead = await s.positions.create({ org_unit_id: str.id, title: 'Head of Structures', is_unit_head: true });
      await s.positions.create({ org_unit_id: log.id, title: 'Head of Logistics', is_unit_head: true }); // vacant
      const engineer = await s.positions.create({ org_unit_id: str.id, title: 'Engineer' });
      const draughtsman = await s.positions.create({ org_unit_id: str.id, title: 'Draughtsman' });
      const coordinator = await s.positions.create({ org_unit_id: log.id, title: 'Logistics coordinator' });
      const assign = (member_id: string, position_id: string) => s.positionAssignments.create({ member_id, position_id, valid_from: '2026-01-01' });
      await assign(meiLing.id, engHead.id);
      await assign(hafiz.id, strHead.id);
      await assign(aisyah.id, engineer.id);
      await assign(siti.id, coordinator.id);
      await as(org.owner.session, draughtsman.revision).settings.positions.deactivate({ id: draughtsman.id }); // retired
      const sitiNow = (await owner().organization.members.list({})).items.find((m: Any) => m.id === siti.id);
      await as(org.owner.session, sitiNow.revision).organization.members.deactivate({ id: siti.id }); // inactive

      // Projects, categories, rates.
      const projects = await s.analyticAxes.create({ code: 'PRJ', name: 'Projects', is_project_axis: true });
      const zeta = await s.analyticAccounts.create({ axis_id: projects.id, code: 'P-ZETA', name: 'Zeta Tower' });
      const alpha = await s.analyticAccounts.create({ axis_id: projects.id, code: 'P-ALPHA', name: 'Alpha Bridge' });
      const lodging = await s.expenseCategories.create({ code: 'LODGING', name: 'Lodging' });
      const meals = await s.expenseCategories.create({ code: 'MEALS', name: 'Meals' });
      const mileage = await s.expenseCategories.create({ code: 'MILEAGE', name: 'Mileage' });
      await s.exchangeRates.create({ currency: 'SGD', rate_date: '2026-11-05', rate: '3.4567' });
      const car = await s.mileageRates.create({ name: 'Car', valid_from: '2026-01-01', bands: [{ band: 'first 500 km', from_km: '0', to_km: '500', rate_per_km: '0.60' }, { band: 'beyond', from_km: '500', rate_per_km: '0.50' }] });

      // Grants: the defaults, a finance controller as the project approvers' fallback, assignments, a delegation.
      const grants = (await s.approvalGrants.list({})).items;
      const lineManager = grants.find((g: Any) => g.kind === 'superior');
      const projectApprovers = grants.find((g: Any) => g.kind === 'account_approver');
      const controller = await s.approvalGrants.create({ name: 'Finance controller', kind: 'default', step: 'finance', holder_member_id: farah.id });
      await as(org.owner.session, projectApprovers.revision).settings.approvalGrants.update({ id: projectApprovers.id, name: projectApprovers.name, fallback_grant_id: controller.id });
      const zetaAssignment = await s.approverAssignments.create({ analytic_account_id: zeta.id, member_id: rajesh.id, valid_from: '2026-01-01', max_amount: '1000.00' });
      const alphaAssignment = await s.approverAssignments.create({ analytic_account_id: alpha.id, member_id: tan.id, valid_from: '2026-01-01' });
      await s.delegations.create({ delegator_member_id: tan.id, delegate_member_id: ahmad.id, valid_from: '2026-11-10', valid_to: '2026-11-30', reason: 'Site visit abroad' });

      // Aisyah files her claim and enters three lines.
      const channel = await as(aisyah.token).me.payoutChannels.create({ channel_key: 'bank_transfer', name: 'Maybank savings', fields: { bank: 'MBBEMYKL', account_holder: 'Aisyah Rahman', account_number: '5140 1234 5678' } });
      let answer = await as(aisyah.token).expenses.claims.create({ title: 'Penang site inspections', payout_channel_id: channel.id });
      const id = answer.claim.id;
      const line = async (input: Any) => (answer = await as(aisyah.token, answer.claim.revision).expenses.claims.lines.add({ id, ...input }));
      await line({ type: 'receipt', expense_date: '2026-11-04', category_id: lodging.id, description: 'Hotel, 3 nights', currency: 'MYR', amount: '1200.00', supplier_name: 'Hotel Penang Sdn Bhd', document_basis: 'relaxation_receipt', relaxation_reason: 'Hotel issued a paper receipt only', shares: [{ analytic_account_id: zeta.id, percentage: '100' }] });
      await line({ type: 'receipt', expense_date: '2026-11-05', category_id: meals.id, description: 'Client dinner, Singapore', currency: 'SGD', amount: '150.00', supplier_name: 'Lau Pa Sat', supplier_country: 'SG', document_basis: 'foreign_supplier', shares: [{ analytic_account_id: alpha.id, percentage: '100' }] });
      await line({ type: 'mileage', expense_date: '2026-11-06', category_id: mileage.id, description: 'Ipoh – Penang return', quantity: '120', rate_id: car.id, shares: [{ analytic_account_id: zeta.id, percentage: '50' }, { analytic_account_id: alpha.id, percentage: '50' }] });

      const claimOf = (over: Any) => ({
        id,
        reference: answer.claim.reference,
        title: 'Penang site inspections',
        claimant_member_id: aisyah.id,
        claimant_unit_name: 'Structures',
        group_id: null,
        payout_channel_id: channel.id,
        currency: 'MYR',
        total: '1790.51',
        original_currency: null,
        original_total: null,
        multiple_currencies: true,
        merchant: 'Hotel Penang Sdn Bhd',
        category_ids: [lodging.id, meals.id, mileage.id],
        project_names: ['Zeta Tower', 'Alpha Bridge'],
        created_at: iso,
        ...over,
      });
      expect(answer.claim).toEqual(claimOf({ state: 'draft', semantic: 'draft', revision: 4, submitted_at: null }));
      const lines = answer.lines;
      expect(lines.map((l: Any) => [l.line_no, l.type, l.currency, l.amount, l.base_amount, l.fx_rate, l.fx_rate_source, l.reimbursement_basis, l.quantity, l.band, l.shares])).toEqual([
        [1, 'receipt', 'MYR', '1200.00', '1200.00', '1', 'identity', 'expense_date_rate', '1', null, [{ analytic_account_id: zeta.id, percentage: '100' }]],
        [2, 'receipt', 'SGD', '150.00', '518.51', '3.4567', 'reference', 'expense_date_rate', '1', null, [{ analytic_account_id: alpha.id, percentage: '100' }]],
        [3, 'mileage', 'MYR', '72.00', '72.00', '1', 'identity', 'expense_date_rate', '120', 'first 500 km', [{ analytic_account_id: alpha.id, percentage: '50' }, { analytic_account_id: zeta.id, percentage: '50' }]],
      ]);
      expect(answer.decisions).toEqual([]);
      expect(answer.signoffs).toEqual([]);
      expect(answer.available_transitions.map((d: Any) => [d.action_key, d.to, d.gate, d.allowed])).toEqual([['submit', 'review', 'reporter', true], ['cancel', 'cancelled', 'reporter', true]]);

      // Submit: review, one sign-off per project for the superior (Hafiz, head of her unit).
      answer = await as(aisyah.token, answer.claim.revision).expenses.claims.transition({ id, action_key: 'submit' });
      expect(answer.claim).toEqual(claimOf({ state: 'review', semantic: 'pending', revision: 5, submitted_at: iso }));
      expect(answer.lines).toEqual(lines);
      const submit = { actor_member_id: aisyah.id, authority_member_id: aisyah.id, decided_at: iso, from: 'draft', to: 'review', reason: '', via: 'reporter' };
      expect(answer.decisions).toEqual([submit]);
      const reviewSignoff = (account: Any, amount: string) => ({ account_code: account.code, account_name: account.name, amount, analytic_account_id: account.id, axis_id: projects.id, currency: 'MYR', eligible: [hafiz.id], state: 'review' });
      expect(answer.signoffs).toEqual([reviewSignoff(alpha, '554.51'), reviewSignoff(zeta, '1236.00')]);
      const descriptor = (action: string, a: Any) => a.available_transitions.find((d: Any) => d.action_key === action);
      expect(answer.available_transitions.map((d: Any) => [d.action_key, d.allowed, d.refusal?.code])).toEqual([
        ['approve', false, 'self_approval'],
        ['return', false, undefined],
        ['reject', false, undefined],
        ['withdraw', true, undefined],
      ]);

      // Hafiz sees what he signs, and to_act lists it with his share (the claim total).
      const hafizView = await as(hafiz.token).expenses.claims.get({ id });
      expect(descriptor('approve', hafizView)).toEqual({
        action_key: 'approve', to: 'finance', gate: 'advance', allowed: true, labels: { en: 'Approve', ms: 'Luluskan', zh: '批准' }, requires_reason: false,
        signs: [
          { account_code: 'P-ALPHA', account_name: 'Alpha Bridge', amount: '554.51', analytic_account_id: alpha.id, axis_id: projects.id, authority_member_id: hafiz.id, via: 'grant' },
          { account_code: 'P-ZETA', account_name: 'Zeta Tower', amount: '1236.00', analytic_account_id: zeta.id, axis_id: projects.id, authority_member_id: hafiz.id, via: 'grant' },
        ],
      });
      expect((await as(hafiz.token).expenses.claims.list({ scope: 'to_act' })).claims.map((c: Any) => [c.id, c.your_share])).toEqual([[id, '1790.51']]);

      answer = await as(hafiz.token, answer.claim.revision).expenses.claims.transition({ id, action_key: 'approve' });
      expect(answer.claim).toEqual(claimOf({ state: 'finance', semantic: 'pending', revision: 6, submitted_at: iso }));
      const reviewed = { actor_member_id: hafiz.id, authority_member_id: hafiz.id, decided_at: iso, from: 'review', to: 'finance', reason: '', via: 'grant' };
      expect(answer.decisions).toEqual([submit, reviewed]);
      // Finance: Tan (and Ahmad, his delegate) for Alpha; Zeta is over Rajesh's band: the controller, with the gap.
      expect(answer.signoffs).toEqual([
        { account_code: 'P-ALPHA', account_name: 'Alpha Bridge', amount: '554.51', analytic_account_id: alpha.id, axis_id: projects.id, currency: 'MYR', eligible: [tan.id, ahmad.id], state: 'finance' },
        {
          account_code: 'P-ZETA', account_name: 'Zeta Tower', amount: '1236.00', analytic_account_id: zeta.id, axis_id: projects.id, currency: 'MYR', eligible: [farah.id], state: 'finance',
          gap: { grant_id: projectApprovers.id, reason: 'no_band_covers_amount', analytic_account_id: zeta.id, axis_id: projects.id },
        },
      ]);
      expect(descriptor('approve', await as(rajesh.token).expenses.claims.get({ id }))).toMatchObject({ allowed: false, refusal: { code: 'not_in_band', detail: expect.stringContaining('0.00 to 1000.00') } });
      expect((await as(rajesh.token).expenses.claims.list({ scope: 'to_act' })).claims).toEqual([]);
      expect((await as(tan.token).expenses.claims.list({ scope: 'to_act' })).claims.map((c: Any) => c.your_share)).toEqual(['554.51']);
      expect((await as(farah.token).expenses.claims.list({ scope: 'to_act' })).claims.map((c: Any) => c.your_share)).toEqual(['1236.00']);

      // Tan signs Alpha: the claim stays in finance (logged from = to).
      answer = await as(tan.token, answer.claim.revision).expenses.claims.transition({ id, action_key: 'approve' });
      expect(answer.claim).toEqual(claimOf({ state: 'finance', semantic: 'pending', revision: 7, submitted_at: iso }));
      const tanSigned = { actor_member_id: tan.id, authority_member_id: tan.id, decided_at: iso, from: 'finance', to: 'finance', reason: '', via: 'grant' };
      expect(answer.decisions).toEqual([submit, reviewed, tanSigned]);
      expect(answer.signoffs[0].signed).toEqual({ id: expect.any(String), actor_member_id: tan.id, authority_member_id: tan.id, axis_id: projects.id, analytic_account_id: alpha.id, amount: '554.51', decided_at: iso, state: 'finance', via: 'grant', approver_assignment_id: alphaAssignment.id });
      expect(answer.signoffs[1].signed).toBeUndefined();

      // Farah signs Zeta through the fallback: approved.
      answer = await as(farah.token, answer.claim.revision).expenses.claims.transition({ id, action_key: 'approve' });
      expect(answer.claim).toEqual(claimOf({ state: 'approved', semantic: 'committed', revision: 8, submitted_at: iso }));
      const farahSigned = { actor_member_id: farah.id, authority_member_id: farah.id, decided_at: iso, from: 'finance', to: 'approved', reason: '', via: 'escalation' };
      expect(answer.decisions).toEqual([submit, reviewed, tanSigned, farahSigned]);
      expect(answer.signoffs).toEqual([]);
      expect(answer.available_transitions.map((d: Any) => [d.action_key, d.allowed])).toEqual([['pay', true], ['refer_difference', false]]);

      // Kumar pays to her preferred channel: the settlement is the total, masked.
      answer = await as(kumar.token, answer.claim.revision).expenses.claims.pay({ id });
      expect(answer.claim).toEqual(claimOf({ state: 'paid', semantic: 'payout', revision: 9, submitted_at: iso }));
      expect(answer.decisions).toEqual([submit, reviewed, tanSigned, farahSigned, { actor_member_id: kumar.id, authority_member_id: kumar.id, decided_at: iso, from: 'approved', to: 'paid', reason: '', via: 'grant' }]);
      expect(answer.settlements).toEqual([
        {
          id: expect.any(String), channel_id: channel.id, channel_key: 'bank_transfer', channel_name: 'Maybank savings', amount: '1790.51', currency: 'MYR', settled_at: iso, settled_by: kumar.id, proof_document_id: null, account_tail: '5678',
          fields: expect.arrayContaining([expect.objectContaining({ key: 'account_number', display: expect.stringMatching(/5678$/) })]),
        },
      ]);
      expect(answer.available_transitions).toEqual([]);
      expect(answer.lines).toEqual(lines);
      void lineManager;
      void zetaAssignment;
    } finally {
      t.setNow(undefined);
    }
  });
});
