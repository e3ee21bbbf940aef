import type { Database } from '../../db/client';
import { findClaimForMail, findDocumentForMail, findMailRecipient, findMembersByEmail } from '../../db/queries/mail';
import { NOTIFICATION_KINDS, type MailKind, type MailLanguage } from '../../domain/mail';
import type { MailTransport } from '../../integrations/mail';
import { issueLink, linkToken } from './links';
import { enqueueMail, type MailJobPayload } from './notify';
import { renderMail } from './templates';
import { findEndpoint } from '../../db/queries/webhooks';

/**
 * The mail job: one message to one member, written when it runs (the member's address and language
 * as they are then) and sent through the process's transport. Nothing is sent to a member who is
 * inactive, has no address or switched the kind off, nor for a link already used or expired; the
 * job is then done. A transport failure is thrown: the job table retries it with backoff. Each
 * message is its job, claimed by one process at a time (FOR UPDATE SKIP LOCKED), and keeps one
 * Message-ID on every attempt.
 */

export interface MailSettings {
  transport: MailTransport;
  from: string;
  /** The console's address, without a trailing slash. */
  baseUrl: string;
}

const SWITCHABLE = new Set<string>(NOTIFICATION_KINDS);

/** The console page a message links to. */
function pathOf(kind: MailKind, p: MailJobPayload, token?: string): string {
  switch (kind) {
    case 'signoff_requested':
      return `/inbox?claim=${p.claimId}`;
    case 'claim_returned':
    case 'claim_rejected':
    case 'claim_paid':
      return `/claims/${p.claimId}`;
    case 'einvoice_invalid':
    case 'einvoice_rejection_requested':
      return '/invoices?view=einvoice_attention';
    case 'webhook_disabled':
      return '/settings/webhooks';
    case 'invitation':
      return `/invitation/${token}`;
    case 'password_reset':
      return `/reset-password/${token}`;
  }
}

/** The values the message's words name, or undefined when its subject is gone (nothing to say). */
async function varsOf(db: Database, organizationId: string, p: MailJobPayload, organization: string): Promise<Record<string, string> | undefined> {
  if (p.claimId) {
    const claim = await findClaimForMail(db, { organizationId, id: p.claimId });
    return claim && { organization, reference: claim.reference, title: claim.title, claimant: claim.claimantName, reason: claim.reason ?? '' };
  }
  if (p.documentId) {
    const doc = await findDocumentForMail(db, { organizationId, id: p.documentId });
    return doc && { organization, reference: doc.reference ?? doc.id.slice(0, 8) };
  }
  if (p.endpointId) {
    const endpoint = await findEndpoint(db, { organizationId, id: p.endpointId });
    return endpoint && { organization, url: endpoint.url };
  }
  if (p.byMemberId) {
    const by = await findMailRecipient(db, { organizationId, memberId: p.byMemberId });
    return { organization, inviter: by?.name ?? organization };
  }
  return { organization };
}

export async function sendMailJob(settings: MailSettings, ctx: { db: Database; job: { id: string; organizationId: string | null; payload: unknown } }): Promise<void> {
  const p = ctx.job.payload as MailJobPayload;
  const organizationId = ctx.job.organizationId;
  if (!organizationId) return;
  const to = await findMailRecipient(ctx.db, { organizationId, memberId: p.memberId });
  if (!to?.active || !to.email) return;
  if (SWITCHABLE.has(p.kind) && to.mailOff.includes(p.kind)) return;
  if (p.kind === 'invitation' && to.hasPassword) return;
  const vars = await varsOf(ctx.db, organizationId, p, to.organizationName);
  if (!vars) return;
  const token = p.linkId ? await linkToken(ctx.db, p.linkId) : undefined;
  const language: MailLanguage = to.language === 'ms' ? 'ms' : 'en';
  const link = `${settings.baseUrl}${pathOf(p.kind, p, token)}`;
  const words = renderMail(p.kind, language, { name: to.name, link, vars, switchable: SWITCHABLE.has(p.kind) });
  await settings.transport.send({
    from: settings.from,
    to: to.email,
    ...words,
    messageId: `<${ctx.job.id}@${new URL(settings.baseUrl).hostname}>`,
    language,
  });
}

/**
 * The password reset job: a link and its message for each active member with the address (one per
 * organization), or nothing at all when nobody has it. The request answered the same either way.
 */
export async function passwordResetJob(ctx: { db: Database; now: Date; job: { payload: unknown } }): Promise<void> {
  const { email } = ctx.job.payload as { email: string };
  for (const m of await findMembersByEmail(ctx.db, { email })) {
    const link = await issueLink(ctx.db, { organizationId: m.organizationId, memberId: m.memberId, purpose: 'password_reset', now: ctx.now });
    await enqueueMail({ db: ctx.db, org: { id: m.organizationId }, now: ctx.now }, { kind: 'password_reset', memberId: m.memberId, linkId: link.id });
  }
}
