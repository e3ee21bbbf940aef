/**
 * The one transition step (docs/design.md §11), for every record type: lock the record, check the
 * revision the caller read (If-Match), evaluate the edge with the very function that builds
 * `available_transitions` (transitions.ts), refuse as the descriptor says, run the record type's
 * on-enter work, append the decision log, move the state, bump the revision and append the events
 * a client is told of — all in the caller's
 * transaction, so a refused act leaves nothing behind. A record type plugs in through an adapter;
 * nothing here knows about invoices or claims, and no handler moves a record's state by itself.
 */
import { memberExists } from '../../db/queries/access';
import { AppError, validationError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import { appendTransitionEvents } from '../events/transition-events';
import { checkRevision } from '../revision';
import { describeTransition, type RecordFacts } from './transitions';
import type { RecordType, TransitionDefinition, TransitionDescriptor, WorkflowDefinition } from './types';
import { actorOf, loadWorkflow } from './workflows';

/** Longest reason a decision records (contract 2.5). */
export const REASON_MAX = 500;

/** How the actor's authority for a decision was established (kept on the decision log, not in the contract's timeline). */
export type TransitionVia = 'reporter' | 'grant' | 'delegation' | 'escalation' | 'sole_owner_exception' | 'system';

/** What the record type must have for the step: the record's id, state and revision, locked. */
export interface LockedRecord {
  id: string;
  state: string;
  revision: number;
}

/** The decision being taken, as the on-enter work and the log see it. */
export interface TakenStep {
  edge: TransitionDefinition;
  descriptor: TransitionDescriptor;
  def: WorkflowDefinition;
  from: string;
  /** Where the record goes: the edge's `to`, unless on-enter work keeps it (a sign-off not yet complete). */
  to: string;
  /** '' when none was given. */
  reason: string;
  via: TransitionVia;
  actorMemberId: string;
  /** Whose authority the actor decided on: their own, or a delegator's (set by the on-enter work). */
  authorityMemberId: string;
  decidedAt: Date;
}

/**
 * A record type's part of the step. Receivables documents implement it now
 * (services/receivables/transition-adapter.ts); expense claims adopt it (sign-offs in `facts` and
 * `enter`, the claim decision log with authority_member_id in `log`).
 */
export interface TransitionAdapter<R extends LockedRecord, A> {
  recordType: RecordType;
  /** Not found, as for another organization's record. */
  notFoundDetail: string;
  /**
   * SELECT … FOR UPDATE of the record (through a query function), after any row that must be locked
   * before it (a credit note's invoice); undefined when absent in this organization.
   */
  lock(ctx: ServiceContext, id: string): Promise<R | undefined>;
  /** The facts the gates and the edges' conditions are evaluated on; the read side uses the same. */
  facts(ctx: ServiceContext, record: R, def: WorkflowDefinition): Promise<RecordFacts>;
  /**
   * The record type's work on taking the edge (numbering, freezing, opening sign-offs, outbox rows),
   * under the record's lock. May keep the record where it is (`to`), may refuse (AppError), and
   * gives the fields to store with the new state.
   */
  enter(
    ctx: ServiceContext,
    record: R,
    step: TakenStep,
  ): Promise<{ to?: string; set?: Record<string, unknown>; via?: TransitionVia; authority_member_id?: string } | void>;
  /** Stores the new state, the on-enter fields and revision + 1. */
  save(ctx: ServiceContext, record: R, change: { state: string; revision: number; set: Record<string, unknown>; step: TakenStep }): Promise<void>;
  /** Appends the decision (timeline entry, claim decision) in the same transaction. */
  log(ctx: ServiceContext, record: R, step: TakenStep): Promise<void>;
  /** The record as the API answers it, after the step. */
  answer(ctx: ServiceContext, id: string): Promise<A>;
}

export interface TakeTransitionInput {
  id: string;
  action_key: string;
  reason?: string;
  /** The revision the caller read (If-Match); procedures always pass it, the system's callers may not. */
  expected_revision?: number;
}

export interface TakeTransitionOptions {
  /**
   * The system (CLI, demo seed, test factories) acting on a member's behalf is trusted with the
   * gates: a gate refusing that member does not stop it (logged `via: system`). It still never takes
   * an edge that is not an exit, with a stale revision, or whose record conditions are unmet.
   */
  systemOverridesGates?: boolean;
  /**
   * The system takes one of the edges marked `system` (LHDN's verdict on an e-invoice), on behalf of
   * the member whose decision started it (the principal). Only such edges: a person's edge is not one.
   */
  systemEdge?: boolean;
}

/** Latin script (English, Bahasa Malaysia) with digits, punctuation and spaces. */
const LATIN_TEXT = /^[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]*$/u;

/** The reason as the edge needs it: 422 at /reason, or `sole_owner_reason_required` for the exception. */
function checkReason(reason: string | undefined, descriptor: TransitionDescriptor): string {
  const value = reason ?? '';
  if (value.length > REASON_MAX) throw validationError('/reason', `must be at most ${REASON_MAX} characters`);
  const blank = value.trim() === '';
  if (descriptor.sole_owner_exception) {
    if (blank) {
      throw new AppError('sole_owner_reason_required', {
        detail: 'reason: the sole-owner exception (deciding your own record as the organization’s one active member) needs a reason',
        errors: [{ pointer: '/reason', detail: 'must not be blank for the sole-owner exception' }],
      });
    }
    if (!LATIN_TEXT.test(value)) throw validationError('/reason', 'must be written in English or Bahasa Malaysia (Latin script)');
  } else if (descriptor.requires_reason && blank) {
    throw validationError('/reason', reason === undefined ? `is required to ${descriptor.action_key}` : 'must not be blank');
  }
  return blank ? '' : value;
}

/** The refusal the descriptor gives, as the act answers it. */
function refusalError(descriptor: TransitionDescriptor, edge: TransitionDefinition, facts: RecordFacts): AppError {
  if (descriptor.blocked) return facts.unmetErrors?.[descriptor.blocked.condition] ?? new AppError('conflict', { detail: descriptor.blocked.detail });
  if (descriptor.refusal) {
    return new AppError('transition_refused', { detail: descriptor.refusal.detail, extensions: { refusal: descriptor.refusal } });
  }
  // An advance edge whose conditions are the record's own (not the actor's authority) is not met yet.
  if (descriptor.gate === 'advance' && !edge.signs && !edge.signoff_authority) return new AppError('conflict', { detail: `The conditions of ${descriptor.action_key} are not met yet` });
  return new AppError('forbidden', { detail: `You do not hold the authority to ${descriptor.action_key} this record` });
}

/** A system edge is the system's to take: no gate, no reason required (one may still be recorded). */
function systemDescriptor(edge: TransitionDefinition): TransitionDescriptor {
  return { action_key: edge.action_key, to: edge.to, gate: edge.gate, labels: edge.labels, requires_reason: false, allowed: true };
}

/**
 * Takes the edge `action_key` from the record's current state as the caller, and answers the record.
 * Runs in the caller's transaction (the procedure's write), never opens one.
 */
export async function takeTransition<R extends LockedRecord, A>(
  ctx: ServiceContext,
  adapter: TransitionAdapter<R, A>,
  input: TakeTransitionInput,
  options: TakeTransitionOptions = {},
): Promise<A> {
  const organizationId = ctx.org.id;
  // The system acts on a member's behalf (CLI, demo): that member must be one of the organization's.
  if (ctx.principal.via === 'system' && !(await memberExists(ctx.db, { organizationId, id: ctx.principal.memberId }))) {
    throw validationError('/actor_member_id', 'no such member in this organization');
  }
  const record = await adapter.lock(ctx, input.id);
  if (!record) throw new AppError('not_found', { detail: adapter.notFoundDetail });
  if (input.expected_revision !== undefined) checkRevision(record.revision, input.expected_revision);

  const def = await loadWorkflow(ctx.db, organizationId, adapter.recordType);
  const systemEdge = Boolean(options.systemEdge);
  const edge = def.transitions.find((t) => t.from === record.state && t.action_key === input.action_key && Boolean(t.system) === systemEdge);
  if (!edge) {
    const exits = def.transitions.filter((t) => t.from === record.state && Boolean(t.system) === systemEdge).map((t) => t.action_key);
    throw new AppError('conflict', {
      detail: `The record is ${record.state}; ${input.action_key} is not one of its exits (${exits.length ? exits.join(', ') : 'none'})`,
    });
  }

  const [facts, actor] = [await adapter.facts(ctx, record, def), await actorOf(ctx.db, ctx.principal)];
  let descriptor = systemEdge ? systemDescriptor(edge) : describeTransition(edge, facts, actor);
  let via: TransitionVia = systemEdge ? 'system' : edge.gate === 'reporter' ? 'reporter' : descriptor.sole_owner_exception ? 'sole_owner_exception' : 'grant';
  if (!descriptor.allowed) {
    const overridable = options.systemOverridesGates && ctx.principal.via === 'system' && !descriptor.blocked && edge.gate !== 'advance';
    if (!overridable) throw refusalError(descriptor, edge, facts);
    descriptor = { ...descriptor, allowed: true, requires_reason: Boolean(edge.requires_reason) };
    delete descriptor.refusal;
    via = 'system';
  }
  const reason = checkReason(input.reason, descriptor);

  const actorMemberId = ctx.principal.memberId;
  const step: TakenStep = { edge, descriptor, def, from: record.state, to: edge.to, reason, via, actorMemberId, authorityMemberId: actorMemberId, decidedAt: ctx.now };
  const entered = (await adapter.enter(ctx, record, step)) ?? {};
  if (entered.to !== undefined) step.to = entered.to;
  if (entered.via !== undefined && step.via !== 'system' && step.via !== 'sole_owner_exception') step.via = entered.via;
  if (entered.authority_member_id !== undefined) step.authorityMemberId = entered.authority_member_id;
  await adapter.log(ctx, record, step);
  await adapter.save(ctx, record, { state: step.to, revision: record.revision + 1, set: entered.set ?? {}, step });
  await appendTransitionEvents(ctx, adapter.recordType, record.id, record.revision + 1, step);
  return adapter.answer(ctx, record.id);
}
