import { describe, expect, it } from 'vitest';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';
import { clientOf, describeSharedRefusals, expectRefused, historyOf, readAllPages, refusal, type LooseCaller } from '../helpers/settings';

/**
 * settings.approvalGrants (docs/design.md §15 and §17): the shared refusals, which fields fit which
 * kind, references, bands, the primary-grant rule (409), fallbacks without cycles, and the two
 * grants every new organization starts with.
 */

const t = useTestApp();
/** Loosely typed, so refusals of wrong shapes can be sent. */
const loose = (token: string, revision?: number): LooseCaller => clientOf(t, token, revision);
const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings;
const code = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

async function controllerGrant(org: TestOrganization, extra: Record<string, unknown> = {}) {
  const member = await createTestMember(t.db, org.id, { role: 'accountant' });
  return settings(org).approvalGrants.create({ name: 'Finance controller', kind: 'default', step: 'finance', holder_member_id: member.id, ...extra });
}

async function axis(org: TestOrganization) {
  return settings(org).analyticAxes.create({ code: code('AX'), name: 'Projects' });
}

/** The organization's grants by name, active ones only. */
async function grantsOf(org: TestOrganization) {
  return (await settings(org).approvalGrants.list({})).items;
}

describeSharedRefusals(t, {
  path: 'settings.approvalGrants',
  validCreate: async (db, org) => ({ name: 'Finance controller', kind: 'default', step: 'review', holder_member_id: (await createTestMember(db, org.id, { role: 'accountant' })).id }),
  text: { key: 'name', max: 200 },
  wrongType: { key: 'max_levels', value: '3' },
  validUpdate: { name: 'Chief financial officer' },
});

describe('settings.approvalGrants: the defaults of a new organization', () => {
  it('starts with Line manager (superior, review, to the root) and Project approvers (account_approver, finance, every axis), with their history', async () => {
    const org = await createTestOrganization(t.db);
    const grants = await grantsOf(org);
    expect(grants.map(({ name, kind, step, axis_id, max_levels, bands, fallback_grant_id, holder_member_id, holder_position_id, active, revision }) => ({
      name, kind, step, axis_id, max_levels, bands, fallback_grant_id, holder_member_id, holder_position_id, active, revision,
    }))).toEqual([
      { name: 'Line manager', kind: 'superior', step: 'review', axis_id: null, max_levels: null, bands: [], fallback_grant_id: null, holder_member_id: null, holder_position_id: null, active: true, revision: 1 },
      { name: 'Project approvers', kind: 'account_approver', step: 'finance', axis_id: null, max_levels: null, bands: [], fallback_grant_id: null, holder_member_id: null, holder_position_id: null, active: true, revision: 1 },
    ]);
    const history = await historyOf(t, org.owner.session, 'approvalGrants', grants[0]!.id);
    expect(history.map((h: { action: string; after: unknown }) => [h.action, h.after])).toEqual([['create', grants[0]]]);
  });
});

describe('settings.approvalGrants: the fields of each kind', () => {
  it('creates a banded superior grant with a level limit over /trpc: 201, ETag, amounts in the base currency places', async () => {
    const org = await createTestOrganization(t.db);
    const line = (await grantsOf(org)).find((g) => g.kind === 'superior')!;
    await settings(org, line.revision).approvalGrants.deactivate({ id: line.id });
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/settings.approvalGrants.create',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: ' Superiors ',
        kind: 'superior',
        step: 'review',
        max_levels: 3,
        bands: [
          { level: 1, min_amount: '0', max_amount: '1000' },
          { level: 2, min_amount: '0', max_amount: null },
          { level: 1, min_amount: '1000.01', max_amount: '5000.5' },
        ],
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.etag).toBe('"1"');
    const grant = res.json().result.data;
    expect(grant).toMatchObject({ name: 'Superiors', max_levels: 3, revision: 1, active: true });
    expect(grant.bands).toEqual([
      { level: 1, min_amount: '0.00', max_amount: '1000.00' },
      { level: 2, min_amount: '0.00', max_amount: null },
      { level: 1, min_amount: '1000.01', max_amount: '5000.50' },
    ]);
  });

  it('refuses fields that do not fit the kind or step (422 naming each)', async () => {
    const org = await createTestOrganization(t.db);
    const ax = await axis(org);
    const member = await createTestMember(t.db, org.id, { role: 'accountant' });
    const create = settings(org).approvalGrants.create;
    expectRefused(await refusal(create({ name: 'S', kind: 'superior', step: 'finance' })), 422, 'validation', '/step');
    expectRefused(await refusal(create({ name: 'A', kind: 'account_approver', step: 'review' })), 422, 'validation', '/step');
    expectRefused(await refusal(create({ name: 'S', kind: 'superior', step: 'review', axis_id: ax.id })), 422, 'validation', '/axis_id');
    expectRefused(await refusal(create({ name: 'D', kind: 'default', step: 'review', axis_id: ax.id, holder_member_id: member.id })), 422, 'validation', '/axis_id');
    expectRefused(await refusal(create({ name: 'S', kind: 'superior', step: 'review', holder_member_id: member.id })), 422, 'validation', '/holder_member_id');
    expectRefused(await refusal(create({ name: 'D', kind: 'default', step: 'finance' })), 422, 'validation', '/holder_position_id');
    const unit = await settings(org).orgUnits.create({ code: code('U'), name: 'Finance' });
    const seat = await settings(org).positions.create({ org_unit_id: unit.id, title: 'Controller' });
    expectRefused(await refusal(create({ name: 'D', kind: 'default', step: 'finance', holder_member_id: member.id, holder_position_id: seat.id })), 422, 'validation', '/holder_position_id');
    expectRefused(await refusal(create({ name: 'A', kind: 'account_approver', step: 'finance', axis_id: ax.id, max_levels: 2 })), 422, 'validation', '/max_levels');
    const e = await refusal(create({ name: 'S', kind: 'superior', step: 'review', max_levels: 21 }));
    expectRefused(e, 422, 'validation', '/max_levels');
    expectRefused(await refusal(create({ name: 'S', kind: 'superior', step: 'review', max_levels: 0 })), 422, 'validation', '/max_levels');
    expectRefused(await refusal(create({ name: 'S', kind: 'superior', step: 'review', max_levels: 1.5 })), 400, 'invalid_request', '/max_levels');
    expectRefused(await refusal(loose(org.owner.session).settings.approvalGrants.create({ name: 'S', kind: 'manager', step: 'review' })), 400, 'invalid_request', '/kind');
    // A position of the org chart works; a retired one does not; an inactive member does not.
    expect((await create({ name: 'Controller seat', kind: 'default', step: 'finance', holder_position_id: seat.id })).holder_position_id).toBe(seat.id);
    await settings(org, seat.revision).positions.deactivate({ id: seat.id });
    expectRefused(await refusal(create({ name: 'D', kind: 'default', step: 'finance', holder_position_id: seat.id })), 422, 'validation', '/holder_position_id');
    const gone = await createTestMember(t.db, org.id, { role: 'accountant', active: false });
    expectRefused(await refusal(create({ name: 'D', kind: 'default', step: 'finance', holder_member_id: gone.id })), 422, 'validation', '/holder_member_id');
    // Another organization's axis and member are unknown here.
    const other = await createTestOrganization(t.db);
    const theirAxis = await axis(other);
    expectRefused(await refusal(create({ name: 'A', kind: 'account_approver', step: 'finance', axis_id: theirAxis.id })), 422, 'validation', '/axis_id');
    expectRefused(await refusal(create({ name: 'D', kind: 'default', step: 'finance', holder_member_id: other.owner.id })), 422, 'validation', '/holder_member_id');
  });

  it('refuses bands out of shape or rule: more than 20, negative, too many places, max below min, a level off superior grants, overlaps of one level', async () => {
    const org = await createTestOrganization(t.db);
    const g = await controllerGrant(org);
    const update = settings(org, g.revision).approvalGrants.update;
    const band = (min: string, max: string | null, level?: number) => ({ min_amount: min, max_amount: max, ...(level === undefined ? {} : { level }) });
    expectRefused(await refusal(update({ id: g.id, bands: Array.from({ length: 21 }, (_, i) => band(String(i * 10), String(i * 10 + 9))) })), 422, 'validation', '/bands');
    expectRefused(await refusal(update({ id: g.id, bands: [band('-1', null)] })), 422, 'validation', '/bands/0/min_amount');
    expectRefused(await refusal(update({ id: g.id, bands: [band('0', '10.005')] })), 422, 'validation', '/bands/0/max_amount');
    expectRefused(await refusal(update({ id: g.id, bands: [band('100', '99.99')] })), 422, 'validation', '/bands/0/max_amount');
    expectRefused(await refusal(update({ id: g.id, bands: [band('0', null, 1)] })), 422, 'validation', '/bands/0/level');
    expectRefused(await refusal(update({ id: g.id, bands: [band('0', '100'), band('100', null)] })), 422, 'validation', '/bands/1');
    expectRefused(await refusal(update({ id: g.id, bands: [band('0', '12,50')] })), 400, 'invalid_request');
    const ok = await update({ id: g.id, bands: [band('0', '100'), band('100.01', null)] });
    expect(ok.bands).toEqual([band('0.00', '100.00'), band('100.01', null)]);
    expect(ok.revision).toBe(2);
    // Levels of a superior grant: the same range on two levels is fine, a level of 0 is not.
    const line = (await grantsOf(org)).find((x) => x.kind === 'superior')!;
    const sup = settings(org, line.revision).approvalGrants.update;
    expectRefused(await refusal(sup({ id: line.id, bands: [band('0', null, 0)] })), 422, 'validation', '/bands/0/level');
    expect((await sup({ id: line.id, bands: [band('0', null, 1), band('0', null, 2)] })).bands).toHaveLength(2);
  });

  it('kind and step cannot change: update does not take them (400 unknown field)', async () => {
    const org = await createTestOrganization(t.db);
    const g = await controllerGrant(org);
    expectRefused(await refusal(loose(org.owner.session, g.revision).settings.approvalGrants.update({ id: g.id, kind: 'superior' })), 400, 'invalid_request', '/kind');
    expectRefused(await refusal(loose(org.owner.session, g.revision).settings.approvalGrants.update({ id: g.id, step: 'review' })), 400, 'invalid_request', '/step');
  });
});

describe('settings.approvalGrants: the primary grant and fallbacks', () => {
  it('one active superior grant (409 on create and on reactivation); one account_approver grant per axis, null counting as every axis', async () => {
    const org = await createTestOrganization(t.db);
    const create = settings(org).approvalGrants.create;
    expectRefused(await refusal(create({ name: 'Second line', kind: 'superior', step: 'review' })), 409, 'conflict', '/kind');
    expectRefused(await refusal(create({ name: 'Every axis', kind: 'account_approver', step: 'finance' })), 409, 'conflict', '/axis_id');
    const ax = await axis(org);
    const onAxis = await create({ name: 'Axis approvers', kind: 'account_approver', step: 'finance', axis_id: ax.id });
    expectRefused(await refusal(create({ name: 'Axis again', kind: 'account_approver', step: 'finance', axis_id: ax.id })), 409, 'conflict', '/axis_id');
    // Deactivated, the place is free; reactivating the old one is then 409.
    await settings(org, onAxis.revision).approvalGrants.deactivate({ id: onAxis.id });
    const replacement = await create({ name: 'Axis approvers 2', kind: 'account_approver', step: 'finance', axis_id: ax.id });
    expectRefused(await refusal(settings(org, onAxis.revision + 1).approvalGrants.update({ id: onAxis.id, active: true })), 409, 'conflict', '/axis_id');
    await settings(org, replacement.revision).approvalGrants.deactivate({ id: replacement.id });
    const back = await settings(org, onAxis.revision + 1).approvalGrants.update({ id: onAxis.id, active: true });
    expect(back).toMatchObject({ active: true, revision: onAxis.revision + 2 });
    expect((await historyOf(t, org.owner.session, 'approvalGrants', onAxis.id)).map((h: { action: string }) => h.action)).toEqual(['create', 'deactivate', 'reactivate']);
    // Moving a grant onto an axis another grant holds is 409 too.
    const ax2 = await axis(org);
    const other = await create({ name: 'Other axis', kind: 'account_approver', step: 'finance', axis_id: ax2.id });
    expectRefused(await refusal(settings(org, other.revision).approvalGrants.update({ id: other.id, axis_id: ax.id })), 409, 'conflict', '/axis_id');
    // An inactive grant is not changed except by reactivation.
    const line = (await grantsOf(org)).find((g) => g.kind === 'superior')!;
    const off = await settings(org, line.revision).approvalGrants.deactivate({ id: line.id });
    expectRefused(await refusal(settings(org, off.revision).approvalGrants.update({ id: line.id, name: 'Renamed' })), 409, 'conflict', '/id');
  });

  it('one active default finance grant per axis; default grants without an axis or in review are not limited', async () => {
    const org = await createTestOrganization(t.db);
    const ax = await axis(org);
    await controllerGrant(org, { axis_id: ax.id });
    expectRefused(await refusal(controllerGrant(org, { axis_id: ax.id })), 409, 'conflict', '/axis_id');
    await controllerGrant(org);
    await controllerGrant(org);
    await controllerGrant(org, { step: 'review' });
    expect((await grantsOf(org)).filter((g) => g.kind === 'default')).toHaveLength(4);
  });

  it('a fallback is an active grant of the same step, never the grant itself, never a cycle; a grant named as fallback cannot be deactivated (409)', async () => {
    const org = await createTestOrganization(t.db);
    const grants = await grantsOf(org);
    const projects = grants.find((g) => g.kind === 'account_approver')!;
    const line = grants.find((g) => g.kind === 'superior')!;
    const fc = await controllerGrant(org);
    const upd = (g: { id: string; revision: number }, input: Record<string, unknown>) => settings(org, g.revision).approvalGrants.update({ id: g.id, ...input });
    expectRefused(await refusal(upd(projects, { fallback_grant_id: line.id })), 422, 'validation', '/fallback_grant_id');
    expectRefused(await refusal(upd(projects, { fallback_grant_id: projects.id })), 422, 'validation', '/fallback_grant_id');
    expectRefused(await refusal(upd(projects, { fallback_grant_id: crypto.randomUUID() })), 422, 'validation', '/fallback_grant_id');
    const p2 = await upd(projects, { fallback_grant_id: fc.id });
    expect(p2.fallback_grant_id).toBe(fc.id);
    const e = await refusal(upd(fc, { fallback_grant_id: projects.id }));
    expectRefused(e, 422, 'validation', '/fallback_grant_id');
    expect(e.fieldErrors).toEqual([{ pointer: '/fallback_grant_id', detail: 'would make a cycle of fallbacks' }]);
    expectRefused(await refusal(settings(org, fc.revision).approvalGrants.deactivate({ id: fc.id })), 409, 'conflict', '/id');
    // Once the dependant lets go, it can go; an inactive grant is no fallback.
    const p3 = await upd(p2, { fallback_grant_id: null });
    const off = await settings(org, fc.revision).approvalGrants.deactivate({ id: fc.id });
    expect(off.active).toBe(false);
    expectRefused(await refusal(upd(p3, { fallback_grant_id: fc.id })), 422, 'validation', '/fallback_grant_id');
  });

  it('lists by name in keyset pages; inactive ones with include_inactive', async () => {
    const org = await createTestOrganization(t.db);
    for (let i = 0; i < 5; i++) await controllerGrant(org, { name: `Controller ${i}` });
    const all = await readAllPages(settings(org).approvalGrants.list as never, {}, 2);
    expect(all.pages).toBe(4);
    expect(all.items.map((g) => (g as unknown as { name: string }).name)).toEqual(['Controller 0', 'Controller 1', 'Controller 2', 'Controller 3', 'Controller 4', 'Line manager', 'Project approvers']);
    const c0 = (await grantsOf(org))[0]!;
    await settings(org, c0.revision).approvalGrants.deactivate({ id: c0.id });
    expect((await grantsOf(org)).map((g) => g.name)).not.toContain('Controller 0');
    expect((await settings(org).approvalGrants.list({ include_inactive: true })).items.map((g) => g.name)).toContain('Controller 0');
  });
});

describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
  it('two superior grants racing: one is written, the other is 409 (never both active)', async () => {
    const org = await createTestOrganization(t.db);
    const line = (await grantsOf(org)).find((g) => g.kind === 'superior')!;
    await settings(org, line.revision).approvalGrants.deactivate({ id: line.id });
    const answers = await Promise.allSettled([1, 2].map((i) => settings(org).approvalGrants.create({ name: `Line ${i}`, kind: 'superior', step: 'review' })));
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    expectRefused((answers.find((a) => a.status === 'rejected') as PromiseRejectedResult).reason, 409, 'conflict', '/kind');
    expect((await grantsOf(org)).filter((g) => g.kind === 'superior')).toHaveLength(1);
  });

  it('two grants made each other\'s fallback at once: one applies, the other is 422 (never a cycle)', async () => {
    const org = await createTestOrganization(t.db);
    const [a, b] = [await controllerGrant(org), await controllerGrant(org)];
    const answers = await Promise.allSettled([
      settings(org, a.revision).approvalGrants.update({ id: a.id, fallback_grant_id: b.id }),
      settings(org, b.revision).approvalGrants.update({ id: b.id, fallback_grant_id: a.id }),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual(['fulfilled', 'rejected']);
    expectRefused((answers.find((x) => x.status === 'rejected') as PromiseRejectedResult).reason, 422, 'validation', '/fallback_grant_id');
  });
});
