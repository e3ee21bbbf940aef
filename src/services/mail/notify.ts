import type { Database } from '../../db/client';
import type { MailKind, NotificationKind } from '../../domain/mail';
import { enqueue } from '../../jobs/queue';

/**
 * Telling people by e-mail. A change calls `notify` in its own transaction: one mail job per
 * recipient is appended there (nothing is rendered or sent), so a rollback sends nothing and a slow
 * mail server never slows the decision. The job (send-mail.ts) reads the member's address, language
 * and switched-off kinds when it runs, writes the message and sends it.
 */

export const MAIL_JOB = 'mail.send';
/** Looks up who has an address and sends each their reset link (payload `{ email }`). */
export const PASSWORD_RESET_JOB = 'mail.password-reset';

/** What the mail job needs: ids only. */
export interface MailJobPayload {
  kind: MailKind;
  memberId: string;
  claimId?: string;
  documentId?: string;
  /** A webhook endpoint (webhook_disabled). */
  endpointId?: string;
  /** The one-time link of an invitation or a password reset. */
  linkId?: string;
  /** Who invited (invitations). */
  byMemberId?: string;
}

/** Attempts of one message before it is given up (dead): about a day with the job table's backoff. */
export const MAIL_MAX_ATTEMPTS = 12;

interface NotifyContext {
  db: Database;
  org: { id: string };
  now: Date;
}

/** Enqueues one message of `kind` to each member (once each), about a claim or a document. */
export async function notify(
  ctx: NotifyContext,
  kind: NotificationKind,
  q: { memberIds: readonly string[]; claimId?: string; documentId?: string; endpointId?: string; exceptMemberId?: string },
): Promise<void> {
  const to = [...new Set(q.memberIds)].filter((id) => id !== q.exceptMemberId);
  for (const memberId of to) {
    await enqueueMail(ctx, { kind, memberId, ...(q.claimId ? { claimId: q.claimId } : {}), ...(q.documentId ? { documentId: q.documentId } : {}), ...(q.endpointId ? { endpointId: q.endpointId } : {}) });
  }
}

/** One message's job, in the caller's transaction. */
export async function enqueueMail(ctx: NotifyContext, payload: MailJobPayload): Promise<void> {
  await enqueue(ctx.db, { kind: MAIL_JOB, payload, organizationId: ctx.org.id, now: ctx.now, maxAttempts: MAIL_MAX_ATTEMPTS });
}
