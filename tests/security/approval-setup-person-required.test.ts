import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/domain/permissions';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { clientOf } from '../helpers/settings';

/**
 * Who approves claims is a people's decision (docs/design.md §5 and §17): every write of approval
 * grants, approver assignments, delegations (set-up's and the caller's own), the claim policy and
 * the org chart (units, positions, position assignments: they decide a claimant's superior) is
 * refused to an API key with 403 person_required, whatever the key's permissions, and leaves nothing
 * written; the same member's session takes it. Reads stay open to a key with the permission. These
 * procedures are tRPC-only (no /v1 path), so they are called over /trpc as a client would.
 */

const t = useTestApp();
const code = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

interface World {
  org: TestOrganization;
  holder: Awaited<ReturnType<typeof createTestMember>>;
  deputy: string;
  accountId: string;
  grantId: string;
  assignmentId: string;
  delegationId: string;
  myDelegationId: string;
  unitId: string;
  emptyUnitId: string;
  positionId: string;
  positionAssignmentId: string;
}

async function world(): Promise<World> {
  const org = await createTestOrganization(t.db);
  // An owner whose key carries every permission: only the kind of credential differs.
  const holder = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: [...PERMISSIONS] });
  const deputy = (await createTestMember(t.db, org.id, { role: 'accountant' })).id;
  const s = clientOf(t, org.owner.session).settings;
  const axis = await s.analyticAxes.create({ code: code('AX'), name: 'Projects' });
  const account = await s.analyticAccounts.create({ axis_id: axis.id, code: code('P'), name: 'Project' });
  const grant = await s.approvalGrants.create({ name: 'Controller', kind: 'default', step: 'finance', holder_member_id: deputy });
  const assignment = await s.approverAssignments.create({ analytic_account_id: account.id, member_id: deputy, valid_from: '2025-01-01' });
  const delegation = await s.delegations.create({ delegator_member_id: org.owner.id, delegate_member_id: deputy, valid_from: '2026-01-01', valid_to: '2026-01-31' });
  const mine = await clientOf(t, holder.session).me.delegations.create({ delegate_member_id: deputy, valid_from: '2026-02-01', valid_to: '2026-02-10' });
  const unit = await s.orgUnits.create({ code: code('U'), name: 'Finance' });
  const empty = await s.orgUnits.create({ code: code('U'), name: 'Closed branch' });
  const position = await s.positions.create({ org_unit_id: unit.id, title: 'Finance manager' });
  const seat = await s.positionAssignments.create({ member_id: deputy, position_id: position.id, valid_from: '2025-01-01' });
  return {
    org, holder, deputy, accountId: account.id, grantId: grant.id, assignmentId: assignment.id, delegationId: delegation.id, myDelegationId: mine.id,
    unitId: unit.id, emptyUnitId: empty.id, positionId: position.id, positionAssignmentId: seat.id,
  };
}

/** Every write of the seven families, with a valid input and the If-Match it needs. */
const WRITES: { path: string; input: (w: World) => Record<string, unknown>; ifMatch?: true }[] = [
  { path: 'settings.approvalGrants.create', input: (w) => ({ name: 'Second controller', kind: 'default', step: 'review', holder_member_id: w.deputy }) },
  { path: 'settings.approvalGrants.update', input: (w) => ({ id: w.grantId, name: 'Renamed' }), ifMatch: true },
  { path: 'settings.approvalGrants.deactivate', input: (w) => ({ id: w.grantId }), ifMatch: true },
  { path: 'settings.approverAssignments.create', input: (w) => ({ analytic_account_id: w.accountId, member_id: w.holder.id, valid_from: '2025-01-01' }) },
  { path: 'settings.approverAssignments.update', input: (w) => ({ id: w.assignmentId, max_amount: '99999.00' }), ifMatch: true },
  { path: 'settings.approverAssignments.deactivate', input: (w) => ({ id: w.assignmentId }), ifMatch: true },
  { path: 'settings.delegations.create', input: (w) => ({ delegator_member_id: w.deputy, delegate_member_id: w.holder.id, valid_from: '2026-03-01', valid_to: '2026-03-05' }) },
  { path: 'settings.delegations.update', input: (w) => ({ id: w.delegationId, reason: 'Leave' }), ifMatch: true },
  { path: 'settings.delegations.deactivate', input: (w) => ({ id: w.delegationId }), ifMatch: true },
  { path: 'settings.claimPolicy.update', input: () => ({ sole_owner_exception: true }), ifMatch: true },
  { path: 'me.delegations.create', input: (w) => ({ delegate_member_id: w.deputy, valid_from: '2026-04-01', valid_to: '2026-04-05' }) },
  { path: 'me.delegations.deactivate', input: (w) => ({ id: w.myDelegationId }), ifMatch: true },
  // The org chart decides a claimant's superior, who signs the review step.
  { path: 'settings.orgUnits.create', input: () => ({ code: code('U'), name: 'Sales' }) },
  { path: 'settings.orgUnits.update', input: (w) => ({ id: w.unitId, name: 'Finance and Treasury' }), ifMatch: true },
  { path: 'settings.orgUnits.deactivate', input: (w) => ({ id: w.emptyUnitId }), ifMatch: true },
  { path: 'settings.positions.create', input: (w) => ({ org_unit_id: w.unitId, title: 'Head of finance', is_unit_head: true }) },
  { path: 'settings.positions.update', input: (w) => ({ id: w.positionId, title: 'Finance controller' }), ifMatch: true },
  { path: 'settings.positions.deactivate', input: (w) => ({ id: w.positionId }), ifMatch: true },
  { path: 'settings.positionAssignments.create', input: (w) => ({ member_id: w.holder.id, position_id: w.positionId, valid_from: '2025-01-01', is_primary: false }) },
  { path: 'settings.positionAssignments.update', input: (w) => ({ id: w.positionAssignmentId, valid_to: '2099-12-31' }), ifMatch: true },
  { path: 'settings.positionAssignments.deactivate', input: (w) => ({ id: w.positionAssignmentId }), ifMatch: true },
];

async function trpc(path: string, token: string, input: Record<string, unknown>, ifMatch?: true) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...(ifMatch ? { 'if-match': '"1"' } : {}) },
    payload: JSON.stringify(input),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('changing who approves claims needs a person (API key: 403 person_required)', () => {
  it.each(WRITES.map((w) => [w.path, w]))('%s: refused to an API key holding every permission, taken with a session', async (_path, write) => {
    const w = await world();
    const input = write.input(w);
    const byKey = await trpc(write.path, w.holder.apiKey, input, write.ifMatch);
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(403);
    expect(byKey.body.error.data.problem).toMatchObject({ status: 403, code: 'person_required' });
    // Nothing was written: the record is still at revision 1, so the session's If-Match "1" holds.
    const bySession = await trpc(write.path, w.holder.session, input, write.ifMatch);
    expect(bySession.status, JSON.stringify(bySession.body)).toBeLessThan(300);
    expect(bySession.body.result.data.revision).toBe(write.ifMatch ? 2 : 1);
  });

  it('in-process callers get the same refusal; reads stay open to a key with the permission', async () => {
    const w = await world();
    const key = clientOf(t, w.holder.apiKey, 1) as any;
    for (const write of WRITES) {
      const node = write.path.split('.').reduce((o: any, k) => o[k], key);
      const e: any = await node(write.input(w)).then(() => undefined, (x: unknown) => x);
      expect({ status: e?.status, code: e?.appCode }, write.path).toEqual({ status: 403, code: 'person_required' });
    }
    expect((await key.settings.approvalGrants.list({})).items.map((g: { id: string }) => g.id)).toContain(w.grantId);
    expect((await key.settings.approverAssignments.list({})).items.map((a: { id: string }) => a.id)).toEqual([w.assignmentId]);
    expect((await key.settings.delegations.list({})).items.map((d: { id: string }) => d.id)).toContain(w.delegationId);
    expect((await key.me.delegations.list({})).items.map((d: { id: string }) => d.id)).toEqual([w.myDelegationId]);
    expect((await key.settings.claimPolicy.get()).revision).toBe(1);
    expect((await key.settings.orgUnits.list({})).items.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining([w.unitId, w.emptyUnitId]));
    expect((await key.settings.positions.list({})).items.map((p: { id: string }) => p.id)).toEqual([w.positionId]);
    expect((await key.settings.positionAssignments.list({})).items.map((a: { id: string; revision: number }) => [a.id, a.revision])).toEqual([[w.positionAssignmentId, 1]]);
  });
});
