import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { payoutChannels } from '../../src/db/schema';
import { derivedDevelopmentKey, open, parseKey } from '../../src/lib/secret-box';
import { seedDemo } from '../../src/demo/seed-demo';
import { useTestApp } from '../helpers/app';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

const t = useTestApp();

describe('the demo data set has claims exercising every derived field', () => {
  it('seeds reference data and example claims in every organization, readable through expenses.claims.get', async () => {
    const demo = await seedDemo(t.deps, new Date());
    const acme = demo.organizations[0]!;
    const owner = acme.members.find((m) => m.role === 'owner')!;
    expect(acme.claim_groups).toEqual([expect.objectContaining({ retired: false }), expect.objectContaining({ retired: true })]);
    expect(acme.payout_channels.length).toBeGreaterThan(1);
    const claims = acme.claims;
    expect(claims.map((c) => c.state)).toEqual(['submitted', 'paid', 'draft', 'rejected']);

    const client = createInProcessClient(t.deps, { token: owner.api_key! });
    const [roadshow, lunch, tokyo, rejected] = await Promise.all(claims.map((c) => client.expenses.claims.get({ id: c.id })));
    expect(roadshow!.lines.map((l) => l.type)).toEqual(['receipt', 'receipt', 'mileage', 'per_diem', 'advance_offset', 'receipt']);
    expect(roadshow!.lines.at(-1)!.withdrawn).toBe(true);
    expect(roadshow!.claim).toMatchObject({
      state: 'submitted',
      multiple_currencies: true,
      merchant: 'Restoran Nasi Kandar Line Clear',
      project_names: ['KLCC fit-out', 'Penang warehouse'],
      claimant_unit_name: 'Sales Department',
      // 318.00 + 420 SGD × 3.4815 (1462.23) + 412.6 km × 0.80 (330.08) + 3 × 80 - 500
      total: '1850.31',
    });
    expect(roadshow!.signoffs.filter((s) => s.signed).length).toBe(1);
    expect(roadshow!.signoffs.length).toBe(3);
    // The same receipt scan supports a line of each: both are possible duplicates of each other.
    expect(roadshow!.lines[0]).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [lunch!.claim.reference] });
    expect(lunch!.lines[0]).toMatchObject({ possible_duplicate: true, duplicate_claim_references: [roadshow!.claim.reference] });
    expect(lunch!.claim.state).toBe('paid');
    expect(lunch!.settlements.map((s) => s.amount)).toEqual(['59.00', '100.00']);
    expect(lunch!.decisions.map((d) => d.to)).toEqual(['submitted', 'approved', 'paid']);
    expect(tokyo!.claim).toMatchObject({ original_currency: 'JPY', original_total: '9000', total: '271.48' });
    expect(rejected!.claim.semantic).toBe('rejected');

    // The sole-owner organization and the second organization get their claims too.
    for (const org of demo.organizations.slice(1)) expect(org.claims.length).toBe(4);
  });
});

describe('the demo payout channels', () => {
  it('are encrypted under the configured PAYOUT_ENCRYPTION_KEY, not a derived development key', async () => {
    const demo = await seedDemo(t.deps, new Date());
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
