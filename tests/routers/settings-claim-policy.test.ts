import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { clientOf, expectRefused, historyOf, refusal, type LooseCaller } from '../helpers/settings';

/**
 * settings.claimPolicy.get|update, the axes' `required_on_claims`, and
 * drizzle/0014_approval-grant-defaults.sql (the default grants given to organizations that had none).
 */

const t = useTestApp();
/** Loosely typed, so refusals of wrong shapes can be sent. */
const loose = (token: string, revision?: number): LooseCaller => clientOf(t, token, revision);
const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings;

describe('settings.claimPolicy', () => {
  it('answers the defaults at revision 1 without a row; the first update writes it (If-Match "1"), with its history', async () => {
    const org = await createTestOrganization(t.db);
    const defaults = { escalation_working_days: 3, escalation_max_hops: 2, weekend_days: null, sole_owner_exception: false, payout_tolerance_percent: '5', revision: 1 };
    expect(await settings(org).claimPolicy.get()).toEqual(defaults);
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/settings.claimPolicy.update',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json', 'if-match': '"1"' },
      payload: JSON.stringify({ escalation_working_days: 5, weekend_days: [7, 6] }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    const changed = { escalation_working_days: 5, escalation_max_hops: 2, weekend_days: [6, 7], sole_owner_exception: false, payout_tolerance_percent: '5', revision: 2 };
    expect(res.json().result.data).toEqual(changed);
    expect(await settings(org).claimPolicy.get()).toEqual(changed);
    const next = await settings(org, 2).claimPolicy.update({ weekend_days: null, sole_owner_exception: true, escalation_max_hops: 0 });
    expect(next).toEqual({ escalation_working_days: 5, escalation_max_hops: 0, weekend_days: null, sole_owner_exception: true, payout_tolerance_percent: '5', revision: 3 });
    const history = await historyOf(t, org.owner.session, 'claimPolicy', org.id);
    expect(history.map((h: { action: string; before: unknown; after: unknown }) => [h.action, h.before, h.after])).toEqual([
      ['update', defaults, changed],
      ['update', changed, next],
    ]);
    // Another organization still has the defaults.
    expect(await settings(await createTestOrganization(t.db)).claimPolicy.get()).toEqual(defaults);
  });

  it('refuses values out of range (422), wrong types and unknown fields (400), a stale (409) or missing (428) If-Match, a caller without the permission (403)', async () => {
    const org = await createTestOrganization(t.db);
    const update = settings(org, 1).claimPolicy.update;
    expectRefused(await refusal(update({ escalation_working_days: 0 })), 422, 'validation', '/escalation_working_days');
    expectRefused(await refusal(update({ escalation_working_days: 31 })), 422, 'validation', '/escalation_working_days');
    expectRefused(await refusal(update({ escalation_max_hops: -1 })), 422, 'validation', '/escalation_max_hops');
    expectRefused(await refusal(update({ escalation_max_hops: 11 })), 422, 'validation', '/escalation_max_hops');
    expectRefused(await refusal(update({ weekend_days: [] })), 422, 'validation', '/weekend_days');
    expectRefused(await refusal(update({ weekend_days: [5, 6, 7, 1] })), 422, 'validation', '/weekend_days');
    expectRefused(await refusal(update({ weekend_days: [6, 6] })), 422, 'validation', '/weekend_days');
    expectRefused(await refusal(update({ weekend_days: [0] })), 422, 'validation', '/weekend_days/0');
    expectRefused(await refusal(update({ weekend_days: [8] })), 422, 'validation', '/weekend_days/0');
    expectRefused(await refusal(loose(org.owner.session, 1).settings.claimPolicy.update({ escalation_working_days: '3' })), 400, 'invalid_request', '/escalation_working_days');
    expectRefused(await refusal(loose(org.owner.session, 1).settings.claimPolicy.update({ sole_owner_exception: 'true' })), 400, 'invalid_request', '/sole_owner_exception');
    expectRefused(await refusal(loose(org.owner.session, 1).settings.claimPolicy.update({ colour: 'red' })), 400, 'invalid_request', '/colour');
    expectRefused(await refusal(settings(org, 2).claimPolicy.update({ escalation_working_days: 4 })), 409, 'revision_mismatch', '/headers/if-match');
    expectRefused(await refusal(settings(org).claimPolicy.update({ escalation_working_days: 4 })), 428, 'revision_required', '/headers/if-match');
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    expectRefused(await refusal(clientOf(t, viewer.session, 1).settings.claimPolicy.update({ escalation_working_days: 4 })), 403, 'forbidden');
    const noKey = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: [] });
    expectRefused(await refusal(clientOf(t, noKey.apiKey).settings.claimPolicy.get()), 403, 'forbidden');
    // Nothing above was written: the defaults, at revision 1.
    expect((await settings(org).claimPolicy.get()).revision).toBe(1);
    expect((await settings(org, 1).claimPolicy.update({ escalation_working_days: 30 })).escalation_working_days).toBe(30);
  });
});

describe('settings.analyticAxes: required_on_claims', () => {
  it('is false by default, set on create and on update, and answered', async () => {
    const org = await createTestOrganization(t.db);
    const dept = await settings(org).analyticAxes.create({ code: 'DEPT', name: 'Departments' });
    expect(dept.required_on_claims).toBe(false);
    const prj = await settings(org).analyticAxes.create({ code: 'PRJ', name: 'Projects', required_on_claims: true });
    expect(prj.required_on_claims).toBe(true);
    const changed = await settings(org, dept.revision).analyticAxes.update({ id: dept.id, required_on_claims: true });
    expect(changed).toMatchObject({ required_on_claims: true, revision: 2 });
    expect((await settings(org).analyticAxes.list({})).items.map((a) => [a.code, a.required_on_claims])).toEqual([
      ['DEPT', true],
      ['PRJ', true],
    ]);
    expectRefused(await refusal(loose(org.owner.session, 2).settings.analyticAxes.update({ id: dept.id, required_on_claims: 'no' })), 400, 'invalid_request', '/required_on_claims');
  });
});

const statements = readFileSync(new URL('../../drizzle/0014_approval-grant-defaults.sql', import.meta.url), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter(Boolean);

describe('the approval grant defaults migration', () => {
  it('gives the two default grants to an organization without grants, with history; leaves one with grants alone; a second run adds nothing', async () => {
    const bare = await createTestOrganization(t.db);
    const kept = await createTestOrganization(t.db);
    // An organization from before the defaults: no grant at all.
    await t.db.execute(sql.raw(`delete from settings_history where organization_id = '${bare.id}' and entity = 'approvalGrants'`));
    await t.db.execute(sql.raw(`delete from approval_grants where organization_id = '${bare.id}'`));
    // One that set up its own: a single grant, renamed.
    const keptGrants = (await settings(kept).approvalGrants.list({})).items;
    await t.db.execute(sql.raw(`delete from approval_grants where organization_id = '${kept.id}' and id = '${keptGrants[1]!.id}'`));
    expect((await settings(bare).approvalGrants.list({})).items).toEqual([]);

    for (const s of statements) await t.db.execute(sql.raw(s));
    const grants = (await settings(bare).approvalGrants.list({})).items;
    expect(grants.map((g) => [g.name, g.kind, g.step, g.axis_id, g.max_levels, g.bands, g.active, g.revision])).toEqual([
      ['Line manager', 'superior', 'review', null, null, [], true, 1],
      ['Project approvers', 'account_approver', 'finance', null, null, [], true, 1],
    ]);
    for (const g of grants) {
      const history = await historyOf(t, bare.owner.session, 'approvalGrants', g.id);
      expect(history.map((h: { action: string; after: unknown }) => [h.action, h.after])).toEqual([['create', g]]);
    }
    expect((await settings(kept).approvalGrants.list({})).items.map((g) => g.id)).toEqual([keptGrants[0]!.id]);

    for (const s of statements) await t.db.execute(sql.raw(s));
    expect((await settings(bare).approvalGrants.list({ include_inactive: true })).items).toHaveLength(2);
    expect((await settings(kept).approvalGrants.list({ include_inactive: true })).items).toHaveLength(1);
  });
});
