import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { payoutChannels } from '../../src/db/schema';
import { derivedDevelopmentKey, open, parseKey } from '../../src/lib/secret-box';
import type { DemoOrganization } from '../../src/demo/seed-demo';
import { useTestApp } from '../helpers/app';
import { demoOnce } from '../helpers/demo';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

const t = useTestApp();
// Every test here reads the demo: one seeding serves them all.
const seeded = demoOnce(t);

describe('the demo data set has claims exercising every derived field', () => {
  it('seeds reference data and example claims in every organization, readable through expenses.claims.get', async () => {
    const demo = await seeded();
    const acme = demo.organizations[0]!;
    const owner = acme.members.find((m) => m.role === 'owner')!;
    expect(acme.claim_groups).toEqual([expect.objectContaining({ retired: false }), expect.objectContaining({ retired: true })]);
    expect(acme.payout_channels.length).toBeGreaterThan(1);
    const claims = acme.claims;
    expect(claims.map((c) => c.state)).toEqual(['finance', 'paid', 'draft', 'rejected', 'paid', 'disputed', 'review', 'approved', 'cancelled']);

    const client = createInProcessClient(t.deps, { token: owner.api_key! });
    const [roadshow, lunch, tokyo, rejected] = await Promise.all(claims.map((c) => client.expenses.claims.get({ id: c.id })));
    expect(roadshow!.lines.map((l) => l.type)).toEqual(['receipt', 'receipt', 'mileage', 'per_diem', 'advance_offset', 'receipt']);
    expect(roadshow!.lines.at(-1)!.withdrawn).toBe(true);
    expect(roadshow!.claim).toMatchObject({
      state: 'finance',
      multiple_currencies: true,
      merchant: 'Restoran Nasi Kandar Line Clear',
      project_names: ['KLCC fit-out', 'Penang warehouse'],
      claimant_unit_name: 'Sales Department',
      // 318.00 + 420 SGD × 3.4815 (1462.23) + 412.6 km × 0.80 (330.08) + 3 × 80 - 500
      total: '1850.31',
    });
    // In finance: the KLCC share signed by its approver (the owner), the others waiting for the controller.
    expect(roadshow!.signoffs.map((s) => [s.account_code, s.amount, Boolean(s.signed)])).toEqual([
      ['P-KLCC', '520.88', true],
      ['P-PNG', '1089.43', false],
      ['SALES', '558.00', false],
    ]);
    // The same receipt scan supports a line of each: both are possible duplicates of each other.
    expect(roadshow!.lines[0]).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [lunch!.claim.reference] });
    expect(lunch!.lines[0]).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [roadshow!.claim.reference] });
    expect(lunch!.claim.state).toBe('paid');
    expect(lunch!.settlements.map((s) => [s.amount, s.currency, s.proof_document_id !== null])).toEqual([['159.00', 'MYR', true]]);
    expect(lunch!.decisions.map((d) => d.to)).toEqual(['review', 'finance', 'approved', 'paid']);
    expect(tokyo!.claim).toMatchObject({ original_currency: 'JPY', original_total: '9000', total: '271.48' });
    expect(rejected!.claim.semantic).toBe('rejected');

    // Borneo has a claim in every state too; the sole owner has nobody to sign: drafts and cancelled ones.
    expect(demo.organizations[1]!.claims.map((c) => c.state)).toEqual(claims.map((c) => c.state));
    expect(demo.organizations[2]!.claims.map((c) => c.state)).toEqual(['draft', 'draft', 'draft', 'cancelled', 'cancelled']);
  });
});

/** Who decided, on whose authority and how: [action's target state, via, actor, authority] by name. */
async function decisionsOf(org: DemoOrganization, claimId: string) {
  const owner = org.members.find((m) => m.role === 'owner')!;
  const answer = await createInProcessClient(t.deps, { token: owner.api_key! }).expenses.claims.get({ id: claimId });
  const name = (id: string) => org.members.find((m) => m.id === id)?.name ?? id;
  return { answer, rows: answer.decisions.map((d) => [d.to, d.via, name(d.actor_member_id), name(d.authority_member_id)]) };
}

describe('the demo claims are decided by the right people, through the approval engine', () => {
  it('each state reached by the claimant, the superior up the org chart, the KLCC approver, the controller, the delegate and the payer', async () => {
    const demo = await seeded();
    const acme = demo.organizations[0]!;
    const byTitle = (title: string) => acme.claims.find((c) => c.title === title)!;
    const decided = async (title: string) => (await decisionsOf(acme, byTitle(title).id)).rows;
    const devi = 'Devi Employee';
    const chong = 'Chong Clerk';
    const aisha = 'Aisha Owner';
    const ben = 'Ben Accountant';

    // Devi's superior: the Sales Manager left, the Commercial Director's seat is vacant, so the Managing Director signs.
    expect(await decided('Roadshow to Penang and Ipoh')).toEqual([
      ['review', 'reporter', devi, devi],
      ['finance', 'grant', aisha, aisha],
      ['finance', 'grant', aisha, aisha],
    ]);
    // Chong's superior is the Finance Manager; the KLCC share is the owner's; the finance manager pays.
    expect(await decided('Client lunch, Bangsar')).toEqual([
      ['review', 'reporter', chong, chong],
      ['finance', 'grant', ben, ben],
      ['approved', 'grant', aisha, aisha],
      ['paid', 'grant', ben, ben],
    ]);
    // Rejected by the finance manager on the owner's authority: her delegation.
    expect(await decided('Gym membership')).toEqual([
      ['review', 'reporter', devi, devi],
      ['rejected', 'delegation', ben, aisha],
    ]);
    // 1,250.00 on KLCC is above the owner's band: the finance controller signs (the fallback, an escalation).
    const survey = await decisionsOf(acme, byTitle('Site survey, KLCC').id);
    expect(survey.rows).toEqual([
      ['review', 'reporter', devi, devi],
      ['finance', 'grant', aisha, aisha],
      ['approved', 'escalation', ben, ben],
      ['paid', 'grant', ben, ben],
    ]);
    expect(survey.answer.settlements.map((s) => [s.amount, s.proof_document_id])).toEqual([['1250.00', null]]);
    expect(await decided('Site lunch with the contractor')).toEqual([
      ['review', 'reporter', devi, devi],
      ['finance', 'grant', aisha, aisha],
      ['disputed', 'grant', aisha, aisha],
    ]);
    expect(await decided('Client visit, Shah Alam')).toEqual([
      ['review', 'reporter', devi, devi],
      ['draft', 'grant', aisha, aisha],
      ['review', 'reporter', devi, devi],
    ]);
    // Disputed by the KLCC approver, resolved by someone else (her delegate), then signed.
    expect(await decided('Train to the Penang training')).toEqual([
      ['review', 'reporter', chong, chong],
      ['finance', 'grant', ben, ben],
      ['disputed', 'grant', aisha, aisha],
      ['finance', 'delegation', ben, aisha],
      ['approved', 'grant', aisha, aisha],
    ]);
    expect(await decided('Stationery (filed twice)')).toEqual([['cancelled', 'reporter', devi, devi]]);

    // Nobody decides their own claim except as its reporter (submit, withdraw, amend, cancel), in any organization.
    for (const org of demo.organizations) {
      const client = createInProcessClient(t.deps, { token: org.members[0]!.api_key! });
      for (const c of org.claims) {
        for (const d of (await client.expenses.claims.get({ id: c.id })).decisions) {
          if (d.actor_member_id === c.claimant_member_id || d.authority_member_id === c.claimant_member_id) expect(d.via, `${org.name}: ${c.title}`).toBe('reporter');
          else expect(d.via, `${org.name}: ${c.title}`).not.toBe('reporter');
        }
      }
    }
  });

  it('prints the grants, the banded KLCC approver and the delegation it set up', async () => {
    const demo = await seeded();
    const acme = demo.organizations[0]!;
    const id = (name: string) => acme.members.find((m) => m.name === name)!.id;
    const grants = acme.approval_grants.map((g) => [g.name, g.kind, g.step]);
    expect(grants).toEqual([
      ['Finance controller', 'default', 'finance'],
      ['Line manager', 'superior', 'review'],
      ['Project approvers', 'account_approver', 'finance'],
    ]);
    const controller = acme.approval_grants.find((g) => g.name === 'Finance controller')!;
    expect(acme.approval_grants.find((g) => g.name === 'Project approvers')!.fallback_grant_id).toBe(controller.id);
    expect(acme.approver_assignments).toEqual([
      { id: expect.any(String), analytic_account_id: acme.projects.find((p) => p.code === 'P-KLCC')!.id, member_id: id('Aisha Owner'), min_amount: '0.00', max_amount: '1000.00' },
    ]);
    expect(acme.delegations).toEqual([expect.objectContaining({ delegator_member_id: id('Aisha Owner'), delegate_member_id: id('Ben Accountant'), scope: 'all' })]);
    // The sole owner keeps the defaults and delegates to nobody.
    expect(demo.organizations[2]!.approval_grants.map((g) => g.name)).toEqual(['Line manager', 'Project approvers']);
    expect(demo.organizations[2]!.delegations).toEqual([]);
  });
});

describe('the demo payout channels', () => {
  it('are encrypted under the configured PAYOUT_ENCRYPTION_KEY, not a derived development key', async () => {
    const demo = await seeded();
    const acme = demo.organizations[0]!;
    const rows = await t.db.select().from(payoutChannels).where(eq(payoutChannels.organizationId, acme.id));
    expect(rows.length).toBeGreaterThan(1);
    const configured = parseKey(TEST_PAYOUT_ENCRYPTION_KEY)!;
    for (const row of rows) {
      expect(Object.keys(JSON.parse(open(configured, row.fieldsCiphertext, acme.id))).length).toBeGreaterThan(0);
      expect(() => open(derivedDevelopmentKey(t.deps.config.DATA_DIR), row.fieldsCiphertext, acme.id)).toThrow();
    }
  });
});
