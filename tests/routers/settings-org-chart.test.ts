import { afterEach, describe, expect, it } from 'vitest';
import { primaryUnitNameOn } from '../../src/services/people/org-chart';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';
import { clientOf, describeSharedRefusals, expectRefused, historyOf, readAllPages, refusal } from '../helpers/settings';

const t = useTestApp();
afterEach(() => t.setNow(undefined));

const code = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings;

async function unit(org: TestOrganization, input: { code?: string; name?: string; parent_id?: string | null } = {}) {
  return settings(org).orgUnits.create({ code: input.code ?? code('U'), name: input.name ?? 'Unit', parent_id: input.parent_id });
}

async function position(org: TestOrganization, orgUnitId: string, input: { title?: string; is_unit_head?: boolean; reports_to_position_id?: string | null } = {}) {
  return settings(org).positions.create({ org_unit_id: orgUnitId, title: input.title ?? 'Officer', ...input });
}

describeSharedRefusals(t, {
  path: 'settings.orgUnits',
  validCreate: async () => ({ code: code('U'), name: 'Sales Department' }),
  text: { key: 'name', max: 200 },
  wrongType: { key: 'code', value: 7 },
  validUpdate: { name: 'Sales and Marketing' },
});

describeSharedRefusals(t, {
  path: 'settings.positions',
  validCreate: async (_db, org) => ({ org_unit_id: (await unit(org)).id, title: 'Accounts clerk' }),
  text: { key: 'title', max: 200 },
  wrongType: { key: 'is_unit_head', value: 'yes' },
  validUpdate: { title: 'Senior accounts clerk' },
});

describeSharedRefusals(t, {
  path: 'settings.positionAssignments',
  validCreate: async (db, org) => {
    const member = await createTestMember(db, org.id, { role: 'employee' });
    const seat = await position(org, (await unit(org)).id);
    return { member_id: member.id, position_id: seat.id, valid_from: '2024-01-01' };
  },
  wrongType: { key: 'valid_from', value: 20240101 },
  validUpdate: { valid_to: '2099-12-31' },
});

describe('settings.orgUnits', () => {
  it('creates a unit over /trpc: 201, ETag of its revision, the record as answered; the head is its position flagged is_unit_head', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/settings.orgUnits.create',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ code: 'HQ', name: '  Head Office ' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.etag).toBe('"1"');
    const hq = res.json().result.data;
    expect(hq).toEqual({ id: expect.any(String), code: 'HQ', name: 'Head Office', parent_id: null, head_position_id: null, active: true, revision: 1, created_at: expect.any(String) });

    const sales = await unit(org, { code: 'SALES', name: 'Sales', parent_id: hq.id });
    expect(sales.parent_id).toBe(hq.id);
    const md = await position(org, hq.id, { title: 'Managing Director', is_unit_head: true });
    await position(org, hq.id, { title: 'Personal Assistant' });
    const page = await settings(org).orgUnits.list({});
    expect(page.items.map((u) => [u.code, u.head_position_id])).toEqual([
      ['HQ', md.id],
      ['SALES', null],
    ]);
    expect((await settings(org).orgUnits.list({ parent_id: hq.id })).items.map((u) => u.code)).toEqual(['SALES']);
  });

  it('a code in use is 409 conflict at /code, on create and on update; nothing is written', async () => {
    const org = await createTestOrganization(t.db);
    await unit(org, { code: 'FIN' });
    const ops = await unit(org, { code: 'OPS' });
    expectRefused(await refusal(unit(org, { code: 'FIN' })), 409, 'conflict', '/code');
    expectRefused(await refusal(settings(org, ops.revision).orgUnits.update({ id: ops.id, code: 'FIN' })), 409, 'conflict', '/code');
    const all = await settings(org).orgUnits.list({});
    expect(all.items.map((u) => [u.code, u.revision])).toEqual([
      ['FIN', 1],
      ['OPS', 1],
    ]);
  });

  it("a parent of another organization or an inactive one is 422 at /parent_id; another organization's same code is fine", async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const theirs = await unit(other, { code: 'HQ' });
    expectRefused(await refusal(unit(org, { parent_id: theirs.id })), 422, 'validation', '/parent_id');
    const closed = await unit(org, { code: 'CLOSED' });
    await settings(org, closed.revision).orgUnits.deactivate({ id: closed.id });
    expectRefused(await refusal(unit(org, { parent_id: closed.id })), 422, 'validation', '/parent_id');
    expect((await unit(org, { code: 'HQ' })).code).toBe('HQ');
  });

  it('refuses a cycle: a unit under itself or under one of its own sub-units is 422 at /parent_id', async () => {
    const org = await createTestOrganization(t.db);
    const a = await unit(org, { code: 'A' });
    const b = await unit(org, { code: 'B', parent_id: a.id });
    const c = await unit(org, { code: 'C', parent_id: b.id });
    const e1 = await refusal(settings(org, a.revision).orgUnits.update({ id: a.id, parent_id: c.id }));
    expectRefused(e1, 422, 'validation', '/parent_id');
    expect(e1.fieldErrors).toEqual([{ pointer: '/parent_id', detail: 'would put the unit under itself (a cycle)' }]);
    expectRefused(await refusal(settings(org, a.revision).orgUnits.update({ id: a.id, parent_id: a.id })), 422, 'validation', '/parent_id');
    // Moving a leaf elsewhere, or to the top, is fine.
    const moved = await settings(org, c.revision).orgUnits.update({ id: c.id, parent_id: a.id });
    expect(moved).toMatchObject({ parent_id: a.id, revision: 2 });
    const top = await settings(org, b.revision).orgUnits.update({ id: b.id, parent_id: null });
    expect(top.parent_id).toBeNull();
  });

  it('deactivates a unit once nothing hangs on it (409 while a sub-unit or position is active); lists it only with include_inactive', async () => {
    const org = await createTestOrganization(t.db);
    const parent = await unit(org, { code: 'P' });
    const child = await unit(org, { code: 'C', parent_id: parent.id });
    const seat = await position(org, parent.id);
    expectRefused(await refusal(settings(org, parent.revision).orgUnits.deactivate({ id: parent.id })), 409, 'conflict', '/id');
    await settings(org, child.revision).orgUnits.deactivate({ id: child.id });
    expectRefused(await refusal(settings(org, parent.revision).orgUnits.deactivate({ id: parent.id })), 409, 'conflict', '/id');
    await settings(org, seat.revision).positions.deactivate({ id: seat.id });
    const done = await settings(org, parent.revision).orgUnits.deactivate({ id: parent.id });
    expect(done).toMatchObject({ active: false, revision: 2 });
    expect((await settings(org).orgUnits.list({})).items).toEqual([]);
    expect((await settings(org).orgUnits.list({ include_inactive: true })).items.map((u) => [u.code, u.active])).toEqual([
      ['C', false],
      ['P', false],
    ]);
    // A deactivated unit takes no new position.
    expectRefused(await refusal(position(org, parent.id)), 422, 'validation', '/org_unit_id');
  });

  it('writes one settings-history entry per change, with the record before and after', async () => {
    const org = await createTestOrganization(t.db);
    const u = await unit(org, { code: 'H', name: 'Old name' });
    const renamed = await settings(org, u.revision).orgUnits.update({ id: u.id, name: 'New name' });
    await settings(org, renamed.revision).orgUnits.deactivate({ id: u.id });
    const history = await historyOf(t, org.owner.session, 'orgUnits', u.id);
    expect(history.map((h) => h.action)).toEqual(['create', 'update', 'deactivate']);
    expect(history[0]).toMatchObject({ before: null, after: { name: 'Old name', revision: 1 }, actor_member_id: org.owner.id, actor_via: 'session' });
    expect(history[1]).toMatchObject({ before: { name: 'Old name', revision: 1 }, after: { name: 'New name', revision: 2 } });
    expect(history[2]).toMatchObject({ before: { active: true }, after: { active: false, revision: 3 } });
  });

  it('pages by code without duplicates or gaps; a cursor sent with other filters is 422 at the cursor', async () => {
    const org = await createTestOrganization(t.db);
    const codes = ['E', 'B', 'G', 'A', 'F', 'C', 'D'];
    for (const c of codes) await unit(org, { code: c });
    const list = settings(org).orgUnits.list;
    const { pages, items } = await readAllPages(list as never, {}, 3);
    expect(pages).toBe(3);
    expect(items.map((u) => (u as unknown as { code: string }).code)).toEqual([...codes].sort());
    expect(new Set(items.map((u) => u.id)).size).toBe(codes.length);
    const first = await list({ limit: 3 });
    expectRefused(await refusal(list({ limit: 3, cursor: first.next_cursor!, include_inactive: true })), 422, 'validation', '/query/cursor');
    // Another list's cursor does not page this one.
    expectRefused(await refusal(settings(org).positions.list({ cursor: first.next_cursor! })), 422, 'validation');
  });
});

describe('settings.positions', () => {
  it('at most one head position per unit (409 at /is_unit_head); retiring the head frees the seat', async () => {
    const org = await createTestOrganization(t.db);
    const u = await unit(org);
    const head = await position(org, u.id, { title: 'Head', is_unit_head: true });
    expectRefused(await refusal(position(org, u.id, { title: 'Second head', is_unit_head: true })), 409, 'conflict', '/is_unit_head');
    const deputy = await position(org, u.id, { title: 'Deputy' });
    expectRefused(await refusal(settings(org, deputy.revision).positions.update({ id: deputy.id, is_unit_head: true })), 409, 'conflict', '/is_unit_head');
    // Changing the head's own title keeps it the head.
    const renamed = await settings(org, head.revision).positions.update({ id: head.id, title: 'Head of unit' });
    expect(renamed).toMatchObject({ title: 'Head of unit', is_unit_head: true, revision: 2 });
    await settings(org, renamed.revision).positions.deactivate({ id: head.id });
    const promoted = await settings(org, deputy.revision).positions.update({ id: deputy.id, is_unit_head: true });
    expect(promoted.is_unit_head).toBe(true);
    expect((await settings(org).orgUnits.list({})).items[0]!.head_position_id).toBe(deputy.id);
  });

  it('reports to a position that is not retired, never through the chain to itself (422 at /reports_to_position_id)', async () => {
    const org = await createTestOrganization(t.db);
    const u = await unit(org);
    const a = await position(org, u.id, { title: 'A' });
    const b = await position(org, u.id, { title: 'B', reports_to_position_id: a.id });
    const c = await position(org, u.id, { title: 'C', reports_to_position_id: b.id });
    expect(c.reports_to_position_id).toBe(b.id);
    expectRefused(await refusal(settings(org, a.revision).positions.update({ id: a.id, reports_to_position_id: c.id })), 422, 'validation', '/reports_to_position_id');
    expectRefused(await refusal(settings(org, a.revision).positions.update({ id: a.id, reports_to_position_id: a.id })), 422, 'validation', '/reports_to_position_id');
    const retired = await position(org, u.id, { title: 'Old' });
    await settings(org, retired.revision).positions.deactivate({ id: retired.id });
    expectRefused(await refusal(position(org, u.id, { reports_to_position_id: retired.id })), 422, 'validation', '/reports_to_position_id');
    const other = await createTestOrganization(t.db);
    const theirs = await position(other, (await unit(other)).id);
    const e = await refusal(settings(org).positions.create({ org_unit_id: (await unit(other)).id, title: 'X', reports_to_position_id: theirs.id }));
    expectRefused(e, 422, 'validation');
    // Both faults in one answer.
    expect(e.fieldErrors?.map((f) => f.pointer)).toEqual(['/org_unit_id', '/reports_to_position_id']);
  });

  it('retiring sets retired_at; a retired position is kept as it was (update 409) and listed only with include_inactive', async () => {
    const org = await createTestOrganization(t.db);
    const now = new Date('2026-03-02T03:04:05.000Z');
    t.setNow(now);
    const u = await unit(org);
    const p = await position(org, u.id, { title: 'Driver' });
    const retired = await settings(org, p.revision).positions.deactivate({ id: p.id });
    expect(retired).toMatchObject({ retired_at: now.toISOString(), revision: 2 });
    expectRefused(await refusal(settings(org, retired.revision).positions.update({ id: p.id, title: 'Chauffeur' })), 409, 'conflict', '/id');
    expect((await settings(org).positions.list({})).items).toEqual([]);
    expect((await settings(org).positions.list({ include_inactive: true, org_unit_id: u.id })).items).toEqual([retired]);
    const history = await historyOf(t, org.owner.session, 'positions', p.id);
    expect(history.map((h) => [h.action, h.after?.retired_at])).toEqual([
      ['create', null],
      ['deactivate', now.toISOString()],
    ]);
  });

  it('pages by title without duplicates, ties on the title included', async () => {
    const org = await createTestOrganization(t.db);
    const u = await unit(org);
    for (const title of ['Clerk', 'Clerk', 'Clerk', 'Analyst', 'Manager']) await position(org, u.id, { title });
    const { items } = await readAllPages(settings(org).positions.list as never, { org_unit_id: u.id }, 2);
    expect(items.map((p) => (p as unknown as { title: string }).title)).toEqual(['Analyst', 'Clerk', 'Clerk', 'Clerk', 'Manager']);
    expect(new Set(items.map((p) => p.id)).size).toBe(5);
  });
});

describe('settings.positionAssignments', () => {
  async function chart(org: TestOrganization) {
    const sales = await unit(org, { code: code('SALES'), name: 'Sales' });
    const finance = await unit(org, { code: code('FIN'), name: 'Finance' });
    const exec = await position(org, sales.id, { title: 'Sales executive' });
    const analyst = await position(org, finance.id, { title: 'Finance analyst' });
    const member = await createTestMember(t.db, org.id, { role: 'employee' });
    return { sales, finance, exec, analyst, member };
  }

  it("a new primary assignment ends the member's open primary one the day before it starts, recorded as an 'end'", async () => {
    const org = await createTestOrganization(t.db);
    const { exec, analyst, member } = await chart(org);
    const first = await settings(org).positionAssignments.create({ member_id: member.id, position_id: exec.id, valid_from: '2024-01-01' });
    expect(first).toMatchObject({ is_primary: true, valid_from: '2024-01-01', valid_to: null, withdrawn_at: null, revision: 1 });
    const second = await settings(org).positionAssignments.create({ member_id: member.id, position_id: analyst.id, valid_from: '2025-03-01' });
    expect(second).toMatchObject({ valid_from: '2025-03-01', valid_to: null });
    const all = await settings(org).positionAssignments.list({ member_id: member.id, include_inactive: true });
    expect(all.items.map((a) => [a.position_id, a.valid_from, a.valid_to, a.revision])).toEqual([
      [exec.id, '2024-01-01', '2025-02-28', 2],
      [analyst.id, '2025-03-01', null, 1],
    ]);
    const q = { organizationId: org.id, memberId: member.id };
    expect(await primaryUnitNameOn(t.db, { ...q, day: '2025-02-28' })).toBe('Sales');
    expect(await primaryUnitNameOn(t.db, { ...q, day: '2025-03-01' })).toBe('Finance');
    const history = await historyOf(t, org.owner.session, 'positionAssignments', first.id);
    expect(history.map((h) => [h.action, h.before?.valid_to, h.after?.valid_to])).toEqual([
      ['create', undefined, null],
      ['end', null, '2025-02-28'],
    ]);
  });

  it('overlapping explicit primary periods are 409 conflict, on create and on update, and nothing is written', async () => {
    const org = await createTestOrganization(t.db);
    const { exec, analyst, member } = await chart(org);
    const a = settings(org).positionAssignments;
    const year = await a.create({ member_id: member.id, position_id: exec.id, valid_from: '2024-01-01', valid_to: '2024-12-31' });
    expectRefused(await refusal(a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2024-06-01' })), 409, 'conflict', '/valid_from');
    expectRefused(await refusal(a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2023-06-01', valid_to: '2024-01-01' })), 409, 'conflict');
    // An open primary one that starts later than the new one is not ended for it.
    await a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2026-01-01' });
    expectRefused(await refusal(a.create({ member_id: member.id, position_id: exec.id, valid_from: '2025-06-01' })), 409, 'conflict');
    // Adjacent periods are fine; moving one into the other is refused.
    const next = await a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2025-01-01', valid_to: '2025-12-31' });
    expectRefused(await refusal(settings(org, next.revision).positionAssignments.update({ id: next.id, valid_from: '2024-12-31' })), 409, 'conflict');
    expectRefused(await refusal(settings(org, year.revision).positionAssignments.update({ id: year.id, valid_to: null })), 409, 'conflict');
    const rows = await a.list({ member_id: member.id, include_inactive: true });
    expect(rows.items.map((x) => [x.valid_from, x.valid_to, x.revision])).toEqual([
      ['2024-01-01', '2024-12-31', 1],
      ['2025-01-01', '2025-12-31', 1],
      ['2026-01-01', null, 1],
    ]);
  });

  it('a secondary assignment ends nothing and may overlap the primary; the same secondary twice is 409', async () => {
    const org = await createTestOrganization(t.db);
    const { exec, analyst, member } = await chart(org);
    const a = settings(org).positionAssignments;
    await a.create({ member_id: member.id, position_id: exec.id, valid_from: '2024-01-01' });
    const extra = await a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2024-02-01', is_primary: false });
    expect(extra.is_primary).toBe(false);
    expectRefused(await refusal(a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2025-01-01', is_primary: false })), 409, 'conflict');
    const rows = await a.list({ member_id: member.id });
    expect(rows.items.map((x) => [x.is_primary, x.valid_to])).toEqual([
      [true, null],
      [false, null],
    ]);
  });

  it('the member and the position are of this organization (422); a retired position or an inactive member takes no new assignment (422)', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const { exec, member } = await chart(org);
    const theirs = await chart(other);
    const a = settings(org).positionAssignments;
    const e1 = await refusal(a.create({ member_id: theirs.member.id, position_id: theirs.exec.id, valid_from: '2024-01-01' }));
    expectRefused(e1, 422, 'validation');
    expect(e1.fieldErrors).toEqual([
      { pointer: '/member_id', detail: 'is not a member of this organization' },
      { pointer: '/position_id', detail: 'is not a position of this organization' },
    ]);
    await settings(org, exec.revision).positions.deactivate({ id: exec.id });
    const e2 = await refusal(a.create({ member_id: member.id, position_id: exec.id, valid_from: '2024-01-01' }));
    expect(e2.fieldErrors).toEqual([{ pointer: '/position_id', detail: 'names a retired position, which takes no new assignment' }]);
    const gone = await createTestMember(t.db, org.id, { role: 'employee', active: false });
    const seat = await position(org, (await unit(org)).id);
    expectRefused(await refusal(a.create({ member_id: gone.id, position_id: seat.id, valid_from: '2024-01-01' })), 422, 'validation', '/member_id');
    expectRefused(await refusal(a.create({ member_id: member.id, position_id: seat.id, valid_from: '2024-05-01', valid_to: '2024-04-30' })), 422, 'validation', '/valid_to');
    expectRefused(await refusal(a.create({ member_id: member.id, position_id: seat.id, valid_from: '2024-02-30' })), 400, 'invalid_request', '/valid_from');
    expect((await a.list({ include_inactive: true })).items).toEqual([]);
  });

  it("deactivating ends an assignment on the organization's today, withdraws one not begun yet, and refuses one already ended (409)", async () => {
    const org = await createTestOrganization(t.db);
    t.setNow(new Date('2026-05-10T03:00:00Z'));
    const { exec, analyst, member } = await chart(org);
    const a = settings(org).positionAssignments;
    const current = await a.create({ member_id: member.id, position_id: exec.id, valid_from: '2024-01-01', valid_to: '2026-12-31' });
    const ended = await settings(org, current.revision).positionAssignments.deactivate({ id: current.id });
    expect(ended).toMatchObject({ valid_to: '2026-05-10', withdrawn_at: null, revision: 2 });
    expectRefused(await refusal(settings(org, ended.revision).positionAssignments.deactivate({ id: current.id })), 409, 'conflict', '/id');

    const future = await a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2026-07-01' });
    const withdrawn = await settings(org, future.revision).positionAssignments.deactivate({ id: future.id });
    expect(withdrawn).toMatchObject({ valid_from: '2026-07-01', valid_to: null, withdrawn_at: '2026-05-10T03:00:00.000Z' });
    expect(await primaryUnitNameOn(t.db, { organizationId: org.id, memberId: member.id, day: '2026-08-01' })).toBeNull();
    expectRefused(await refusal(settings(org, withdrawn.revision).positionAssignments.update({ id: future.id, valid_to: '2026-12-31' })), 409, 'conflict');
    // A withdrawn period blocks nothing.
    await a.create({ member_id: member.id, position_id: analyst.id, valid_from: '2026-07-01' });

    expect((await a.list({ member_id: member.id })).items.map((x) => x.valid_from)).toEqual(['2024-01-01', '2026-07-01']);
    expect((await a.list({ member_id: member.id, include_inactive: true })).items).toHaveLength(3);
  });

  it('pages by start day without duplicates; history has one entry per change', async () => {
    const org = await createTestOrganization(t.db);
    const { exec } = await chart(org);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = await createTestMember(t.db, org.id, { role: 'employee' });
      ids.push((await settings(org).positionAssignments.create({ member_id: m.id, position_id: exec.id, valid_from: '2024-01-01' })).id);
    }
    const { items } = await readAllPages(settings(org).positionAssignments.list as never, { position_id: exec.id }, 2);
    expect(items.map((x) => x.id).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await historyOf(t, org.owner.session, 'positionAssignments', id)).map((h) => h.action)).toEqual(['create']);
  });
});

describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
  it('two overlapping primary assignments of one member racing: one is written, the other is 409 (never both)', async () => {
    const org = await createTestOrganization(t.db);
    const u = await unit(org);
    const [p1, p2] = [await position(org, u.id, { title: 'One' }), await position(org, u.id, { title: 'Two' })];
    for (let round = 0; round < 3; round++) {
      const member = await createTestMember(t.db, org.id, { role: 'employee' });
      const answers = await Promise.allSettled([
        settings(org).positionAssignments.create({ member_id: member.id, position_id: p1.id, valid_from: '2024-01-01', valid_to: '2024-12-31' }),
        settings(org).positionAssignments.create({ member_id: member.id, position_id: p2.id, valid_from: '2024-06-01', valid_to: '2025-06-30' }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failed = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult;
      expectRefused(failed.reason, 409, 'conflict');
      expect((await settings(org).positionAssignments.list({ member_id: member.id, include_inactive: true })).items).toHaveLength(1);
    }
  });

  it('two moves that together would close a cycle: one applies, the other is 422 at /parent_id', async () => {
    const org = await createTestOrganization(t.db);
    for (let round = 0; round < 3; round++) {
      const a = await unit(org);
      const b = await unit(org);
      const answers = await Promise.allSettled([
        settings(org, a.revision).orgUnits.update({ id: a.id, parent_id: b.id }),
        settings(org, b.revision).orgUnits.update({ id: b.id, parent_id: a.id }),
      ]);
      expect(answers.map((x) => x.status).sort()).toEqual(['fulfilled', 'rejected']);
      expectRefused((answers.find((x) => x.status === 'rejected') as PromiseRejectedResult).reason, 422, 'validation', '/parent_id');
    }
  });
});
