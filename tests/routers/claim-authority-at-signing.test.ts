/**
 * Authority is weighed at signing as well as at opening (docs/design.md §17): an approver whose
 * approver assignment ended or was deactivated, or whose superior position they left, no longer
 * signs a sign-off opened before, and is no longer shown approve (available_transitions, to_act and
 * your_share agree with the act). Another approver still in force completes it; a sign-off left with
 * nobody falls back the way opening does (the grant's fallback).
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { approverAssignments, claimSignoffs, delegations, positionAssignments } from '../../src/db/schema';
import { refreshOpenSignoffs } from '../../src/services/workflow/approvals/claim-step';
import { refreshSignoffsOnPassingDates } from '../../src/services/workflow/approvals/dated-refresh';
import { contextFor } from '../factories/context';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData, createTestPayoutChannel } from '../factories/claims';
import { decide, insertAssignment, insertDelegation, insertGrant, readClaim, retireGrants } from '../factories/approvals';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { callerFor, expectRefused, refusal } from '../helpers/settings';
import { todayIn } from '../../src/lib/dates';

const t = useTestApp();

/** The organization's day `offset` days from today (Asia/Kuala_Lumpur, the default time zone). */
const day = (offset: number) => todayIn('Asia/Kuala_Lumpur', new Date(Date.now() + offset * 86_400_000));

async function world() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const member = (role: 'employee' | 'accountant' = 'employee') => createTestMember(t.db, org.id, { role });
  const [employee, head, deputyHead, pm1, pm2, controller, assistant] = [await member(), await member(), await member(), await member(), await member(), await member('accountant'), await member()];
  const division = await createOrgUnit(t.db, { organizationId: org.id, code: 'DIV', name: 'Engineering Division' });
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT-A', name: 'Structures', parentId: division.id });
  const divHeadPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: division.id, title: 'Head of Division', isUnitHead: true });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head of Structures', isUnitHead: true });
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: deputyHead.id, positionId: divHeadPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });

  await retireGrants(t.db, org.id);
  const fc = await insertGrant(t.db, org.id, { name: 'Finance controller', kind: 'default', step: 'finance', holderMemberId: controller.id });
  await insertGrant(t.db, org.id, { name: 'Line manager', kind: 'superior', step: 'review', maxLevels: 1 });
  const projectApprovers = await insertGrant(t.db, org.id, { name: 'Project approvers', kind: 'account_approver', step: 'finance', fallbackGrantId: fc.id });
  const a1 = await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm1.id });
  const a2 = await insertAssignment(t.db, org.id, { analyticAccountId: ref.alpha.id, memberId: pm2.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  const claim = await fileTestClaim(t, employee, { title: 'Site visits', payout_channel_id: channel.id });
  const now = new Date();
  await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-10', categoryId: ref.meals.id, description: 'Lunch', amount: '300.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Stall', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
  await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-11', categoryId: ref.travel.id, description: 'Taxi', amount: '200.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Driver', shares: [{ analyticAccountId: ref.alpha.id, percentage: '100' }] });
  await decide(t, employee.session, claim.id, 'submit');
  return { org, ref, employee, head, deputyHead, pm1, pm2, controller, assistant, fc, projectApprovers, a1, a2, claim, headPos, channel };
}

const approveOf = (answer: any) => answer.available_transitions.find((d: any) => d.action_key === 'approve');
const toAct = async (session: string) => (await callerFor(t, session).expenses.claims.list({ scope: 'to_act' })).claims.map((c: any) => [c.id, c.your_share]);

describe('authority withdrawn after a sign-off opened', () => {
  it('an approver assignment that ended: not offered, signing refused (403), a delegate of it refused too; another approver in force completes the share', async () => {
    const w = await world();
    await decide(t, w.head.session, w.claim.id, 'approve');
    // A second approver on Alpha, assigned after finance opened; pm2 lends their authority to an assistant.
    const second = await insertAssignment(t.db, w.org.id, { analyticAccountId: w.ref.alpha.id, memberId: w.pm1.id });
    await callerFor(t, w.org.owner.session, 1).settings.approverAssignments.update({ id: second.id, max_amount: '5000.00' });
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.pm2.id, delegateMemberId: w.assistant.id, validFrom: day(-5), validTo: day(5) });
    expect(approveOf(await readClaim(t, w.pm2.session, w.claim.id))).toMatchObject({ allowed: true, signs: [{ account_code: 'P-ALPHA', amount: '200.00' }] });
    expect(await toAct(w.pm2.session)).toEqual([[w.claim.id, '200.00']]);

    // pm2's assignment ends yesterday (a dated end passes; no set-up call runs).
    await t.db.update(approverAssignments).set({ validTo: day(-1) }).where(and(eq(approverAssignments.organizationId, w.org.id), eq(approverAssignments.id, w.a2.id)));
    const asPm2 = await readClaim(t, w.pm2.session, w.claim.id);
    expect(approveOf(asPm2)).toMatchObject({ allowed: false });
    expect(approveOf(asPm2).signs).toBeUndefined();
    expect(asPm2.signoffs.find((s: any) => s.account_code === 'P-ALPHA').eligible).not.toContain(w.pm2.id);
    expect(await toAct(w.pm2.session)).toEqual([]);
    expectRefused(await refusal(decide(t, w.pm2.session, w.claim.id, 'approve')), 403, 'forbidden');
    expect(approveOf(await readClaim(t, w.assistant.session, w.claim.id))).toMatchObject({ allowed: false });
    expectRefused(await refusal(decide(t, w.assistant.session, w.claim.id, 'approve')), 403, 'forbidden');

    // pm1 holds Alpha (the second assignment) and Zeta: signs both and the claim is approved.
    expect(approveOf(await readClaim(t, w.pm1.session, w.claim.id)).signs.map((s: any) => [s.account_code, s.amount])).toEqual([
      ['P-ALPHA', '200.00'],
      ['P-ZETA', '300.00'],
    ]);
    const approved = await decide(t, w.pm1.session, w.claim.id, 'approve');
    expect(approved.claim.state).toBe('approved');
  });

  it('an approver assignment deactivated with nobody left on the account: the share falls back to the grant’s fallback, who signs it', async () => {
    const w = await world();
    await decide(t, w.head.session, w.claim.id, 'approve');
    await callerFor(t, w.org.owner.session, w.a2.revision).settings.approverAssignments.deactivate({ id: w.a2.id });
    expect(approveOf(await readClaim(t, w.pm2.session, w.claim.id))).toMatchObject({ allowed: false });
    expectRefused(await refusal(decide(t, w.pm2.session, w.claim.id, 'approve')), 403, 'forbidden');

    // The controller (the fallback grant's holder) now holds Alpha's share, as opening would have given it.
    const asController = await readClaim(t, w.controller.session, w.claim.id);
    expect(asController.signoffs.find((s: any) => s.account_code === 'P-ALPHA').eligible).toEqual([w.controller.id]);
    expect(approveOf(asController)).toMatchObject({ allowed: true, signs: [{ account_code: 'P-ALPHA', amount: '200.00' }] });
    expect(await toAct(w.controller.session)).toEqual([[w.claim.id, '200.00']]);
    const afterController = await decide(t, w.controller.session, w.claim.id, 'approve');
    expect(afterController.claim.state).toBe('finance');
    expect(afterController.decisions.at(-1)).toMatchObject({ via: 'escalation', actor_member_id: w.controller.id });
    expect((await decide(t, w.pm1.session, w.claim.id, 'approve')).claim.state).toBe('approved');
  });

  it('a band that stops covering: on one page, two claims of one claimant on one account are judged each by its own amount', async () => {
    const w = await world();
    const large = await fileTestClaim(t, w.employee, { title: 'Conference', payout_channel_id: w.channel.id });
    await addClaimLine(t.db, { organizationId: w.org.id, claimId: large.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-12', categoryId: w.ref.meals.id, description: 'Hall', amount: '3000.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Venue', shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '100' }] });
    await decide(t, w.employee.session, large.id, 'submit');
    for (const id of [w.claim.id, large.id]) await decide(t, w.head.session, id, 'approve');
    // Newest first: both Zeta shares are pm1's while the assignment has no band.
    expect(await toAct(w.pm1.session)).toEqual([
      [large.id, '3000.00'],
      [w.claim.id, '300.00'],
    ]);

    // pm1's band on Zeta becomes 0 to 1,000: the 300.00 share stays theirs, the 3,000.00 one falls back to the controller.
    await callerFor(t, w.org.owner.session, w.a1.revision).settings.approverAssignments.update({ id: w.a1.id, max_amount: '1000.00' });
    expect(await toAct(w.pm1.session)).toEqual([[w.claim.id, '300.00']]);
    expect(approveOf(await readClaim(t, w.pm1.session, large.id))).toMatchObject({ allowed: false });
    expectRefused(await refusal(decide(t, w.pm1.session, large.id, 'approve')), 403, 'forbidden');
    expect(await toAct(w.controller.session)).toEqual([[large.id, '3000.00']]);
    expect((await decide(t, w.controller.session, large.id, 'approve')).claim.state).toBe('approved');
  });

  it('the refresh after a change walks every open sign-off a page at a time: each share left with nobody falls back, the others stay', async () => {
    const w = await world();
    const ids = [w.claim.id];
    for (let i = 1; i <= 4; i++) {
      const more = await fileTestClaim(t, w.employee, { title: `Visit ${i}`, payout_channel_id: w.channel.id });
      await addClaimLine(t.db, { organizationId: w.org.id, claimId: more.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-12', categoryId: w.ref.meals.id, description: 'Lunch', amount: `${i}0.00`, documentBasis: 'relaxation_receipt', relaxationReason: 'Stall', shares: [{ analyticAccountId: w.ref.alpha.id, percentage: '40' }, { analyticAccountId: w.ref.zeta.id, percentage: '60' }] });
      await decide(t, w.employee.session, more.id, 'submit');
      ids.push(more.id);
    }
    for (const id of ids) await decide(t, w.head.session, id, 'approve');
    // pm2's assignment on Alpha ends yesterday (no set-up call runs); the refresh then walks the ten open sign-offs two at a time.
    await t.db.update(approverAssignments).set({ validTo: day(-1) }).where(and(eq(approverAssignments.organizationId, w.org.id), eq(approverAssignments.id, w.a2.id)));
    await refreshOpenSignoffs(await contextFor(t.db, w.org.id, w.org.owner.id), { pageSize: 2 });
    const open = await t.db.select().from(claimSignoffs).where(and(eq(claimSignoffs.organizationId, w.org.id), eq(claimSignoffs.state, 'finance')));
    expect(open).toHaveLength(10);
    for (const s of open) expect([s.accountCode, s.eligible]).toEqual(s.accountCode === 'P-ALPHA' ? ['P-ALPHA', [w.pm2.id, w.controller.id]] : ['P-ZETA', [w.pm1.id]]);
    // The controller finds every claim under to_act with its Alpha share, newest first.
    expect(await toAct(w.controller.session)).toEqual([
      [ids[4], '16.00'],
      [ids[3], '12.00'],
      [ids[2], '8.00'],
      [ids[1], '4.00'],
      [ids[0], '200.00'],
    ]);
  });

  it('a dated end passing with no set-up write: the calendar\'s pass adds the fallback to eligible as of the organization\'s day, once', async () => {
    const w = await world();
    await decide(t, w.head.session, w.claim.id, 'approve');
    // Finance's sign-off on Alpha (review's, signed, is on Alpha too).
    const alpha = async () =>
      (await t.db.select().from(claimSignoffs).where(and(eq(claimSignoffs.organizationId, w.org.id), eq(claimSignoffs.claimId, w.claim.id), eq(claimSignoffs.state, 'finance'), eq(claimSignoffs.accountCode, 'P-ALPHA'))))[0]!.eligible;
    const passAt = async (offsetDays: number) =>
      (await refreshSignoffsOnPassingDates(t.db, new Date(Date.now() + offsetDays * 86_400_000), 100_000)).refreshed.filter((r) => r.organization_id === w.org.id);
    // pm2 approves Alpha until yesterday. Yesterday's pass (the organization's first) found pm2 in force: nothing to add.
    await t.db.update(approverAssignments).set({ validTo: day(-1) }).where(and(eq(approverAssignments.organizationId, w.org.id), eq(approverAssignments.id, w.a2.id)));
    expect(await passAt(-1)).toEqual([{ organization_id: w.org.id, day: day(-1) }]);
    expect(await alpha()).toEqual([w.pm2.id]);
    // Today pm2 no longer signs; until the calendar's pass, the fallback cannot see the claim under to_act.
    expect(await toAct(w.pm2.session)).toEqual([]);
    expect(await toAct(w.controller.session)).toEqual([]);
    expect(await passAt(0)).toEqual([{ organization_id: w.org.id, day: day(0) }]);
    expect(await alpha()).toEqual([w.pm2.id, w.controller.id]);
    expect(await toAct(w.controller.session)).toEqual([[w.claim.id, '200.00']]);
    expect(approveOf(await readClaim(t, w.controller.session, w.claim.id))).toMatchObject({ allowed: true, signs: [{ account_code: 'P-ALPHA', amount: '200.00' }] });
    // Refreshed as of today: the same day's pass and tomorrow's (nothing starts or ends) leave the organization alone.
    expect(await passAt(0)).toEqual([]);
    expect(await passAt(1)).toEqual([]);
    expect(await alpha()).toEqual([w.pm2.id, w.controller.id]);
  });

  it("an approver assignment's write refreshes the sign-offs on its own account only; the calendar's pass the rest", async () => {
    const w = await world();
    await decide(t, w.head.session, w.claim.id, 'approve');
    const eligibleOn = async (code: string) =>
      (await t.db.select().from(claimSignoffs).where(and(eq(claimSignoffs.organizationId, w.org.id), eq(claimSignoffs.claimId, w.claim.id), eq(claimSignoffs.state, 'finance'), eq(claimSignoffs.accountCode, code))))[0]!.eligible;
    // Both approvers' assignments ended yesterday, with no write (a passing date).
    for (const a of [w.a1, w.a2]) await t.db.update(approverAssignments).set({ validTo: day(-1) }).where(and(eq(approverAssignments.organizationId, w.org.id), eq(approverAssignments.id, a.id)));
    // An approver assigned to Alpha from today: Alpha's sign-off gets them; Zeta's is not walked.
    await callerFor(t, w.org.owner.session).settings.approverAssignments.create({ analytic_account_id: w.ref.alpha.id, member_id: w.assistant.id, valid_from: day(0) });
    expect(await eligibleOn('P-ALPHA')).toEqual([w.pm2.id, w.assistant.id]);
    expect(await eligibleOn('P-ZETA')).toEqual([w.pm1.id]);
    expect(await toAct(w.assistant.session)).toEqual([[w.claim.id, '200.00']]);
    expect((await refreshSignoffsOnPassingDates(t.db, new Date(), 100_000)).refreshed.map((r) => r.organization_id)).toContain(w.org.id);
    expect(await eligibleOn('P-ZETA')).toEqual([w.pm1.id, w.controller.id]);
    expect(await toAct(w.controller.session)).toEqual([[w.claim.id, '300.00']]);
  });

  it('a position held until yesterday makes the organization due for the calendar\'s pass; a withdrawn one does not', async () => {
    const w = await world();
    const passAt = async (offsetDays: number) =>
      (await refreshSignoffsOnPassingDates(t.db, new Date(Date.now() + offsetDays * 86_400_000), 100_000)).refreshed.filter((r) => r.organization_id === w.org.id).map((r) => r.day);
    const headHeld = and(eq(positionAssignments.organizationId, w.org.id), eq(positionAssignments.memberId, w.head.id));
    await t.db.update(positionAssignments).set({ validTo: day(-1), withdrawnAt: new Date() }).where(headHeld);
    expect(await passAt(-1)).toEqual([day(-1)]);
    expect(await passAt(0)).toEqual([]);
    await t.db.update(positionAssignments).set({ withdrawnAt: null }).where(headHeld);
    expect(await passAt(0)).toEqual([day(0)]);
  });

  it('a superior who left their position no longer signs review; the position\'s new holder does', async () => {
    const w = await world();
    expect(approveOf(await readClaim(t, w.head.session, w.claim.id))).toMatchObject({ allowed: true });
    expect(await toAct(w.head.session)).toEqual([[w.claim.id, '500.00']]);
    // The head's assignment ended yesterday (a dated end passes); the assistant holds the position from today.
    await t.db
      .update(positionAssignments)
      .set({ validTo: day(-1) })
      .where(and(eq(positionAssignments.organizationId, w.org.id), eq(positionAssignments.memberId, w.head.id)));
    expect(approveOf(await readClaim(t, w.head.session, w.claim.id))).toMatchObject({ allowed: false });
    expect(await toAct(w.head.session)).toEqual([]);
    expectRefused(await refusal(decide(t, w.head.session, w.claim.id, 'approve')), 403, 'forbidden');
    expect(await toAct(w.assistant.session)).toEqual([]);
    await callerFor(t, w.org.owner.session).settings.positionAssignments.create({ member_id: w.assistant.id, position_id: w.headPos.id, valid_from: day(0) });
    // Nobody stored is in force: the step falls back as opening would today, to the position's new holder.
    const asAssistant = await readClaim(t, w.assistant.session, w.claim.id);
    expect(approveOf(asAssistant)).toMatchObject({ allowed: true, signs: [{ account_code: 'P-ALPHA', amount: '200.00' }, { account_code: 'P-ZETA', amount: '300.00' }] });
    expect(await toAct(w.assistant.session)).toEqual([[w.claim.id, '500.00']]);
    expect((await decide(t, w.assistant.session, w.claim.id, 'approve')).claim.state).toBe('finance');
  });
});

describe('the set-up to_act judges by (cached per process under the organization\'s epoch)', () => {
  it('a grant deactivated after to_act was read: the next to_act follows it at once and agrees with each claim answer', async () => {
    const w = await world();
    await decide(t, w.head.session, w.claim.id, 'approve');
    // Read twice: the second is answered from the process's cache of the set-up.
    expect(await toAct(w.pm2.session)).toEqual([[w.claim.id, '200.00']]);
    expect(await toAct(w.pm2.session)).toEqual([[w.claim.id, '200.00']]);
    expect(await toAct(w.controller.session)).toEqual([]);

    await callerFor(t, w.org.owner.session, w.projectApprovers.revision).settings.approvalGrants.deactivate({ id: w.projectApprovers.id });
    // The project approvers no longer sign, and to_act says so for each member as their claim answer does.
    expect(approveOf(await readClaim(t, w.pm2.session, w.claim.id))).toMatchObject({ allowed: false });
    expect(approveOf(await readClaim(t, w.pm1.session, w.claim.id))).toMatchObject({ allowed: false });
    expect(await toAct(w.pm2.session)).toEqual([]);
    expect(await toAct(w.pm1.session)).toEqual([]);
    const asController = approveOf(await readClaim(t, w.controller.session, w.claim.id));
    expect(await toAct(w.controller.session)).toEqual(asController.allowed ? [[w.claim.id, '500.00']] : []);
  });

  it('a delegation made after to_act was read: the delegate finds the claim at once; ended, it is gone again', async () => {
    const w = await world();
    await decide(t, w.head.session, w.claim.id, 'approve');
    expect(await toAct(w.assistant.session)).toEqual([]);
    // pm2's own list judges the claim: the organization's delegations of today are read (and kept).
    expect(await toAct(w.pm2.session)).toEqual([[w.claim.id, '200.00']]);
    const lent = await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.pm2.id, delegateMemberId: w.assistant.id, validFrom: day(-1), validTo: day(3) });
    expect(approveOf(await readClaim(t, w.assistant.session, w.claim.id))).toMatchObject({ allowed: true, signs: [{ account_code: 'P-ALPHA', amount: '200.00' }] });
    expect(await toAct(w.assistant.session)).toEqual([[w.claim.id, '200.00']]);
    await t.db.update(delegations).set({ validTo: day(-1) }).where(and(eq(delegations.organizationId, w.org.id), eq(delegations.id, lent.id)));
    // Nothing lent any more: the claim is neither the assistant's to act on nor to read.
    expect(await toAct(w.assistant.session)).toEqual([]);
    expectRefused(await refusal(readClaim(t, w.assistant.session, w.claim.id)), 404, 'not_found');
  });
});
