import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { todayIn } from '../../src/lib/dates';
import type { BuiltInRole } from '../../src/services/access/permissions';
import { prepareDocument, type PrepareDocumentInput } from '../../src/services/receivables/prepare-document';
import { receivableTransitionAdapter } from '../../src/services/receivables/transition-adapter';
import { takeTransition } from '../../src/services/workflow/take-transition';
import { contextFor } from '../factories/context';
import { createTestMember, type TestMember } from '../factories/organization';
import { allocate, createInvoiceWorld, recordReceipt } from '../factories/receivables';
import { useTestApp } from '../helpers/app';

/**
 * What a client is shown is what the server does (docs/design.md §11): over random members (roles,
 * how many are active), preparers, dispute raisers and document states, for the exit taken by a
 * random active member, the descriptor's `allowed` holds exactly when the act succeeds, and a refused
 * act carries the descriptor's refusal code.
 */
const t = useTestApp();

const ROLES: BuiltInRole[] = ['owner', 'accountant', 'clerk', 'viewer', 'employee'];
const STATES = ['draft', 'issued', 'issued_allocated', 'disputed', 'cancelled', 'discarded'] as const;
type Scenario = {
  others: { role: BuiltInRole; active: boolean }[];
  preparer: number;
  raiser: number;
  actor: number;
  exit: number;
  state: (typeof STATES)[number];
  withReason: boolean;
};

const scenario: fc.Arbitrary<Scenario> = fc.record({
  others: fc.array(fc.record({ role: fc.constantFrom(...ROLES), active: fc.boolean() }), { minLength: 0, maxLength: 3 }),
  preparer: fc.nat(10),
  raiser: fc.nat(10),
  actor: fc.nat(10),
  exit: fc.nat(10),
  state: fc.constantFrom(...STATES),
  withReason: fc.boolean(),
});

const CAN_PREPARE = new Set<BuiltInRole>(['owner', 'accountant', 'clerk']);
const CAN_DISPUTE = new Set<BuiltInRole>(['owner', 'accountant']);

const seen = { allowed: 0, refused: 0, final: 0 };

async function run(s: Scenario) {
  const w = await createInvoiceWorld(t.db);
  const members: (TestMember & { role: BuiltInRole; active: boolean })[] = [{ ...w.org.owner, role: 'owner', active: true }];
  for (const o of s.others) members.push({ ...(await createTestMember(t.db, w.org.id, { role: o.role, active: o.active })), ...o });
  const active = members.filter((m) => m.active);
  const pick = <T,>(list: T[], i: number) => list[i % list.length]!;
  const preparer = pick(active.filter((m) => CAN_PREPARE.has(m.role)), s.preparer);
  const raiser = pick(active.filter((m) => CAN_DISPUTE.has(m.role)), s.raiser);
  const actor = pick(active, s.actor);

  // The document reaches its state through the same step, as the system on members' behalf.
  const doc = await prepareDocument(await contextFor(t.db, w.org.id, preparer.id), w.body() as unknown as PrepareDocumentInput);
  const step = async (memberId: string, action_key: string) =>
    takeTransition(await contextFor(t.db, w.org.id, memberId), receivableTransitionAdapter, { id: doc.id, action_key, reason: 'Set up by the test' }, { systemOverridesGates: true });
  const other = active.find((m) => m.id !== preparer.id) ?? preparer;
  if (s.state === 'discarded') await step(preparer.id, 'discard');
  if (s.state !== 'draft' && s.state !== 'discarded') await step(other.id, 'issue');
  if (s.state === 'issued_allocated') {
    const today = todayIn('Asia/Kuala_Lumpur', new Date());
    const receipt = await recordReceipt(t.db, { organizationId: w.org.id, customerId: w.customer.id, reference: 'R-1', currency: 'MYR', amount: '50.00', receivedOn: today, createdBy: preparer.id });
    await allocate(t.db, { organizationId: w.org.id, invoiceId: doc.id, receiptId: receipt.id, amount: '50.00', effectiveOn: today, createdBy: preparer.id });
  }
  if (s.state === 'disputed') await step(raiser.id, 'dispute');
  if (s.state === 'cancelled') await step(other.id, 'cancel');

  const client = (ifMatch?: string) => createInProcessClient(t.deps, { token: actor.session, ...(ifMatch ? { ifMatch } : {}) });
  const readable: any = await client().receivables.invoices.get({ id: doc.id }).catch((e) => e);
  if (readable?.appCode === 'forbidden') {
    // A member who may not read the document is shown nothing and may take nothing.
    const e: any = await client(`"${doc.revision}"`).receivables.invoices.transition({ id: doc.id, action_key: 'issue', reason: 'x' }).catch((x) => x);
    expect(e.appCode).toBe('forbidden');
    return;
  }
  const before = readable as Awaited<ReturnType<ReturnType<typeof client>['receivables']['invoices']['get']>>;
  const exits = before.available_transitions;
  if (!exits.length) {
    expect(['cancelled', 'discarded']).toContain(s.state);
    const e: any = await client(`"${before.revision}"`).receivables.invoices.transition({ id: doc.id, action_key: 'issue' }).catch((x) => x);
    expect(e.appCode).toBe('conflict');
    seen.final++;
    return;
  }
  const shown = pick(exits, s.exit);
  // The act sends a reason when the descriptor asks for one (or, at random, when it does not).
  const reason = shown.requires_reason || s.withReason ? 'Checked against the customer file' : undefined;
  const outcome: any = await client(`"${before.revision}"`)
    .receivables.invoices.transition({ id: doc.id, action_key: shown.action_key, ...(reason ? { reason } : {}) })
    .catch((e) => e);
  const label = JSON.stringify({ s, roles: members.map((m) => [m.role, m.active]), actor: actor.role, shown });
  seen[shown.allowed ? 'allowed' : 'refused']++;
  if (shown.allowed) {
    expect(outcome.appCode, `${label}: ${String(outcome)}`).toBeUndefined();
    expect(outcome.state, label).toBe(shown.to);
    expect(outcome.revision).toBe(before.revision + 1);
    expect(outcome.timeline.at(-1)).toMatchObject({ action_key: shown.action_key, actor_member_id: actor.id, to: shown.to, reason: reason ?? '' });
  } else {
    expect(outcome.appCode, label).toBeDefined();
    if (shown.refusal) {
      expect(outcome.appCode, label).toBe('transition_refused');
      expect(outcome.extensions?.refusal?.code, label).toBe(shown.refusal.code);
    } else {
      expect(['forbidden', 'conflict'], label).toContain(outcome.appCode);
    }
    const after = await client().receivables.invoices.get({ id: doc.id });
    expect(after.revision).toBe(before.revision);
    expect(after.state).toBe(before.state);
  }
}

describe('descriptor ⇔ act (fast-check)', () => {
  it('allowed holds exactly when the act succeeds, and a refusal carries the descriptor’s code', async () => {
    await fc.assert(fc.asyncProperty(scenario, run), { numRuns: 30 });
    // Both sides of the equivalence were exercised.
    expect(seen.allowed).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 600_000);

  it('covers the interesting corners explicitly', async () => {
    // Sole owner resolving their own dispute; the preparer issuing in a two-member organization; an
    // allocated invoice's cancel.
    await run({ others: [], preparer: 0, raiser: 0, actor: 0, exit: 0, state: 'disputed', withReason: false });
    await run({ others: [{ role: 'accountant', active: true }], preparer: 1, raiser: 0, actor: 1, exit: 0, state: 'draft', withReason: false });
    await run({ others: [{ role: 'accountant', active: true }], preparer: 0, raiser: 0, actor: 1, exit: 1, state: 'issued_allocated', withReason: true });
    await run({ others: [{ role: 'accountant', active: false }], preparer: 0, raiser: 0, actor: 0, exit: 0, state: 'draft', withReason: false });
  }, 120_000);
});
