import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';
import { clientOf, describeSharedRefusals, expectRefused, historyOf, readAllPages, refusal, type LooseCaller } from '../helpers/settings';

/**
 * settings.approverAssignments, settings.delegations and me.delegations (docs/design.md §17): the
 * shared refusals, bands and periods, the 90-day limit, scopes and their targets, overlaps (409), and
 * the caller's own delegations.
 */

const t = useTestApp();
/** Loosely typed, so refusals of wrong shapes can be sent. */
const loose = (token: string, revision?: number): LooseCaller => clientOf(t, token, revision);
const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings;
const code = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

async function account(org: TestOrganization) {
  const axis = await settings(org).analyticAxes.create({ code: code('AX'), name: 'Projects' });
  const acc = await settings(org).analyticAccounts.create({ axis_id: axis.id, code: code('P'), name: 'Project' });
  return { axis, account: acc };
}

const member = (org: TestOrganization, active = true) => createTestMember(t.db, org.id, { role: 'accountant', active });

let year = 2030;

describeSharedRefusals(t, {
  path: 'settings.approverAssignments',
  validCreate: async (_db, org) => ({ analytic_account_id: (await account(org)).account.id, member_id: (await member(org)).id, valid_from: '2024-01-01' }),
  wrongType: { key: 'valid_from', value: 20240101 },
  validUpdate: { valid_to: '2099-12-31' },
});

describeSharedRefusals(t, {
  path: 'settings.delegations',
  validCreate: async (_db, org) => ({ delegator_member_id: (await member(org)).id, delegate_member_id: (await member(org)).id, valid_from: '2026-01-01', valid_to: '2026-01-31', reason: 'Annual leave' }),
  text: { key: 'reason', max: 500 },
  wrongType: { key: 'scope', value: 1 },
  validUpdate: { reason: 'Medical leave' },
});

describeSharedRefusals(t, {
  path: 'me.delegations',
  // The caller delegates; each create a period of its own, so none overlaps another.
  validCreate: async (_db, org) => ({ delegate_member_id: (await member(org)).id, valid_from: `${++year}-03-01`, valid_to: `${year}-03-31`, reason: 'Leave' }),
  text: { key: 'reason', max: 500 },
  wrongType: { key: 'valid_to', value: true },
  deniedRole: 'employee',
});

describe('settings.approverAssignments', () => {
  it('creates with a band in the base currency places; min defaults to 0, max null is no limit; lists by account', async () => {
    const org = await createTestOrganization(t.db);
    const { account: a1 } = await account(org);
    const { account: a2 } = await account(org);
    const pm = await member(org);
    const create = settings(org).approverAssignments.create;
    const x = await create({ analytic_account_id: a1.id, member_id: pm.id, valid_from: '2025-01-01' });
    expect(x).toMatchObject({ analytic_account_id: a1.id, member_id: pm.id, valid_from: '2025-01-01', valid_to: null, min_amount: '0.00', max_amount: null, active: true, revision: 1 });
    const y = await create({ analytic_account_id: a2.id, member_id: pm.id, valid_from: '2025-02-01', valid_to: '2025-12-31', min_amount: '100', max_amount: '5000.5' });
    expect(y).toMatchObject({ min_amount: '100.00', max_amount: '5000.50', valid_to: '2025-12-31' });
    expect((await settings(org).approverAssignments.list({ analytic_account_id: a2.id })).items.map((i) => i.id)).toEqual([y.id]);
    expect((await readAllPages(settings(org).approverAssignments.list as never, {}, 1)).items.map((i) => i.id)).toEqual([x.id, y.id]);
    const changed = await settings(org, y.revision).approverAssignments.update({ id: y.id, max_amount: null, valid_to: null });
    expect(changed).toMatchObject({ max_amount: null, valid_to: null, min_amount: '100.00', revision: 2 });
    expect((await historyOf(t, org.owner.session, 'approverAssignments', y.id)).map((h: { action: string }) => h.action)).toEqual(['create', 'update']);
  });

  it('refuses an inactive or foreign account, an inactive member, a period ending before it starts, a band out of rule (422)', async () => {
    const org = await createTestOrganization(t.db);
    const { account: acc } = await account(org);
    const pm = await member(org);
    const create = settings(org).approverAssignments.create;
    const base = { analytic_account_id: acc.id, member_id: pm.id, valid_from: '2025-01-01' };
    expectRefused(await refusal(create({ ...base, member_id: (await member(org, false)).id })), 422, 'validation', '/member_id');
    expectRefused(await refusal(create({ ...base, valid_to: '2024-12-31' })), 422, 'validation', '/valid_to');
    expectRefused(await refusal(create({ ...base, min_amount: '-1' })), 422, 'validation', '/min_amount');
    expectRefused(await refusal(create({ ...base, min_amount: '0.001' })), 422, 'validation', '/min_amount');
    expectRefused(await refusal(create({ ...base, min_amount: '100', max_amount: '99' })), 422, 'validation', '/max_amount');
    expectRefused(await refusal(create({ ...base, max_amount: 'lots' })), 400, 'invalid_request', '/max_amount');
    expectRefused(await refusal(create({ ...base, member_id: pm.id, analytic_account_id: crypto.randomUUID() })), 422, 'validation', '/analytic_account_id');
    const other = await createTestOrganization(t.db);
    expectRefused(await refusal(create({ ...base, analytic_account_id: (await account(other)).account.id })), 422, 'validation', '/analytic_account_id');
    await settings(org, acc.revision).analyticAccounts.deactivate({ id: acc.id });
    expectRefused(await refusal(create(base)), 422, 'validation', '/analytic_account_id');
    // The account and the member are fixed once created.
    const { account: acc2 } = await account(org);
    const a = await create({ ...base, analytic_account_id: acc2.id });
    expectRefused(await refusal(loose(org.owner.session, a.revision).settings.approverAssignments.update({ id: a.id, member_id: pm.id })), 400, 'invalid_request', '/member_id');
    expectRefused(await refusal(settings(org, a.revision).approverAssignments.update({ id: a.id, valid_to: '2024-01-01' })), 422, 'validation', '/valid_to');
  });
});

describe('settings.delegations', () => {
  it('refuses the delegator as delegate, an inactive member, more than 90 days, an end before the start (422); 90 days inclusive is fine', async () => {
    const org = await createTestOrganization(t.db);
    const [boss, deputy] = [await member(org), await member(org)];
    const create = settings(org).delegations.create;
    const base = { delegator_member_id: boss.id, delegate_member_id: deputy.id, valid_from: '2026-01-01', valid_to: '2026-01-31' };
    expectRefused(await refusal(create({ ...base, delegate_member_id: boss.id })), 422, 'validation', '/delegate_member_id');
    expectRefused(await refusal(create({ ...base, delegate_member_id: (await member(org, false)).id })), 422, 'validation', '/delegate_member_id');
    expectRefused(await refusal(create({ ...base, delegator_member_id: (await member(org, false)).id })), 422, 'validation', '/delegator_member_id');
    expectRefused(await refusal(create({ ...base, valid_to: '2026-04-01' })), 422, 'validation', '/valid_to');
    expectRefused(await refusal(create({ ...base, valid_to: '2025-12-31' })), 422, 'validation', '/valid_to');
    expectRefused(await refusal(loose(org.owner.session).settings.delegations.create({ ...base, valid_to: undefined })), 400, 'invalid_request', '/valid_to');
    const d = await create({ ...base, valid_to: '2026-03-31' });
    expect(d).toMatchObject({ scope: 'all', grant_id: null, axis_id: null, analytic_account_id: null, reason: null, valid_to: '2026-03-31', revision: 1 });
    expectRefused(await refusal(settings(org, d.revision).delegations.update({ id: d.id, valid_to: '2026-04-01' })), 422, 'validation', '/valid_to');
  });

  it('a scope names exactly its own target, active in this organization (422 otherwise)', async () => {
    const org = await createTestOrganization(t.db);
    const [boss, deputy] = [await member(org), await member(org)];
    const { axis, account: acc } = await account(org);
    const grant = (await settings(org).approvalGrants.list({})).items[0]!;
    const create = settings(org).delegations.create;
    const base = { delegator_member_id: boss.id, delegate_member_id: deputy.id, valid_from: '2026-01-01', valid_to: '2026-01-31' };
    expectRefused(await refusal(create({ ...base, axis_id: axis.id })), 422, 'validation', '/axis_id');
    expectRefused(await refusal(create({ ...base, scope: 'grant' })), 422, 'validation', '/grant_id');
    expectRefused(await refusal(create({ ...base, scope: 'grant', grant_id: grant.id, axis_id: axis.id })), 422, 'validation', '/axis_id');
    expectRefused(await refusal(create({ ...base, scope: 'axis', axis_id: crypto.randomUUID() })), 422, 'validation', '/axis_id');
    expectRefused(await refusal(create({ ...base, scope: 'analytic_account', analytic_account_id: axis.id })), 422, 'validation', '/analytic_account_id');
    expectRefused(await refusal(loose(org.owner.session).settings.delegations.create({ ...base, scope: 'team' })), 400, 'invalid_request', '/scope');
    expect((await create({ ...base, scope: 'grant', grant_id: grant.id })).grant_id).toBe(grant.id);
    expect((await create({ ...base, scope: 'axis', axis_id: axis.id })).axis_id).toBe(axis.id);
    expect((await create({ ...base, scope: 'analytic_account', analytic_account_id: acc.id })).analytic_account_id).toBe(acc.id);
  });

  it('overlapping active delegations of one delegator for the same scope and target are 409; other targets, delegators and deactivated ones are fine', async () => {
    const org = await createTestOrganization(t.db);
    const [boss, deputy, other] = [await member(org), await member(org), await member(org)];
    const { account: a1 } = await account(org);
    const { account: a2 } = await account(org);
    const create = settings(org).delegations.create;
    const base = { delegator_member_id: boss.id, delegate_member_id: deputy.id, valid_from: '2026-01-01', valid_to: '2026-01-31' };
    const first = await create(base);
    expectRefused(await refusal(create({ ...base, delegate_member_id: other.id, valid_from: '2026-01-31', valid_to: '2026-02-10' })), 409, 'conflict', '/valid_from');
    const next = await create({ ...base, valid_from: '2026-02-01', valid_to: '2026-02-10' });
    await create({ ...base, delegator_member_id: other.id });
    await create({ ...base, scope: 'analytic_account', analytic_account_id: a1.id });
    expectRefused(await refusal(create({ ...base, scope: 'analytic_account', analytic_account_id: a1.id, valid_from: '2026-01-15' })), 409, 'conflict');
    await create({ ...base, scope: 'analytic_account', analytic_account_id: a2.id });
    // Stretching one over the other is 409 too; deactivated, it no longer counts.
    expectRefused(await refusal(settings(org, next.revision).delegations.update({ id: next.id, valid_from: '2026-01-20' })), 409, 'conflict');
    await settings(org, first.revision).delegations.deactivate({ id: first.id });
    const moved = await settings(org, next.revision).delegations.update({ id: next.id, valid_from: '2026-01-20' });
    expect(moved).toMatchObject({ valid_from: '2026-01-20', revision: 2 });
    expect((await settings(org).delegations.list({ delegator_member_id: boss.id })).items).toHaveLength(3);
    expect((await settings(org).delegations.list({ delegate_member_id: other.id })).items).toHaveLength(0);
    expect((await historyOf(t, org.owner.session, 'delegations', first.id)).map((h: { action: string }) => h.action)).toEqual(['create', 'deactivate']);
  });
});

describe('me.delegations', () => {
  it('the caller delegates their own authority by session (an API key is 403 person_required); sees and ends only their own (another member’s is 404)', async () => {
    const org = await createTestOrganization(t.db);
    const approver = await member(org);
    const deputy = await member(org);
    const mine = clientOf(t, approver.session).me.delegations;
    const d = await mine.create({ delegate_member_id: deputy.id, valid_from: '2026-05-01', valid_to: '2026-05-14', reason: 'Leave' });
    expect(d).toMatchObject({ delegator_member_id: approver.id, delegate_member_id: deputy.id, scope: 'all', reason: 'Leave' });
    const byKey = (createInProcessClient(t.deps, { token: approver.apiKey, idempotencyKey: crypto.randomUUID() }) as LooseCaller).me.delegations;
    expectRefused(await refusal(byKey.create({ delegate_member_id: deputy.id, valid_from: '2026-06-01', valid_to: '2026-06-02' })), 403, 'person_required');
    const viaKey = await mine.create({ delegate_member_id: deputy.id, valid_from: '2026-06-01', valid_to: '2026-06-02' });
    expect(viaKey.delegator_member_id).toBe(approver.id);
    expectRefused(await refusal(mine.create({ delegate_member_id: approver.id, valid_from: '2026-07-01', valid_to: '2026-07-02' })), 422, 'validation', '/delegate_member_id');
    expectRefused(await refusal(loose(approver.session).me.delegations.create({ delegate_member_id: deputy.id, delegator_member_id: deputy.id, valid_from: '2026-07-01', valid_to: '2026-07-02' })), 400, 'invalid_request');
    expect((await mine.list({})).items.map((x) => x.id)).toEqual([d.id, viaKey.id]);
    expect((await clientOf(t, deputy.session).me.delegations.list({})).items).toEqual([]);
    expectRefused(await refusal(clientOf(t, deputy.session, d.revision).me.delegations.deactivate({ id: d.id })), 404, 'not_found');
    const ended = await clientOf(t, approver.session, d.revision).me.delegations.deactivate({ id: d.id });
    expect(ended).toMatchObject({ active: false, revision: 2 });
    expect((await mine.list({})).items.map((x) => x.id)).toEqual([viaKey.id]);
    expect((await settings(org).delegations.list({ include_inactive: true })).items).toHaveLength(2);
  });
});

describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
  it('two overlapping delegations of one delegator racing: one is written, the other is 409', async () => {
    const org = await createTestOrganization(t.db);
    const [boss, d1, d2] = [await member(org), await member(org), await member(org)];
    const answers = await Promise.allSettled(
      [d1, d2].map((d) => settings(org).delegations.create({ delegator_member_id: boss.id, delegate_member_id: d.id, valid_from: '2026-01-01', valid_to: '2026-01-31' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    expectRefused((answers.find((a) => a.status === 'rejected') as PromiseRejectedResult).reason, 409, 'conflict');
  });

  it('a policy updated twice at the same revision: one applies, the other is 409 revision_mismatch', async () => {
    const org = await createTestOrganization(t.db);
    const answers = await Promise.allSettled([4, 5].map((d) => clientOf(t, org.owner.session, 1).settings.claimPolicy.update({ escalation_working_days: d })));
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    expectRefused((answers.find((a) => a.status === 'rejected') as PromiseRejectedResult).reason, 409, 'revision_mismatch');
  });
});
