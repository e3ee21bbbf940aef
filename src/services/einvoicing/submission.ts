/**
 * The MyInvois work of one organization (MYINVOIS.md points 4–6), run by the jobs of
 * src/jobs/myinvois.ts, never inside a request:
 *
 * - submit: claim the queued rows (FOR UPDATE SKIP LOCKED), compose and store each document once
 *   (signed for 1.1), mark them `sending` and COMMIT, then send them in batches within LHDN's limits.
 *   A request whose outcome is unknown (timeout, 5xx, a lost answer, a crash) leaves its rows
 *   `sending`; the next run looks each one up at LHDN (search by its number since the request left)
 *   and adopts the UUID LHDN gave it, and only sends again what LHDN never received. A 429 puts the
 *   rows back in the queue and waits exactly `Retry-After`.
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
import type { Database } from '../../db/client';
import { claimEinvoices, findCurrentEinvoice, nextPollAt, updateEinvoice, type EinvoiceRow } from '../../db/queries/einvoices';
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
import { CANCEL_WINDOW_MS, enqueueMyinvois } from './outbox';

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
}

// ---------------------------------------------------------------------------------------------
// Submit

/**
 * Claims what is due: queued rows (composed now if they never were) and `sending` rows whose
 * request left more than SENDING_STALE_MS ago. Fresh rows are marked `sending` in the same commit.
 */
async function claimForSending(db: Database, organizationId: string, now: Date, conn: Connection): Promise<{ fresh: EinvoiceRow[]; stale: EinvoiceRow[] }> {
  return db.transaction(async (tx) => {
    const rows = await claimEinvoices(tx, { organizationId, states: ['queued', 'sending'], limit: BATCH_LIMIT, sendingBefore: new Date(now.getTime() - SENDING_STALE_MS) });
    const fresh: EinvoiceRow[] = [];
    const stale: EinvoiceRow[] = [];
    for (const row of rows) {
      if (row.state === 'sending') {
        stale.push(row);
        continue;
      }
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
    return { fresh, stale };
  });
}

/**
 * A `sending` row whose request's fate is unknown: found at LHDN (by its number, submitted since
 * the request left), it takes the UUID LHDN gave it; not found, it is sent again.
 */
async function recover(db: Database, client: MyInvoisClient, row: EinvoiceRow, now: Date): Promise<boolean> {
  const from = new Date((row.sendingAt ?? row.queuedAt).getTime() - 60_000);
  const found = (await client.searchDocuments({ searchQuery: row.codeNumber, invoiceDirection: 'Sent', submissionDateFrom: from.toISOString(), submissionDateTo: now.toISOString() })).filter(
    (d) => d.internalId === row.codeNumber,
  );
  // The latest LHDN has whose bytes are the row's (LHDN hides an invalid document's: then the
  // number and the time must do): an earlier attempt it found invalid does not stand for this one.
  let match: (typeof found)[number] | undefined;
  for (const candidate of found.sort((a, b) => Date.parse(b.dateTimeReceived) - Date.parse(a.dateTimeReceived))) {
    if (candidate.status === 'Invalid') {
      match = candidate;
      break;
    }
    const raw = await client.getDocumentRaw(candidate.uuid);
    if (raw.document === row.document) {
      match = candidate;
      break;
    }
  }
  if (!match) return false;
  await onRow(db, row, 'sending', async (tx) => {
    await updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, {
      state: 'submitted',
      uuid: match.uuid,
      submissionUid: match.submissionUid,
      submittedAt: new Date(match.dateTimeReceived),
      nextPollAt: now,
    });
  });
  return true;
}

/** Sends the organization's due documents; answers what happened. Throws RetryAfter to be run again. */
export async function submitDue(db: Database, organizationId: string, now: Date, deps: MyinvoisDeps): Promise<RunOutcome & { more: boolean }> {
  const outcome = { submitted: 0, valid: 0, invalid: 0, recovered: 0, more: false };
  const conn = await connectionFor(db, organizationId, deps, now);
  if ('missing' in conn) throw new RetryAfter(600, `cannot reach MyInvois: ${conn.missing}`, { orBackoff: true });
  const { fresh, stale } = await claimForSending(db, organizationId, now, conn);
  // A full claim: more may be waiting; the job runs again at once.
  outcome.more = fresh.length + stale.length >= BATCH_LIMIT;
  const toSend = [...fresh];
  for (const row of stale) {
    if (await recover(db, conn.client, row, now)) {
      outcome.recovered += 1;
      continue;
    }
    await updateEinvoice(db, { organizationId, id: row.id }, { sendingAt: now, sendAttempts: row.sendAttempts + 1 });
    toSend.push(row);
  }
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
      await onRow(db, row, 'sending', (tx) =>
        updateEinvoice(tx, { organizationId, id: row.id }, { state: 'submitted', uuid: accepted.uuid, submissionUid: answer.submissionUid, submittedAt: now, nextPollAt: pollAt }),
      );
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

/** A valid document, looked at for a buyer's rejection request (MYINVOIS.md point 6). */
async function watchRejection(db: Database, conn: Connection, row: EinvoiceRow, now: Date): Promise<void> {
  const details = await conn.client.getDocumentDetails(row.uuid!);
  await onRow(db, row, 'valid', async (tx, current) => {
    const next = current.validatedAt ? nextRejectionPoll(current.validatedAt, now) : null;
    if (details.rejectRequestDateTime && !current.rejectionRequestedAt) {
      const reason = details.documentStatusReason ?? '';
      await updateEinvoice(tx, { organizationId: row.organizationId, id: row.id }, { rejectionRequestedAt: new Date(details.rejectRequestDateTime), rejectionReason: reason, nextPollAt: next });
      await decide(tx, current, 'request_rejection', current.requestedBy, now, `The buyer asked LHDN to reject the document: ${reason}`);
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
