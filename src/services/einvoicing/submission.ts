/**
 * The MyInvois work of one organization (docs/myinvois.md points 4–6), run by the jobs of
 * src/jobs/myinvois.ts, never inside a request:
 *
 * - submit: claim the queued rows (FOR UPDATE SKIP LOCKED), compose and store each document once
 *   (signed for 1.1), mark them `sending` and COMMIT, then send them in batches within LHDN's limits.
 *   A request whose outcome is unknown (timeout, 5xx, a lost answer, a crash) leaves its rows
 *   `sending`. A 429 puts the rows back in the queue and waits exactly `Retry-After`.
 * - recover: looks the `sending` rows up at LHDN within its search limit (a few searches a minute,
 *   each over a window of several rows), adopts the UUID LHDN gave each, and puts back in the queue
 *   only what LHDN never received. The submit job keeps sending new documents meanwhile.
 * - poll: asks LHDN for each submitted document's verdict: valid → the document is `issued` with
 *   LHDN's uuid, longId and validation time; invalid → back to `draft` with LHDN's errors kept. Valid
 *   documents are looked at again until the 72-hour window closes, for a buyer's rejection request.
 * - cancel: sends the cancellations people asked for; LHDN's confirmation cancels the document, its
 *   refusal puts it back to `issued` with LHDN's reason.
 *
 * Each verdict is applied under the row's lock and only if the row is still where the request found
 * it, so two processes (or a retried job) never apply one twice. The document's state moves only
 * through the workflow's system edges (services/workflow/take-transition.ts).
 */
import { appendEvent } from '../events/append';
import type { Database } from '../../db/client';
import { claimEinvoices, earliestSending, findCurrentEinvoice, nextPollAt, updateEinvoice, type EinvoiceRow } from '../../db/queries/einvoices';
import { findOrganization } from '../../db/queries/organizations';
import { findDocumentLink, findDocumentRow, findLines, lockDocument } from '../../db/queries/receivable-documents';
import type { EinvoiceError, SellerIdentity } from '../../db/schema';
import { batchDocuments, MyInvoisError, type MyInvoisClient } from '../../integrations/myinvois/client';
import { buildDocument, EinvoiceBuildError } from '../../integrations/myinvois/document';
import { documentHash, serializeDocument } from '../../integrations/myinvois/serialize';
import { signDocument } from '../../integrations/myinvois/signature';
import { RetryAfter } from '../../jobs/errors';
import { isAppError } from '../../lib/errors';
import { systemContext, type ServiceContext } from '../context';
import { receivableTransitionAdapter } from '../receivables/transition-adapter';
import { takeTransition } from '../workflow/take-transition';
import { composeEinvoice } from './compose';
import { connectionFor, type Connection, type MyinvoisDeps } from './connection';
import { CANCEL_WINDOW_MS, enqueueMyinvois, enqueueRecovery } from './outbox';
import { notify } from '../mail/notify';

/** How long a sent request may still be in flight elsewhere: a `sending` row older than this is looked up. */
export const SENDING_STALE_MS = 120_000;
/** First look at a submission after sending, and between looks while LHDN validates. */
export const POLL_DELAY_MS = 10_000;
/** Between looks at a valid document for a buyer's rejection, until the 72-hour window closes. */
export const REJECTION_POLL_MS = 3_600_000;
const BATCH_LIMIT = 100;

export interface RunOutcome {
  submitted: number;
  valid: number;
  invalid: number;
  recovered: number;
}

const lhdnError = (code: string, detail: string, pointer: string | null = null): EinvoiceError => ({ code, detail: detail.slice(0, 1000), pointer });

/** The context the system decides in, on behalf of the member whose decision started the work. */
async function actingContext(db: Database, organizationId: string, memberId: string, now: Date): Promise<ServiceContext> {
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new Error(`organization ${organizationId} is gone`);
  return systemContext(db, { id: org.id, name: org.name, baseCurrency: org.baseCurrency, timeZone: org.timeZone, recordLanguages: org.recordLanguages, seller: org.seller }, now, memberId, []);
}

/** Takes a system edge on the row's document (validate, invalid, request_rejection, cancel_confirmed, cancel_refused). */
async function decide(tx: Database, row: EinvoiceRow, action: string, memberId: string, now: Date, reason = ''): Promise<void> {
  const ctx = await actingContext(tx, row.organizationId, memberId, now);
  try {
    await takeTransition(ctx, receivableTransitionAdapter, { id: row.documentId, action_key: action, reason: reason.slice(0, 500) }, { systemEdge: true });
  } catch (error) {
    // The document is not where LHDN's answer expects it (a person moved it meanwhile): the row
    // keeps LHDN's verdict, shown by GET …/einvoice; the workflow is left as the person put it.
    if (isAppError(error) && error.appCode === 'conflict') return;
    throw error;
  }
}

/** The event of a document LHDN received (its verdict comes later, through a system edge). */
async function recordSubmitted(tx: Database, row: EinvoiceRow, uuid: string, now: Date): Promise<void> {
  const doc = await lockDocument(tx, { organizationId: row.organizationId, id: row.documentId });
  if (!doc) return;
  await appendEvent(tx, {
    organizationId: row.organizationId,
    type: 'receivables.invoice.einvoice_submitted',
    occurredAt: now,
    actorMemberId: row.requestedBy,
    subject: { type: 'receivable_document', id: doc.id, revision: doc.revision },
    data: { state: doc.state, einvoice_uuid: uuid },
  });
}

/** Runs `work` on the row locked, if it is still in `state` (another run may have applied it). */
async function onRow(db: Database, row: EinvoiceRow, state: EinvoiceRow['state'], work: (tx: Database, current: EinvoiceRow) => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The document first (a credit note's invoice before it), in the order a person's decision on it
    // locks them, and both before the e-invoice row: the two never wait on each other in a circle.
    const link = await findDocumentLink(tx, { organizationId: row.organizationId, id: row.documentId });
    if (link?.kind === 'customer_credit_note' && link.originalInvoiceId) await lockDocument(tx, { organizationId: row.organizationId, id: link.originalInvoiceId });
    await lockDocument(tx, { organizationId: row.organizationId, id: row.documentId });
    const [current] = await claimEinvoices(tx, { organizationId: row.organizationId, states: [state], limit: 1, ids: [row.id] });
    if (!current) return false;
    await work(tx, current);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Composition

/** The seller as frozen on the document, completed from the organization's identity for documents frozen before all fields were. */
function sellerOf(frozen: Record<string, unknown> | null, current: SellerIdentity): SellerIdentity {
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(frozen ?? {})) if (v !== null && v !== undefined) out[k] = v;
  return out as SellerIdentity;
}

/** Builds, signs (1.1) and serialises the row's document once: the bytes stored are the bytes sent. */
async function compose(ctx: ServiceContext, row: EinvoiceRow, conn: Connection): Promise<{ document: string; documentHash: string }> {
  const organizationId = row.organizationId;
  const doc = await findDocumentRow(ctx.db, { organizationId, id: row.documentId });
  if (!doc || !doc.issuedAt || !doc.buyer) throw new EinvoiceBuildError('/', 'the document is not issued');
  const lines = await findLines(ctx.db, { organizationId, documentId: doc.id });
  let original: { uuid: string; number: string } | null = null;
  if (doc.originalInvoiceId) {
    const orig = await findDocumentRow(ctx.db, { organizationId, id: doc.originalInvoiceId });
    const einvoice = await findCurrentEinvoice(ctx.db, { organizationId, documentId: doc.originalInvoiceId });
    if (!orig?.reference || einvoice?.state !== 'valid' || !einvoice.uuid) throw new EinvoiceBuildError('/original_invoice_id', 'the original document has no valid e-invoice');
    original = { uuid: einvoice.uuid, number: orig.reference };
  }
  const input = composeEinvoice({
    doc,
    lines,
    buyer: doc.buyer,
    seller: sellerOf(doc.seller as Record<string, unknown> | null, ctx.org.seller ?? {}),
    version: row.version,
    number: row.codeNumber,
    issuedAt: doc.issuedAt,
    baseCurrency: ctx.org.baseCurrency,
    original,
  });
  let ubl: object = buildDocument(input);
  if (row.version === '1.1') ubl = signDocument(ubl, conn.signing(), { signingTime: ctx.now });
  const json = serializeDocument(ubl);
  return { document: json, documentHash: documentHash(json) };
}

/** A row LHDN (or the builder) refused outright: invalid, and its document back to draft. */
async function refuse(tx: Database, row: EinvoiceRow, errors: EinvoiceError[], now: Date): Promise<void> {
  await updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, { state: 'invalid', errors, nextPollAt: null });
  await decide(tx, row, 'invalid', row.requestedBy, now, errors.map((e) => e.detail).join('; '));
  await notify({ db: tx, org: { id: row.organizationId }, now }, 'einvoice_invalid', { memberIds: [row.requestedBy], documentId: row.documentId });
}

// ---------------------------------------------------------------------------------------------
// Submit

/**
 * Claims the queued rows (composed now if they never were) and marks them `sending` in the same
 * commit. `sending` rows whose request's fate is unknown are the recovery job's (recoverDue).
 */
async function claimForSending(db: Database, organizationId: string, now: Date, conn: Connection): Promise<EinvoiceRow[]> {
  return db.transaction(async (tx) => {
    const rows = await claimEinvoices(tx, { organizationId, states: ['queued'], limit: BATCH_LIMIT });
    const fresh: EinvoiceRow[] = [];
    for (const row of rows) {
      let composed = row.document && row.documentHash ? { document: row.document, documentHash: row.documentHash } : undefined;
      if (!composed) {
        try {
          composed = await compose(await actingContext(tx, organizationId, row.requestedBy, now), row, conn);
        } catch (error) {
          if (!(error instanceof EinvoiceBuildError)) throw error;
          await refuse(tx, row, [lhdnError('document_not_built', error.message, error.pointer)], now);
          continue;
        }
      }
      const set = { ...composed, state: 'sending' as const, sendingAt: now, sendAttempts: row.sendAttempts + 1 };
      await updateEinvoice(tx, { organizationId, id: row.id }, set);
      fresh.push({ ...row, ...set });
    }
    return fresh;
  });
}

// ---------------------------------------------------------------------------------------------
// Recover

/**
 * LHDN allows 12 searches a minute per client. Recovery spends at most this many per run, and its
 * job runs again no sooner than RECOVERY_INTERVAL_MS after a run that left work (or after LHDN's
 * Retry-After): a few searches a minute at most, the rest of the limit left for people.
 */
export const SEARCHES_PER_RUN = 3;
export const RECOVERY_INTERVAL_MS = 60_000;
/** LHDN allows 60 raw-document reads a minute; recovery compares at most this many per run. */
const RAW_READS_PER_RUN = 20;
/** `sending` rows whose requests left within this span of each other are looked up with one search. */
const RECOVERY_GROUP_SPAN_MS = 10 * 60_000;

type Found = Awaited<ReturnType<MyInvoisClient['searchDocumentsPage']>>['result'][number];

/** Runs out of a per-run allowance: the run stops and its job comes back later. */
class OutOfBudget extends Error {}

/** Rows sorted by when their request left, cut into groups no wider than RECOVERY_GROUP_SPAN_MS. */
function groupsBySendingTime(rows: EinvoiceRow[]): EinvoiceRow[][] {
  const at = (r: EinvoiceRow) => (r.sendingAt ?? r.queuedAt).getTime();
  const groups: EinvoiceRow[][] = [];
  for (const row of [...rows].sort((x, y) => at(x) - at(y))) {
    const last = groups[groups.length - 1];
    if (last && at(row) - at(last[0]!) <= RECOVERY_GROUP_SPAN_MS) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

/**
 * The submission LHDN holds for this row among what the search found: the latest with its number
 * whose bytes are the row's (LHDN hides an invalid document's: then the number and the time must
 * do). An earlier attempt it found invalid does not stand for this one.
 */
async function matchOf(client: MyInvoisClient, row: EinvoiceRow, found: Found[], budget: { raw: number }): Promise<Found | undefined> {
  const candidates = found.filter((d) => d.internalId === row.codeNumber).sort((a, b) => Date.parse(b.dateTimeReceived) - Date.parse(a.dateTimeReceived));
  for (const candidate of candidates) {
    if (candidate.status === 'Invalid') return candidate;
    if (budget.raw <= 0) throw new OutOfBudget();
    budget.raw -= 1;
    const raw = await client.getDocumentRaw(candidate.uuid);
    if (raw.document === row.document) return candidate;
  }
  return undefined;
}

/** A row found at LHDN: it takes the UUID LHDN gave it, and is polled for its verdict. */
async function adopt(db: Database, row: EinvoiceRow, match: Found, now: Date): Promise<void> {
  await onRow(db, row, 'sending', (tx) =>
    updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, {
      state: 'submitted',
      uuid: match.uuid,
      submissionUid: match.submissionUid,
      submittedAt: new Date(match.dateTimeReceived),
      nextPollAt: now,
    }).then(() => recordSubmitted(tx, row, match.uuid, now)),
  );
}

/**
 * One group of `sending` rows looked up with one search over the window their requests could have
 * reached LHDN in (from a minute before the first left to SENDING_STALE_MS after the last), paged
 * newest first. A row is settled when the pages read reach back before its request left: found, it
 * is adopted; not found, LHDN never received it and it goes back to the queue to be sent again. The
 * rest wait for the next run (a narrower window then). Answers how many were found and re-queued.
 */
async function recoverGroup(db: Database, client: MyInvoisClient, group: EinvoiceRow[], now: Date, budget: { searches: number; raw: number }) {
  const at = (r: EinvoiceRow) => (r.sendingAt ?? r.queuedAt).getTime();
  const from = new Date(at(group[0]!) - 60_000);
  const to = new Date(Math.min(now.getTime(), at(group[group.length - 1]!) + SENDING_STALE_MS));
  const single = group.length === 1;
  const found: Found[] = [];
  let complete = false;
  for (let pageNo = 1; budget.searches > 0; pageNo++) {
    budget.searches -= 1;
    const page = await client.searchDocumentsPage(
      { invoiceDirection: 'Sent', submissionDateFrom: from.toISOString(), submissionDateTo: to.toISOString(), ...(single ? { searchQuery: group[0]!.codeNumber } : {}) },
      pageNo,
    );
    found.push(...page.result);
    if (pageNo >= page.metadata.totalPages || page.result.length === 0) {
      complete = true;
      break;
    }
  }
  // Newest first: the pages read hold everything LHDN received after the oldest result read.
  const reachedBack = complete ? -Infinity : Math.min(...found.map((d) => Date.parse(d.dateTimeReceived)));
  const outcome = { recovered: 0, requeued: 0 };
  for (const row of group) {
    if (!(at(row) > reachedBack)) continue;
    const match = await matchOf(client, row, found, budget);
    if (match) {
      await adopt(db, row, match, now);
      outcome.recovered += 1;
    } else {
      await onRow(db, row, 'sending', (tx) => updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, { state: 'queued' }));
      outcome.requeued += 1;
    }
  }
  return outcome;
}

/**
 * The organization's `sending` rows whose request's fate is unknown (a timeout, a 5xx, a lost
 * answer, a crash), looked up at LHDN within its search limit: at most SEARCHES_PER_RUN searches,
 * each covering a group of rows. Found rows take their UUID and are polled; rows LHDN never received
 * go back to the queue for the submit job, which keeps sending new documents meanwhile. A 429 ends
 * the run and it comes back after Retry-After. Answers when to run again, if work is left.
 */
export async function recoverDue(db: Database, organizationId: string, now: Date, deps: MyinvoisDeps): Promise<{ recovered: number; requeued: number; next?: Date }> {
  const conn = await connectionFor(db, organizationId, deps, now);
  if ('missing' in conn) throw new RetryAfter(600, `cannot reach MyInvois: ${conn.missing}`, { orBackoff: true });
  const outcome = { recovered: 0, requeued: 0 };
  const stale = await db.transaction((tx) => claimEinvoices(tx, { organizationId, states: ['sending'], limit: BATCH_LIMIT, sendingBefore: new Date(now.getTime() - SENDING_STALE_MS) }));
  const budget = { searches: SEARCHES_PER_RUN, raw: RAW_READS_PER_RUN };
  let waitMs = RECOVERY_INTERVAL_MS;
  try {
    for (const group of groupsBySendingTime(stale)) {
      if (budget.searches <= 0) break;
      const done = await recoverGroup(db, conn.client, group, now, budget);
      outcome.recovered += done.recovered;
      outcome.requeued += done.requeued;
    }
  } catch (error) {
    if (error instanceof MyInvoisError && error.status === 429) waitMs = Math.max(waitMs, (error.retryAfterSeconds ?? 60) * 1000);
    else if (!(error instanceof OutOfBudget)) throw error;
  } finally {
    if (outcome.recovered) await enqueueMyinvois(db, 'poll', organizationId, now, now);
    if (outcome.requeued) await enqueueMyinvois(db, 'submit', organizationId, now, now);
  }
  const left = await earliestSending(db, { organizationId });
  if (!left) return outcome;
  const staleAt = new Date(left.getTime() + SENDING_STALE_MS);
  return { ...outcome, next: new Date(Math.max(now.getTime() + waitMs, staleAt.getTime())) };
}

/** Sends the organization's due documents; answers what happened. Throws RetryAfter to be run again. */
export async function submitDue(db: Database, organizationId: string, now: Date, deps: MyinvoisDeps): Promise<RunOutcome & { more: boolean }> {
  const outcome = { submitted: 0, valid: 0, invalid: 0, recovered: 0, more: false };
  const conn = await connectionFor(db, organizationId, deps, now);
  if ('missing' in conn) throw new RetryAfter(600, `cannot reach MyInvois: ${conn.missing}`, { orBackoff: true });
  // Rows left `sending` by an earlier run (a crash, a lost answer) are looked up by their own job,
  // within LHDN's search limit; new documents do not wait for it.
  const inFlight = await earliestSending(db, { organizationId });
  if (inFlight) await enqueueRecovery(db, organizationId, new Date(Math.max(now.getTime(), inFlight.getTime() + SENDING_STALE_MS)), now);
  const toSend = await claimForSending(db, organizationId, now, conn);
  // A full claim: more may be waiting; the job runs again at once.
  outcome.more = toSend.length >= BATCH_LIMIT;
  const { batches, tooLarge } = batchDocuments(toSend.map((row) => ({ codeNumber: row.codeNumber, bytes: Buffer.from(row.document!, 'utf8'), row })));
  for (const big of tooLarge) {
    await onRow(db, big.row, 'sending', (tx, current) => refuse(tx, current, [lhdnError('MaximumSizeExceeded', 'The document is larger than the 300 KB LHDN accepts')], now));
    outcome.invalid += 1;
  }
  let earliestPoll: Date | undefined;
  for (const batch of batches) {
    let answer;
    try {
      answer = await conn.client.submitDocuments(batch.map((b) => ({ codeNumber: b.codeNumber, bytes: b.bytes })));
    } catch (error) {
      await afterFailedSend(db, batch.map((b) => b.row), error, now);
      throw error;
    }
    const byNumber = new Map(batch.map((b) => [b.codeNumber, b.row]));
    const pollAt = new Date(now.getTime() + POLL_DELAY_MS);
    for (const accepted of answer.acceptedDocuments) {
      const row = byNumber.get(accepted.invoiceCodeNumber);
      if (!row) continue;
      await onRow(db, row, 'sending', async (tx) => {
        await updateEinvoice(tx, { organizationId, id: row.id }, { state: 'submitted', uuid: accepted.uuid, submissionUid: answer.submissionUid, submittedAt: now, nextPollAt: pollAt });
        await recordSubmitted(tx, row, accepted.uuid, now);
      });
      outcome.submitted += 1;
      earliestPoll = pollAt;
    }
    for (const rejected of answer.rejectedDocuments) {
      const row = byNumber.get(rejected.invoiceCodeNumber);
      if (!row) continue;
      await onRow(db, row, 'sending', (tx, current) => refuse(tx, current, errorsOf(rejected.error), now));
      outcome.invalid += 1;
    }
  }
  if (earliestPoll) await enqueueMyinvois(db, 'poll', organizationId, earliestPoll, now);
  return outcome;
}

/**
 * After a refused or failed submission request. Throttled (429): LHDN took nothing, so the rows
 * go back to the queue and the job waits exactly Retry-After. Refused outright (other 4xx): the
 * rows are invalid with LHDN's error. Unknown (timeout, 5xx, network): the rows stay `sending`, to
 * be looked up at LHDN once the request can no longer be in flight.
 */
async function afterFailedSend(db: Database, rows: EinvoiceRow[], error: unknown, now: Date): Promise<never> {
  if (error instanceof MyInvoisError && error.status === 429) {
    for (const row of rows) await onRow(db, row, 'sending', (tx) => updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, { state: 'queued' }));
    throw new RetryAfter(error.retryAfterSeconds ?? 60, 'LHDN answered 429 to the submission');
  }
  // A duplicate of a submission LHDN accepted within 10 minutes: it has the document; look it up.
  const duplicate = error instanceof MyInvoisError && error.status === 422;
  if (error instanceof MyInvoisError && !error.transient && !duplicate) {
    for (const row of rows) await onRow(db, row, 'sending', (tx, current) => refuse(tx, current, errorsOf(error.details, error.code ?? `http_${error.status}`, error.message), now));
    throw new RetryAfter(1, `LHDN refused the submission (${error.status} ${error.code ?? ''})`);
  }
  await enqueueRecovery(db, rows[0]!.organizationId, new Date(now.getTime() + SENDING_STALE_MS), now);
  const wait = duplicate && error.retryAfterSeconds ? Math.max(error.retryAfterSeconds, SENDING_STALE_MS / 1000) : SENDING_STALE_MS / 1000;
  throw new RetryAfter(wait, `the submission's outcome is unknown (${error instanceof Error ? error.message : 'error'}); it is looked up at LHDN before sending again`, { orBackoff: true });
}

/** LHDN's error (either shape) as the rows keep it. */
function errorsOf(error: unknown, fallbackCode = 'rejected', fallbackDetail = 'LHDN refused the document'): EinvoiceError[] {
  const out: EinvoiceError[] = [];
  const walk = (e: unknown) => {
    if (!e || typeof e !== 'object') return;
    const o = e as Record<string, unknown>;
    const inner = (o['details'] ?? o['innerError']) as unknown;
    const code = (o['code'] ?? o['errorCode']) as string | undefined;
    const message = (o['message'] ?? o['error']) as string | undefined;
    const pointer = (o['target'] ?? o['propertyPath'] ?? null) as string | null;
    if (Array.isArray(inner) && inner.length) for (const i of inner) walk(i);
    else if (code || message) out.push(lhdnError(String(code ?? fallbackCode), String(message ?? fallbackDetail), pointer ? String(pointer) : null));
  };
  if (Array.isArray(error)) error.forEach(walk);
  else walk(error);
  return out.length ? out : [lhdnError(fallbackCode, fallbackDetail)];
}

// ---------------------------------------------------------------------------------------------
// Poll

/** LHDN's verdicts on the organization's submitted documents, and rejection requests on valid ones. */
export async function pollDue(db: Database, organizationId: string, now: Date, deps: MyinvoisDeps, opts: { dueBy?: Date } = {}): Promise<RunOutcome & { next?: Date }> {
  const outcome: RunOutcome = { submitted: 0, valid: 0, invalid: 0, recovered: 0 };
  const conn = await connectionFor(db, organizationId, deps, now);
  if ('missing' in conn) throw new RetryAfter(600, `cannot reach MyInvois: ${conn.missing}`, { orBackoff: true });
  const due = await db.transaction((tx) => claimEinvoices(tx, { organizationId, states: ['submitted', 'valid'], limit: 500, pollDueBy: opts.dueBy ?? now }));
  const submitted = due.filter((r) => r.state === 'submitted');
  const bySubmission = new Map<string, EinvoiceRow[]>();
  for (const row of submitted) bySubmission.set(row.submissionUid!, [...(bySubmission.get(row.submissionUid!) ?? []), row]);
  for (const [submissionUid, rows] of bySubmission) {
    let answer;
    try {
      answer = await conn.client.getSubmission(submissionUid);
    } catch (error) {
      if (!(error instanceof MyInvoisError) || error.status !== 404) throw error;
      // LHDN does not know the submission (a simulator restarted without its memory): the rows are
      // looked up again by the submit job, and sent again only if LHDN has no such document.
      for (const row of rows) {
        await onRow(db, row, 'submitted', (tx) =>
          updateEinvoice(tx, { organizationId, id: row.id }, { state: 'sending', sendingAt: new Date(now.getTime() - SENDING_STALE_MS), uuid: null, submissionUid: null, nextPollAt: null }),
        );
      }
      await enqueueMyinvois(db, 'submit', organizationId, now, now);
      continue;
    }
    const byUuid = new Map(answer.documentSummary.map((d) => [d.uuid, d]));
    for (const row of rows) {
      const summary = byUuid.get(row.uuid!);
      if (summary?.status === 'Valid' || summary?.status === 'Cancelled') {
        const validatedAt = summary.dateTimeValidated ? new Date(summary.dateTimeValidated) : now;
        await onRow(db, row, 'submitted', async (tx, current) => {
          await updateEinvoice(tx, { organizationId, id: row.id }, { state: 'valid', longId: summary.longId, validatedAt, nextPollAt: nextRejectionPoll(validatedAt, now) });
          await decide(tx, current, 'validate', current.requestedBy, now);
        });
        outcome.valid += 1;
      } else if (summary?.status === 'Invalid') {
        const details = await conn.client.getDocumentDetails(row.uuid!);
        const errors = (details.validationResults?.validationSteps ?? []).filter((s) => s.status === 'Invalid').flatMap((s) => errorsOf(s.error, 'invalid', `${s.name} failed`));
        await onRow(db, row, 'submitted', (tx, current) => refuse(tx, current, errors.length ? errors : [lhdnError('invalid', 'LHDN found the document invalid')], now));
        outcome.invalid += 1;
      } else {
        await updateEinvoice(db, { organizationId, id: row.id }, { nextPollAt: new Date(now.getTime() + POLL_DELAY_MS) });
        outcome.submitted += 1;
      }
    }
  }
  for (const row of due.filter((r) => r.state === 'valid')) await watchRejection(db, conn, row, now);
  const next = await nextPollAt(db, organizationId);
  return { ...outcome, ...(next ? { next: next < now ? now : next } : {}) };
}

/** When to look for a rejection next: hourly while the 72-hour window is open, then never. */
function nextRejectionPoll(validatedAt: Date, now: Date): Date | null {
  const closes = validatedAt.getTime() + CANCEL_WINDOW_MS;
  if (now.getTime() >= closes) return null;
  return new Date(Math.min(now.getTime() + REJECTION_POLL_MS, closes));
}

/** A valid document, looked at for a buyer's rejection request (docs/myinvois.md point 6). */
async function watchRejection(db: Database, conn: Connection, row: EinvoiceRow, now: Date): Promise<void> {
  const details = await conn.client.getDocumentDetails(row.uuid!);
  await onRow(db, row, 'valid', async (tx, current) => {
    const next = current.validatedAt ? nextRejectionPoll(current.validatedAt, now) : null;
    if (details.rejectRequestDateTime && !current.rejectionRequestedAt) {
      const reason = details.documentStatusReason ?? '';
      await updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, { rejectionRequestedAt: new Date(details.rejectRequestDateTime), rejectionReason: reason, nextPollAt: next });
      await decide(tx, current, 'request_rejection', current.requestedBy, now, `The buyer asked LHDN to reject the document: ${reason}`);
      await notify({ db: tx, org: { id: row.organizationId }, now }, 'einvoice_rejection_requested', { memberIds: [current.requestedBy], documentId: row.documentId });
      return;
    }
    await updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, { nextPollAt: next });
  });
}

// ---------------------------------------------------------------------------------------------
// Cancel

/** Sends the cancellations asked for; LHDN's answer cancels the document or puts it back. */
export async function cancelDue(db: Database, organizationId: string, now: Date, deps: MyinvoisDeps): Promise<number> {
  const conn = await connectionFor(db, organizationId, deps, now);
  if ('missing' in conn) throw new RetryAfter(600, `cannot reach MyInvois: ${conn.missing}`, { orBackoff: true });
  const rows = await db.transaction((tx) => claimEinvoices(tx, { organizationId, states: ['valid'], limit: BATCH_LIMIT, cancelRequested: true }));
  let done = 0;
  for (const row of rows) {
    const memberId = row.cancelRequestedBy ?? row.requestedBy;
    try {
      await conn.client.cancelDocument(row.uuid!, row.cancelReason ?? 'Cancelled by the issuer');
    } catch (error) {
      if (!(error instanceof MyInvoisError) || error.transient) throw error instanceof MyInvoisError && error.retryAfterSeconds ? new RetryAfter(error.retryAfterSeconds, 'LHDN asked to wait') : error;
      const errors = errorsOf(error.details, error.code ?? `http_${error.status}`, error.message);
      await onRow(db, row, 'valid', async (tx, current) => {
        await updateEinvoice(tx, { organizationId, id: row.id }, { cancelErrors: errors, cancelRequestedAt: null });
        await decide(tx, current, 'cancel_refused', memberId, now, `LHDN refused the cancellation: ${errors.map((e) => e.detail).join('; ')}`);
      });
      continue;
    }
    await onRow(db, row, 'valid', async (tx, current) => {
      await updateEinvoice(tx, { organizationId, id: row.id }, { state: 'cancelled', cancelledAt: now, cancelRequestedAt: null, nextPollAt: null });
      await decide(tx, current, 'cancel_confirmed', memberId, now, current.cancelReason ?? '');
    });
    done += 1;
  }
  return done;
}
