import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed-demo';
import { useTestApp } from '../helpers/app';
import { demoOnce } from '../helpers/demo';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
// One seeding read by every test; the first seeds a second set beside it.
const seeded = demoOnce(t);

/** Logs in over /trpc as a person would, from an address of its own. */
const login = (payload: object, ip = '198.51.100.21') => t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: ip, payload });

describe('the demo data set', () => {
  it('seeds organizations, members of each role with working credentials, and customers', async () => {
    const demo = await seeded();
    expect(demo.organizations.map((o) => o.name)).toEqual(['Acme Trading Sdn Bhd', 'Borneo Logistics Sdn Bhd', 'Siti Consulting']);
    const [acme, borneo, solo] = demo.organizations as [(typeof demo.organizations)[0], (typeof demo.organizations)[0], (typeof demo.organizations)[0]];
    expect(new Set(acme.members.map((m) => m.role))).toEqual(new Set(['owner', 'accountant', 'clerk', 'employee', 'viewer']));
    expect(solo.members.filter((m) => m.active)).toHaveLength(1);
    expect(solo.sole_owner).toBe(true);
    expect(acme.customers.map((c) => [c.code, c.currency, c.is_active, c.is_group_company])).toEqual([
      ['C-LOCAL', 'MYR', true, false],
      ['C-USD', 'USD', true, false],
      ['C-GROUP', 'MYR', true, true],
      ['C-OLD', 'MYR', false, false],
    ]);
    expect(acme.group_sibling).toMatchObject({ id: acme.group_sibling_organization_id, name: 'Acme Properties Sdn Bhd' });

    for (const member of acme.members.filter((m) => m.active && m.permissions.includes('receivables.customer.read'))) {
      for (const token of [member.api_key!, member.session_token!]) {
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
    // A second run adds a fresh set beside the first, with e-mails of its own.
    const again = await seedDemo(t.deps, new Date());
    expect(again.organizations[0]!.id).not.toBe(acme.id);
    const emails = (d: typeof demo) => d.organizations.flatMap((o) => o.members.map((m) => m.email));
    expect(emails(again).filter((e) => emails(demo).includes(e))).toEqual([]);
    // Two whole demo sets are seeded here: through PgBouncer (no prepared statements), beside the run's
    // other workers on a slow machine, that took more than the suite's 90 s (2026-12-07).
  }, 240_000);

  it('lists every member with an e-mail and a password; each active one logs in with them through auth.login', async () => {
    const demo = await seeded();
    const members = demo.organizations.flatMap((o) => o.members.map((m) => ({ org: o, m })));
    expect(members.length).toBe(10);
    for (const { m } of members) {
      expect(m.email).toMatch(/^[a-z]+@[a-z-]+-[0-9a-f]{6}\.demo\.example\.my$/);
      expect(m.password.length).toBeGreaterThanOrEqual(12);
    }
    expect(new Set(members.map(({ m }) => m.email)).size).toBe(members.length);
    expect(new Set(members.map(({ m }) => m.password)).size).toBe(members.length);
    // The sister company's owner can log in too.
    const siblingOwner = demo.organizations[0]!.group_sibling!.owner;

    for (const { org, m } of [...members.filter(({ m }) => m.active), { org: { id: demo.organizations[0]!.group_sibling!.id }, m: siblingOwner }]) {
      const res = await login({ email: m.email, password: m.password });
      expect(res.statusCode, m.email).toBe(200);
      const answer = res.json().result.data;
      expect(answer).toMatchObject({ member: { id: m.id, email: m.email }, organization: { id: org.id } });
      // The new session works.
      const me = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${answer.session_token}` } });
      expect(me.statusCode).toBe(200);
      expect(me.json().result.data).toMatchObject({ member: { id: m.id }, organization: { id: org.id }, via: 'session' });
    }

    // The member who left: listed, with no credential, and refused at login like any wrong password.
    const former = members.find(({ m }) => !m.active)!.m;
    expect(former).toMatchObject({ name: 'Farid Former', role: 'clerk', api_key: null, session_token: null });
    expect((await login({ email: former.email, password: former.password }, '198.51.100.22')).statusCode).toBe(401);
  });

  it('sets the seller identity through the profile and the org chart: a division, two departments with heads, vacant seats, a retired one, a leaver', async () => {
    const demo = await seeded();
    const acme = demo.organizations[0]!;
    const owner = acme.members.find((m) => m.role === 'owner')!;
    const profile = await t.app.inject({ method: 'GET', url: '/trpc/organization.profile.get', headers: { authorization: `Bearer ${owner.session_token}` } });
    expect(profile.json().result.data).toMatchObject({ name: 'Acme Trading Sdn Bhd', tin: 'C20880050010', msic: '46510', address: { state: '14', country_code: 'MY' } });
    expect(acme.positions.filter((p) => p.retired)).toHaveLength(1);
    expect(acme.positions.filter((p) => !p.retired && p.holder_member_id === null).map((p) => p.title)).toEqual(['Commercial Director', 'Business Development Executive']);
    const unit = (code: string) => acme.org_units.find((u) => u.code === code)!;
    expect(acme.org_units.map((u) => [u.code, acme.org_units.find((p) => p.id === u.parent_id)?.code ?? null])).toEqual([
      ['HQ', null],
      ['COM', 'HQ'],
      ['SALES', 'COM'],
      ['FIN', 'HQ'],
    ]);
    // The Sales Manager's seat is still the member's who left; the Finance Manager heads Finance.
    const holder = (title: string) => acme.members.find((m) => m.id === acme.positions.find((p) => p.title === title)!.holder_member_id);
    expect(holder('Sales Manager')).toMatchObject({ name: 'Farid Former', active: false });
    expect(holder('Finance Manager')).toMatchObject({ name: 'Ben Accountant', active: true });
    expect(acme.positions.find((p) => p.title === 'Sales Manager')!.org_unit_id).toBe(unit('SALES').id);
    expect(acme.exchange_rates.map((r) => [r.currency, r.rate])).toEqual([
      ['USD', '4.4712'],
      ['SGD', '3.4815'],
      ['JPY', '0.0301'],
    ]);
    // The one retired account sits beside the default chart.
    expect(acme.accounts.filter((a) => !a.active).map((a) => a.code)).toEqual(['4900']);
    expect(acme.accounts.map((a) => a.code)).toEqual(expect.arrayContaining(['1110', '4010', '4020']));
  });
});
