import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPENSE_CLAIM_WORKFLOW, DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW } from '../../src/services/workflow/defaults';
import { availableTransitions } from '../../src/services/workflow/transitions';

const preparer = 'p-1';
const other = 'm-2';
const issuer = new Set(['receivables.invoice.issue']);

describe('availableTransitions', () => {
  const draft = { state: 'draft', reporterMemberId: preparer };

  it('the preparer of a draft in an organization of several members: issue refused as self_approval, discard allowed', () => {
    const t = availableTransitions(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW, draft, { memberId: preparer, permissions: issuer, isSoleActiveMember: false });
    expect(t.map((x) => [x.action_key, x.allowed])).toEqual([
      ['issue', false],
      ['discard', true],
    ]);
    expect(t[0]!.refusal?.code).toBe('self_approval');
    expect(t[0]!.requires_reason).toBe(false);
  });

  it('the sole active member: issue allowed as the sole-owner exception, with a reason required', () => {
    const [issue] = availableTransitions(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW, draft, { memberId: preparer, permissions: issuer, isSoleActiveMember: true });
    expect(issue).toMatchObject({ action_key: 'issue', allowed: true, requires_reason: true, sole_owner_exception: true });
  });

  it('another member with authority may issue; without it may not; only the reporter may discard', () => {
    const withAuthority = availableTransitions(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW, draft, { memberId: other, permissions: issuer, isSoleActiveMember: false });
    expect(withAuthority[0]).toMatchObject({ action_key: 'issue', allowed: true, requires_reason: false });
    expect(withAuthority[1]).toMatchObject({ action_key: 'discard', allowed: false, refusal: { code: 'not_reporter' } });
    const without = availableTransitions(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW, draft, { memberId: other, permissions: new Set(), isSoleActiveMember: false });
    expect(without[0]).toMatchObject({ action_key: 'issue', allowed: false });
  });

  it('a claim in draft: submit and cancel for the claimant; approve follows what the engine lets the actor sign', () => {
    const claimant = availableTransitions(DEFAULT_EXPENSE_CLAIM_WORKFLOW, draft, { memberId: preparer, permissions: new Set(), isSoleActiveMember: false });
    expect(claimant.map((x) => `${x.action_key}:${x.allowed}`)).toEqual(['submit:true', 'cancel:true']);
    const sign = { account_code: 'P-1', account_name: 'One', amount: '10.00', analytic_account_id: preparer, axis_id: other, authority_member_id: other, via: 'grant' as const };
    const approve = (signs: (typeof sign)[]) =>
      availableTransitions(DEFAULT_EXPENSE_CLAIM_WORKFLOW, { state: 'review', reporterMemberId: preparer, signing: { signs, gaps: [] } }, { memberId: other, permissions: new Set(), isSoleActiveMember: false }).find(
        (x) => x.action_key === 'approve',
      );
    expect(approve([])).toMatchObject({ allowed: false });
    expect(approve([sign])).toMatchObject({ allowed: true, signs: [sign], to: 'finance' });
    // A sole active member deciding their own claim gets no exception unless the organization turned it on.
    const own = (soleOwnerException: boolean) =>
      availableTransitions(DEFAULT_EXPENSE_CLAIM_WORKFLOW, { state: 'approved', reporterMemberId: preparer, soleOwnerException }, { memberId: preparer, permissions: new Set(['expenses.claim.pay']), isSoleActiveMember: true })[0];
    expect(own(false)).toMatchObject({ action_key: 'pay', allowed: false, refusal: { code: 'self_approval' } });
    expect(own(true)).toMatchObject({ action_key: 'pay', allowed: true, sole_owner_exception: true, requires_reason: true });
  });

  it('labels carry en for every edge, each at most 200 characters', () => {
    for (const def of [DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW, DEFAULT_EXPENSE_CLAIM_WORKFLOW]) {
      for (const t of def.transitions) {
        expect(t.labels.en.length).toBeGreaterThan(0);
        for (const text of Object.values(t.labels)) expect(text.length).toBeLessThanOrEqual(200);
        expect(def.states.some((s) => s.key === t.to)).toBe(true);
      }
    }
  });
});
