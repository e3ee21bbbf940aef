import { describe, expect, it } from 'vitest';
import { payoutEncryptionKey } from '../../src/config';
import { seedDemo } from '../../src/services/demo/seed-demo';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();

describe('the demo data set', () => {
  it('seeds organizations, members of each role with working credentials, and customers', async () => {
    const demo = await seedDemo(t.db, new Date(), { payoutKey: payoutEncryptionKey(t.deps.config) });
    expect(demo.organizations.map((o) => o.name)).toEqual(['Acme Trading Sdn Bhd', 'Borneo Logistics Sdn Bhd', 'Siti Consulting']);
    const [acme, borneo, solo] = demo.organizations as [typeof demo.organizations[0], typeof demo.organizations[0], typeof demo.organizations[0]];
    expect(new Set(acme.members.map((m) => m.role))).toEqual(new Set(['owner', 'accountant', 'clerk', 'employee', 'viewer']));
    expect(solo.members.filter((m) => m.active)).toHaveLength(1);
    expect(acme.customers.map((c) => [c.code, c.currency, c.is_active, c.is_group_company])).toEqual([
      ['C-LOCAL', 'MYR', true, false],
      ['C-USD', 'USD', true, false],
      ['C-GROUP', 'MYR', true, true],
      ['C-OLD', 'MYR', false, false],
    ]);

    for (const member of acme.members.filter((m) => m.active && m.permissions.includes('receivables.customer.read'))) {
      for (const token of [member.api_key, member.session_token]) {
        const res = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${acme.customers[2]!.id}`, headers: { authorization: `Bearer ${token}` } });
        expect(res.statusCode).toBe(200);
        expect(res.json().is_group_company).toBe(true);
      }
    }
    // The organizations never see each other.
    const owner = borneo.members.find((m) => m.role === 'owner')!;
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${acme.customers[0]!.id}`, headers: { authorization: `Bearer ${owner.api_key}` } }),
      404,
      'not_found',
    );
    // A second run adds a fresh set beside the first.
    const again = await seedDemo(t.db, new Date(), { payoutKey: payoutEncryptionKey(t.deps.config) });
    expect(again.organizations[0]!.id).not.toBe(acme.id);
  });
});
