/**
 * The e-invoicing part of a receivables document's decisions (docs/myinvois.md points 4–6), run by the
 * transition step's on-enter work under the document's lock: issuing with e-invoicing on writes the
 * outbox row and the submit job in the same transaction and parks the document in the workflow's
 * waiting state (`submitted`); cancelling a validated e-invoice asks LHDN through the cancel job and
 * parks it in `cancel_requested`. Nothing here calls LHDN: the jobs do (src/jobs/myinvois.ts).
 */
import { findCurrentEinvoice, insertEinvoice, lockLiveEinvoice, updateEinvoice, validNotesReferring, type EinvoiceRow } from '../../db/queries/einvoices';
import type { DocumentRow } from '../../db/queries/receivable-documents';
import { insertJob, insertJobNoLaterThan } from '../../db/queries/jobs';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import type { TakenStep } from '../workflow/take-transition';
import { exitsOf, type RecordFacts } from '../workflow/transitions';
import type { WorkflowDefinition } from '../workflow/types';
import { findEinvoiceRow } from './settings';

/** LHDN lets the issuer cancel (and the buyer reject) within 72 hours of validation. */
export const CANCEL_WINDOW_MS = 72 * 3600 * 1000;

/** The job kinds of the MyInvois work (registered in src/jobs/standard-jobs.ts). */
export const MYINVOIS_JOBS = { submit: 'myinvois-submit', poll: 'myinvois-poll', cancel: 'myinvois-cancel', recover: 'myinvois-recover' } as const;

/**
 * Attempts of a MyInvois job before it is dead (each failure, and each process that died running it,
 * is one; retries back off from 30 s to an hour, so about three and a half hours of failing). A run
 * that ends normally counts afresh. Small, so a poison answer that kills its process stops soon.
 */
export const MYINVOIS_MAX_ATTEMPTS = 10;

/**
 * Enqueues the organization's MyInvois job of this kind to run no later than `runAt` (one pending
 * per organization and kind: a waiting one is brought forward, a running one reschedules itself).
 */
export async function enqueueMyinvois(db: ServiceContext['db'], kind: keyof typeof MYINVOIS_JOBS, organizationId: string, runAt: Date, now: Date) {
  await insertJobNoLaterThan(db, {
    kind: MYINVOIS_JOBS[kind],
    organizationId,
    payload: { organization_id: organizationId },
    runAt,
    createdAt: now,
    dedupeKey: `${MYINVOIS_JOBS[kind]}:${organizationId}`,
    maxAttempts: MYINVOIS_MAX_ATTEMPTS,
  });
}

/**
 * Enqueues the organization's recovery job (services/einvoicing/submission.ts recoverDue) for `runAt`
 * unless one is pending: never brought forward, so the pace its runs keep (LHDN's search limit)
 * holds however often the submit job asks.
 */
export async function enqueueRecovery(db: ServiceContext['db'], organizationId: string, runAt: Date, now: Date) {
  await insertJob(db, {
    kind: MYINVOIS_JOBS.recover,
    organizationId,
    payload: { organization_id: organizationId },
    runAt,
    createdAt: now,
    dedupeKey: `${MYINVOIS_JOBS.recover}:${organizationId}`,
    maxAttempts: MYINVOIS_MAX_ATTEMPTS,
  });
}

/**
 * The state a document waits in while LHDN decides the system edge `action` into `target` (the
 * `from` of that edge), or a 409 naming what the organization's workflow lacks.
 */
function waitingState(def: WorkflowDefinition, action: string, target: string): string {
  const edge = def.transitions.find((t) => t.system && t.action_key === action && t.to === target);
  if (!edge) {
    throw new AppError('conflict', { detail: `The organization's receivables workflow has no state to wait for LHDN in (a system edge ${action} into ${target}); e-invoicing needs one` });
  }
  return edge.from;
}

/** Issuing with e-invoicing on: the outbox row and its job; answers the waiting state to enter. */
export async function queueSubmission(ctx: ServiceContext, doc: DocumentRow, step: TakenStep, reference: string): Promise<string | undefined> {
  const organizationId = ctx.org.id;
  const settings = await findEinvoiceRow(ctx.db, organizationId);
  if (!settings?.enabled) return undefined;
  const to = waitingState(step.def, 'validate', step.to);
  await insertEinvoice(ctx.db, {
    organizationId,
    documentId: doc.id,
    state: 'queued',
    codeNumber: reference,
    version: settings.version,
    requestedBy: step.actorMemberId,
    queuedAt: ctx.now,
  });
  await enqueueMyinvois(ctx.db, 'submit', organizationId, ctx.now, ctx.now);
  return to;
}

/**
 * Cancelling a document whose e-invoice LHDN validated: the cancellation is asked of LHDN by the
 * job; the document waits in the workflow's state for it. Answers that state, or undefined when
 * the document has no valid e-invoice (cancelled here alone, as before e-invoicing).
 */
export async function queueCancellation(ctx: ServiceContext, doc: DocumentRow, step: TakenStep): Promise<string | undefined> {
  const organizationId = ctx.org.id;
  const live = await lockLiveEinvoice(ctx.db, { organizationId, documentId: doc.id });
  if (!live || live.state !== 'valid') return undefined;
  const to = waitingState(step.def, 'cancel_confirmed', step.to);
  await updateEinvoice(ctx.db, { organizationId, id: live.id }, { cancelReason: step.reason.slice(0, 300), cancelRequestedAt: ctx.now, cancelRequestedBy: step.actorMemberId, cancelErrors: [] });
  await enqueueMyinvois(ctx.db, 'cancel', organizationId, ctx.now, ctx.now);
  return to;
}

/** Why LHDN would refuse to cancel this valid e-invoice now, or undefined when it would not. */
export async function cancelRefusal(ctx: ServiceContext, doc: DocumentRow, einvoice: EinvoiceRow): Promise<string | undefined> {
  const validatedAt = einvoice.validatedAt;
  if (validatedAt && ctx.now.getTime() - validatedAt.getTime() > CANCEL_WINDOW_MS) {
    return `LHDN allows cancelling an e-invoice only within 72 hours of its validation (${validatedAt.toISOString()}); issue a credit note for ${doc.reference ?? 'the document'} instead`;
  }
  const notes = await validNotesReferring(ctx.db, { organizationId: ctx.org.id, documentId: doc.id });
  if (notes.length) {
    return `Valid e-invoices refer to ${doc.reference ?? 'the document'} (${notes.map((n) => n.reference).join(', ')}); LHDN refuses to cancel it while they stand: issue a credit note instead`;
  }
  return undefined;
}

/**
 * The condition a validated e-invoice puts on the document's cancel edges (`einvoice_cancellable`),
 * evaluated for available_transitions and the act alike.
 */
export async function einvoiceCancelFacts(ctx: ServiceContext, doc: DocumentRow, def: WorkflowDefinition, facts: RecordFacts): Promise<void> {
  if (doc.reference === null) return;
  const cancels = exitsOf(def, doc.state).shown.filter((t) => def.states.find((s) => s.key === t.to)?.semantic === 'cancelled');
  if (!cancels.length) return;
  const current = await findCurrentEinvoice(ctx.db, { organizationId: ctx.org.id, documentId: doc.id });
  if (!current || current.state !== 'valid') return;
  const why = await cancelRefusal(ctx, doc, current);
  if (!why) return;
  facts.impliedConditions = { ...facts.impliedConditions, ...Object.fromEntries(cancels.map((t) => [t.action_key, [...(facts.impliedConditions?.[t.action_key] ?? []), 'einvoice_cancellable' as const]])) };
  facts.unmet = { ...facts.unmet, einvoice_cancellable: why };
}
