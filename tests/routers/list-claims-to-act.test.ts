import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { listClaimSignoffs } from '../../src/db/queries/claims';
import { listClaims, type SignsOf } from '../../src/services/expenses/list-claims';
import { insertGrant, retireGrants } from '../factories/approvals';
import { insertDelegation, setClaimCreatedAt, setClaimRound, signSignoffRow, submitForSignoff } from '../factories/claim-access';
import { createClaimReferenceData } from '../factories/claims';
import { contextFor } from '../factories/context';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/**
 * scope=to_act's prefilter and paging, on the list service. Until the approval engine gives claim
 * descriptors their `signs`, the approve descriptor is stood in for by `signsOf` (one sign per
 * sign-off of the claim, none for claims titled "skip"), so what is left out here is left out by the
 * SQL prefilter or by an empty `signs`, and nothing else. The engine's end-to-end tests come with it.
 */
const t = useTestApp();
const NOW = new Date('2026-05-10T04:00:00Z');

const stubSigns: SignsOf = async (ctx, claim) => {
  if (claim.title.startsWith('skip')) return [];
  const rows = await listClaimSignoffs(ctx.db, { organizationId: ctx.principal.organizationId, claimId: claim.id });
  return rows.map((s) => ({ account_code: s.accountCode, account_name: s.accountName, amount: s.amount, analytic_account_id: s.analyticAccountId, axis_id: s.axisId, authority_member_id: ctx.principal.memberId, via: 'grant' as const }));
};

async function world() {
  const org = await createTestOrganization(t.db);
  const claimant = await createTestMember(t.db, org.id, { role: 'employee' });
  const signer = await createTestMember(t.db, org.id, { role: 'viewer' });
  const lender = await createTestMember(t.db, org.id, { role: 'viewer' });
  const expired = await createTestMember(t.db, org.id, { role: 'viewer' });
  const someone = await createTestMember(t.db, org.id, { role: 'viewer' });
  const ref = await createClaimReferenceData(t.db, org.id);
  const asClaimant = await contextFor(t.db, org.id, claimant.id, NOW);
  const { fileClaim } = await import('../../src/services/expenses/file-claim');
  let n = 0;
  /** A claim awaiting sign-off on Zeta (50.00) and Sales (30.00), each with `eligible`. */
  const awaiting = async (title: string, eligible: string[]) => {
    const filed = await fileClaim(asClaimant, { title });
    n += 1;
    await submitForSignoff(t.db, {
      organizationId: org.id,
      claimId: filed.claim.id,
      categoryId: ref.meals.id,
      amount: '80.00',
      shares: [
        { analyticAccountId: ref.zeta.id, percentage: `${(50 / 80) * 100}` },
        { analyticAccountId: ref.alpha.id, percentage: `${(30 / 80) * 100}` },
      ],
      eligible: () => eligible,
      now: NOW,
    });
    // Newest first in filing order, two with the same instant.
    await setClaimCreatedAt(t.db, { organizationId: org.id, claimId: filed.claim.id, createdAt: new Date(Date.UTC(2026, 3, 1, 0, n === 5 ? 4 : n)) });
    return filed.claim.id;
  };
  await insertDelegation(t.db, { organizationId: org.id, delegatorMemberId: lender.id, delegateMemberId: signer.id, validFrom: '2026-05-01', validTo: '2026-05-31' });
  await insertDelegation(t.db, { organizationId: org.id, delegatorMemberId: expired.id, delegateMemberId: signer.id, validFrom: '2026-04-01', validTo: '2026-05-09' });

  const expected: string[] = [];
  const excluded: string[] = [];
  const lenders: string[] = [];
  for (let i = 0; i < 26; i++) {
    const skip = i % 4 === 3;
    const id = await awaiting(skip ? `skip ${i}` : `Claim ${i}`, i % 3 === 0 ? [someone.id, lender.id] : [signer.id]);
    (skip ? excluded : expected).push(id);
    if (i % 3 === 0 && !skip) lenders.push(id);
  }
  // Signed, an earlier round's, another state's, nobody's, and an expired delegator's sign-offs.
  const signed = await awaiting('Signed', [signer.id]);
  for (const s of await listClaimSignoffs(t.db, { organizationId: org.id, claimId: signed })) {
    await signSignoffRow(t.db, { organizationId: org.id, signoffId: s.id, actorMemberId: signer.id, via: 'grant', now: NOW });
  }
  const oldRound = await awaiting('Returned and resubmitted', [signer.id]);
  await setClaimRound(t.db, { organizationId: org.id, claimId: oldRound, round: 2 });
  const otherState = await awaiting('Another step', [signer.id]);
  await queryRows(t.db, sql`update claim_signoffs set state = 'draft' where organization_id = ${org.id} and claim_id = ${otherState}`);
  const nobodys = await awaiting('Not yours', [someone.id]);
  const lapsed = await awaiting('Lapsed delegation', [expired.id]);
  excluded.push(signed, oldRound, otherState, nobodys, lapsed);
  const order = async (list: string[]) => {
    const rows = await queryRows<{ id: string }>(t.db, sql`select id from claims where organization_id = ${org.id} order by created_at desc, id desc`);
    return rows.map((r) => r.id).filter((id) => list.includes(id));
  };
  return { org, signer, lender, expected: await order(expected), lenders: await order(lenders), excluded, ctx: await contextFor(t.db, org.id, signer.id, NOW) };
}

describe('scope=to_act (the list service)', () => {
  it('keeps exactly the prefiltered claims whose approve descriptor signs something, in pages without duplicates', async () => {
    const w = await world();
    expect(w.expected).toHaveLength(20);
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    for (;;) {
      const page = await listClaims(w.ctx, { scope: 'to_act', limit: 7, ...(cursor ? { cursor } : {}) }, stubSigns);
      sizes.push(page.claims.length);
      seen.push(...page.claims.map((c) => c.id));
      // your_share: the sum of the signs, in the base currency.
      expect(page.claims.every((c) => c.your_share === '80.00')).toBe(true);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(sizes).toEqual([7, 7, 6]);
    expect(seen).toEqual(w.expected);
    for (const id of w.excluded) expect(seen).not.toContain(id);
  });

  it('pages stay full when most candidates are dropped, and the last page has no cursor', async () => {
    const w = await world();
    const keep = new Set(w.expected.filter((_, i) => i % 6 === 0));
    const sparse: SignsOf = async (ctx, claim) => (keep.has(claim.id) ? stubSigns(ctx, claim) : []);
    const first = await listClaims(w.ctx, { scope: 'to_act', limit: 2 }, sparse);
    expect(first.claims.map((c) => c.id)).toEqual([...keep].slice(0, 2));
    const second = await listClaims(w.ctx, { scope: 'to_act', limit: 2, cursor: first.next_cursor! }, sparse);
    expect(second.claims.map((c) => c.id)).toEqual([...keep].slice(2, 4));
    expect(second.next_cursor).toBeNull();
    // With the engine's own descriptor: every claim the caller may sign, each with your_share.
    // Authority is weighed at signing: the staged sign-offs name a stand-in grant, which signs
    // nothing today. A review grant held by the caller is what each of them falls back to.
    await retireGrants(t.db, w.org.id);
    await insertGrant(t.db, w.org.id, { kind: 'default', step: 'review', holderMemberId: w.signer.id });
    const engine = await listClaims(w.ctx, { scope: 'to_act', limit: 100 });
    // (The stand-in dropped the "skip" claims by title; the engine lists them: the caller may sign them.)
    const listed = engine.claims.map((c) => c.id);
    expect(listed).toHaveLength(26);
    expect(listed).toEqual(expect.arrayContaining(w.expected));
    for (const id of w.excluded.slice(-5)) expect(listed).not.toContain(id);
    expect(engine.claims.every((c) => c.your_share === c.total)).toBe(true);
    // The lender themselves is eligible in their own right on every third claim.
    const lender = await contextFor(t.db, w.org.id, w.lender.id, NOW);
    expect((await listClaims(lender, { scope: 'to_act', limit: 100 }, stubSigns)).claims.map((c) => c.id)).toEqual(w.lenders);
  });

  it('follows changes of who is eligible: a member added to a sign-off finds it, one removed no longer does, a signed one is nobody\'s', async () => {
    const w = await world();
    const newcomer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    const asNewcomer = await contextFor(t.db, w.org.id, newcomer.id, NOW);
    const ids = async (ctx: typeof w.ctx) => (await listClaims(ctx, { scope: 'to_act', limit: 100 }, stubSigns)).claims.map((c) => c.id);
    expect(await ids(asNewcomer)).toEqual([]);
    // An escalation hop (or a fallback after authority was withdrawn) rewrites `eligible`.
    const [first, second] = w.expected;
    await queryRows(t.db, sql`update claim_signoffs set eligible = array[${newcomer.id}::text] where organization_id = ${w.org.id} and claim_id = ${first!}`);
    await queryRows(t.db, sql`update claim_signoffs set eligible = eligible || ${newcomer.id}::text where organization_id = ${w.org.id} and claim_id = ${second!}`);
    expect(await ids(asNewcomer)).toEqual([first, second]);
    const signer = await ids(w.ctx);
    expect(signer).not.toContain(first);
    expect(signer).toContain(second);
    for (const s of await listClaimSignoffs(t.db, { organizationId: w.org.id, claimId: second! })) {
      await signSignoffRow(t.db, { organizationId: w.org.id, signoffId: s.id, actorMemberId: newcomer.id, via: 'grant', now: NOW });
    }
    expect(await ids(asNewcomer)).toEqual([first]);
    expect(await ids(w.ctx)).not.toContain(second);
  });
});
