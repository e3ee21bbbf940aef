import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/**
 * Where e-mail leaves the service: an SMTP server (SMTP_URL, through nodemailer) or, on the embedded
 * database without one, `.eml` files under DATA_DIR/mail (open them in any mail program). The mail
 * job (src/services/mail/send-mail.ts) is the only caller; a failure it throws is retried by the job
 * table with backoff.
 */

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<id@host>`: one per message, the same on every attempt, so a receiver can tell a repeat. */
  messageId: string;
  /** The message's language (Content-Language). */
  language: string;
  /** Files sent with the message (a payment reminder's statement PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface MailTransport {
  /** What the start-up banner says about it. */
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

const headersOf = (mail: OutgoingMail) => ({
  from: mail.from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: mail.messageId,
  headers: { 'Content-Language': mail.language, 'Auto-Submitted': 'auto-generated' },
  ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
});

/** The SMTP server of `url` (smtp://, smtps://), with bounded waits so a dead server fails the attempt. */
export function smtpTransport(url: string): MailTransport {
  // Bounded waits: a slow or dead server fails this attempt, and the job retries it later.
  const transporter = nodemailer.createTransport({ url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
  const shown = new URL(url);
  shown.password = shown.password ? '***' : '';
  return {
    description: `E-mail:   through ${shown.protocol}//${shown.host}`,
    async send(mail) {
      await transporter.sendMail(headersOf(mail));
    },
    close: () => transporter.close(),
  };
}

/** Each message a `.eml` file in `dir`, named by its time and Message-ID (written again on a retry, never twice). */
export function fileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `E-mail:   no SMTP_URL: messages are written as .eml files in ${dir}`,
    async send(mail) {
      const info = await transporter.sendMail(headersOf(mail));
      mkdirSync(dir, { recursive: true });
      const name = mail.messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_');
      writeFileSync(join(dir, `${name}.eml`), info.message as Buffer, { mode: 0o600 });
    },
    close: () => transporter.close(),
  };
}

/** A process without a way to send: every message is recorded as not sent (PostgreSQL without SMTP_URL). */
export function noTransport(): MailTransport {
  return {
    description: 'E-mail:   off (no SMTP_URL): invitations, password resets and notifications are not sent',
    async send() {
      throw new MailNotConfigured();
    },
    close: () => undefined,
  };
}

export class MailNotConfigured extends Error {
  constructor() {
    super('No SMTP_URL is configured: the message cannot be sent');
    this.name = 'MailNotConfigured';
  }
}

/** The process's transport: SMTP_URL, else files on the embedded database, else none. */
export function mailTransportOf(config: { SMTP_URL?: string; DATABASE_URL?: string; DATA_DIR: string }): MailTransport {
  if (config.SMTP_URL) return smtpTransport(config.SMTP_URL);
  if (!config.DATABASE_URL) return fileTransport(join(config.DATA_DIR, 'mail'));
  return noTransport();
}
