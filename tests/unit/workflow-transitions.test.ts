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

  it('a claim in draft: submit and cancel for the claimant; advance edges follow the step', () => {
    const claimant = availableTransitions(DEFAULT_EXPENSE_CLAIM_WORKFLOW, draft, { memberId: preparer, permissions: new Set(), isSoleActiveMember: false });
    expect(claimant.map((x) => `${x.action_key}:${x.allowed}`)).toEqual(['submit:true', 'cancel:true']);
    const submitted = { state: 'submitted', reporterMemberId: preparer };
    const approve = (stepComplete: boolean) =>
      availableTransitions(DEFAULT_EXPENSE_CLAIM_WORKFLOW, { ...submitted, stepComplete }, { memberId: other, permissions: new Set(), isSoleActiveMember: false }).find(
        (x) => x.action_key === 'approve',
      );
    expect(approve(false)?.allowed).toBe(false);
    expect(approve(true)?.allowed).toBe(true);
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
