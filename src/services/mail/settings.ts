import { findMailSettings, updateMailSettings } from '../../db/queries/mail';
import { NOTIFICATION_KINDS, type MailLanguage, type NotificationKind } from '../../domain/mail';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';

/** me.notifications: the caller's e-mail language and which notification kinds reach them. */

type Row = { language: string; mailOff: string[] };

function view(row: Row) {
  return {
    language: (row.language === 'ms' ? 'ms' : 'en') as MailLanguage,
    kinds: NOTIFICATION_KINDS.map((kind) => ({ kind, enabled: !row.mailOff.includes(kind) })),
  };
}

export async function myMailSettings(ctx: ServiceContext) {
  const row = await findMailSettings(ctx.db, { organizationId: ctx.org.id, memberId: ctx.principal.memberId });
  if (!row) throw new AppError('unauthenticated', { detail: 'The member is no longer known' });
  return view(row);
}

/** Sets the language and switches the kinds named on or off; the kinds not named stay as they are. */
export async function updateMyMailSettings(ctx: ServiceContext, input: { language?: MailLanguage; kinds?: { kind: NotificationKind; enabled: boolean }[] }) {
  const current = await findMailSettings(ctx.db, { organizationId: ctx.org.id, memberId: ctx.principal.memberId });
  if (!current) throw new AppError('unauthenticated', { detail: 'The member is no longer known' });
  const off = new Set(current.mailOff);
  for (const k of input.kinds ?? []) {
    if (k.enabled) off.delete(k.kind);
    else off.add(k.kind);
  }
  const row = await updateMailSettings(ctx.db, {
    organizationId: ctx.org.id,
    memberId: ctx.principal.memberId,
    set: { ...(input.language ? { language: input.language } : {}), mailOff: NOTIFICATION_KINDS.filter((k) => off.has(k)) },
  });
  return view(row!);
}
