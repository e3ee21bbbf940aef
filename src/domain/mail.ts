/**
 * The e-mail the service sends people. Notifications each member may switch off in Me; invitations
 * and password resets always go (they answer the person's own request or an administrator's).
 */
export const NOTIFICATION_KINDS = [
  'signoff_requested',
  'claim_returned',
  'claim_rejected',
  'claim_paid',
  'einvoice_invalid',
  'einvoice_rejection_requested',
  'webhook_disabled',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const MAIL_KINDS = [...NOTIFICATION_KINDS, 'invitation', 'password_reset'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** The languages a member is written to in. */
export const MAIL_LANGUAGES = ['en', 'ms'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
