import { describe, expect, it } from 'vitest';
import { appRouter } from '../../src/routers/app';
import { createInProcessContext } from '../../src/routers/context';
import { createCallerFactory, type Meta } from '../../src/routers/trpc';
import { PERMISSIONS } from '../../src/domain/permissions';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

/**
 * People's decisions need a person (docs/design.md §5): every procedure built with decisionProcedure
 * refuses an API key with 403 person_required, whatever the key's permissions. The table is the app
 * router itself, so every decision a later issue adds is walked here too.
 */
// `_def.procedures` is the flat record of every procedure by its dotted path.
const decisions = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta; type: string } }>)
  .filter(([, procedure]) => procedure._def.meta?.decision === true)
  .map(([path, procedure]) => ({ path, type: procedure._def.type }))
  .sort((a, b) => a.path.localeCompare(b.path));

/** The decisions known when this test was written; the list only grows. */
const KNOWN = [
  'organization.members.add',
  'organization.members.deactivate',
  'organization.members.setRoles',
  'organization.members.update',
  'organization.roles.create',
  'organization.roles.delete',
  'organization.roles.update',
  'receivables.invoices.transition',
  'expenses.claims.transition',
  'expenses.claims.pay',
  'expenses.claims.referDifference',
  'settings.approvalGrants.create',
  'settings.approvalGrants.update',
  'settings.approvalGrants.deactivate',
  'settings.approverAssignments.create',
  'settings.approverAssignments.update',
  'settings.approverAssignments.deactivate',
  'settings.delegations.create',
  'settings.delegations.update',
  'settings.delegations.deactivate',
  'settings.claimPolicy.update',
  'settings.ageing.update',
  'settings.paymentReminders.update',
  'me.delegations.create',
  'me.delegations.deactivate',
  'settings.orgUnits.create',
  'settings.orgUnits.update',
  'settings.orgUnits.deactivate',
  'settings.positions.create',
  'settings.positions.update',
  'settings.positions.deactivate',
  'settings.positionAssignments.create',
  'settings.positionAssignments.update',
  'settings.positionAssignments.deactivate',
  'settings.companyGroups.create',
  'settings.companyGroups.update',
  'settings.companyGroups.deactivate',
  'settings.companyGroups.accept',
  'settings.companyGroups.decline',
  'settings.companyGroups.leave',
];

function call(caller: unknown, path: string, input: unknown): Promise<unknown> {
  const fn = path.split('.').reduce((node: any, key) => node[key], caller) as (input: unknown) => Promise<unknown>;
  return fn(input);
}

describe("people's decisions refuse an API key (403 person_required)", () => {
  it('finds every known decision in the router', () => {
    expect(decisions.map((d) => d.path)).toEqual(expect.arrayContaining(KNOWN));
    for (const d of decisions) expect(d.type, d.path).toBe('mutation');
  });

  it.each(decisions.map((d) => [d.path]))('%s refuses an API key holding every permission', async (path) => {
    const org = await createTestOrganization(t.db);
    const holder = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: [...PERMISSIONS] });
    const caller = createCallerFactory(appRouter)(
      createInProcessContext(t.deps, { authorization: `Bearer ${holder.apiKey}`, idempotencyKey: `pr-${path}`, ifMatch: '"1"' }),
    );
    // Whatever the input: the refusal comes before the input is even read.
    for (const input of [{}, { id: org.owner.id }]) {
      const e: any = await call(caller, path, input).then(() => undefined, (x) => x);
      expect(e?.appCode, `${path}: ${String(e)}`).toBe('person_required');
      expect(e.status).toBe(403);
    }
  });

  it('over /trpc the refusal is a 403 problem with code person_required', async () => {
    const org = await createTestOrganization(t.db);
    const holder = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: [...PERMISSIONS] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/organization.members.add',
      headers: { authorization: `Bearer ${holder.apiKey}`, 'idempotency-key': 'k1' },
      payload: { name: 'Key person', email: 'key.person@example.test', roles: [] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.data.problem).toMatchObject({ status: 403, code: 'person_required' });
    // The same caller's session takes the decision.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/trpc/organization.members.add',
      headers: { authorization: `Bearer ${holder.session}` },
      payload: { name: 'Key person', email: 'key.person@example.test', roles: [] },
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
