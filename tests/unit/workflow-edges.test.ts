import { describe, expect, it } from 'vitest';
import { DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW } from '../../src/services/workflow/defaults';
import { availableTransitions } from '../../src/services/workflow/transitions';

/**
 * The evaluator's newer parts (docs/design.md §11): reasons per edge, the dispute raiser, and record
 * conditions that block an edge for everyone who could otherwise take it.
 */
const def = DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW;
const all = new Set(['receivables.invoice.issue', 'receivables.invoice.dispute', 'receivables.invoice.cancel']);
const actor = (memberId: string, opts: { permissions?: Set<string>; sole?: boolean } = {}) => ({
  memberId,
  permissions: opts.permissions ?? all,
  isSoleActiveMember: opts.sole ?? false,
});

describe('the default receivables edges', () => {
  it('issued: dispute and cancel, both asking for a reason; cancel blocked while something is allocated', () => {
    const issued = { state: 'issued', reporterMemberId: 'p' };
    expect(availableTransitions(def, issued, actor('a')).map((d) => [d.action_key, d.allowed, d.requires_reason])).toEqual([
      ['dispute', true, true],
      ['cancel', true, true],
    ]);
    const allocated = { ...issued, unmet: { nothing_allocated: 'has allocations' } };
    const [, cancel] = availableTransitions(def, allocated, actor('a'));
    expect(cancel).toMatchObject({ action_key: 'cancel', allowed: false, blocked: { condition: 'nothing_allocated', detail: 'has allocations' } });
    expect(cancel!.refusal).toBeUndefined();
    // Without the authority the caller is told only that: no word on the record's condition.
    const [, noAuthority] = availableTransitions(def, allocated, actor('a', { permissions: new Set() }));
    expect(noAuthority).toEqual(expect.objectContaining({ allowed: false }));
    expect(noAuthority!.blocked).toBeUndefined();
  });

  it('disputed: resolve refused to the raiser (dispute_raiser), allowed to another; the sole member may, with a reason', () => {
    const disputed = { state: 'disputed', reporterMemberId: 'p', raiserMemberId: 'r' };
    expect(availableTransitions(def, disputed, actor('r'))[0]).toMatchObject({ action_key: 'resolve', allowed: false, refusal: { code: 'dispute_raiser' } });
    expect(availableTransitions(def, disputed, actor('x'))[0]).toMatchObject({ action_key: 'resolve', allowed: true, requires_reason: false });
    expect(availableTransitions(def, disputed, actor('r', { sole: true }))[0]).toMatchObject({ allowed: true, requires_reason: true, sole_owner_exception: true });
  });

  it('a credit note beyond its invoice: issue blocked', () => {
    const [issue] = availableTransitions(def, { state: 'draft', reporterMemberId: 'p', unmet: { credit_within_invoice: 'too much' } }, actor('a'));
    expect(issue).toMatchObject({ action_key: 'issue', allowed: false, blocked: { condition: 'credit_within_invoice' } });
  });

  it('cancelled and discarded are final', () => {
    for (const state of ['cancelled', 'discarded']) expect(availableTransitions(def, { state, reporterMemberId: 'p' }, actor('a'))).toEqual([]);
  });
});
