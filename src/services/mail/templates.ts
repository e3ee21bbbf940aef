import type { MailKind, MailLanguage } from '../../domain/mail';

/**
 * The words of each message, in English and Bahasa Malaysia: a subject, a greeting, one or two
 * sentences and the button's label, with `{name}` values filled in. Text and HTML are made from the
 * same words (the HTML escaped), so both parts say the same.
 */

export interface MailWords {
  subject: string;
  lines: string[];
  action: string;
}

type Vars = Record<string, string>;
type Template = (v: Vars) => MailWords;

const quoted = (reason: string, lead: string) => (reason.trim() ? [`${lead} “${reason.trim()}”`] : []);

const EN: Record<MailKind, Template> = {
  signoff_requested: (v) => ({
    subject: `Claim ${v.reference} waits for your approval`,
    lines: [`${v.claimant}'s claim ${v.reference} “${v.title}” waits for your sign-off in ${v.organization}.`],
    action: 'Open the claim',
  }),
  claim_returned: (v) => ({
    subject: `Your claim ${v.reference} was returned to you`,
    lines: [`Your claim ${v.reference} “${v.title}” was returned to you to change and submit again.`, ...quoted(v.reason ?? '', 'The reason given:')],
    action: 'Open the claim',
  }),
  claim_rejected: (v) => ({
    subject: `Your claim ${v.reference} was rejected`,
    lines: [`Your claim ${v.reference} “${v.title}” was rejected.`, ...quoted(v.reason ?? '', 'The reason given:')],
    action: 'Open the claim',
  }),
  claim_paid: (v) => ({
    subject: `Your claim ${v.reference} was paid`,
    lines: [`Your claim ${v.reference} “${v.title}” was paid.`],
    action: 'Open the claim',
  }),
  einvoice_invalid: (v) => ({
    subject: `LHDN found the e-invoice of ${v.reference} invalid`,
    lines: [`LHDN MyInvois found the e-invoice of ${v.reference} invalid. The document is back in draft: correct it and issue it again.`],
    action: 'Open the invoices needing attention',
  }),
  einvoice_rejection_requested: (v) => ({
    subject: `The buyer asked to reject the e-invoice of ${v.reference}`,
    lines: [`The buyer asked LHDN MyInvois to reject the e-invoice of ${v.reference}.`, ...quoted(v.reason ?? '', 'The reason given:')],
    action: 'Open the invoices needing attention',
  }),
  webhook_disabled: (v) => ({
    subject: `A webhook endpoint of ${v.organization} was turned off`,
    lines: [`Every delivery to ${v.url} has failed for 5 days, so it was turned off and events are no longer sent there.`, 'Check that the address answers, then turn the endpoint on again and send the failed deliveries again.'],
    action: 'Open the webhook endpoints',
  }),
  invitation: (v) => ({
    subject: `You are invited to ${v.organization}`,
    lines: [`${v.inviter} invited you to ${v.organization}'s finance console.`, 'Choose your password with the link below. It can be used once and works for 7 days.'],
    action: 'Accept the invitation',
  }),
  password_reset: (v) => ({
    subject: 'Reset your password',
    lines: [
      `Someone asked to reset the password of your account at ${v.organization}. If it was you, choose a new one with the link below: it can be used once and works for 1 hour.`,
      'If it was not you, ignore this message: your password stays as it is.',
    ],
    action: 'Choose a new password',
  }),
};

const MS: Record<MailKind, Template> = {
  signoff_requested: (v) => ({
    subject: `Tuntutan ${v.reference} menunggu kelulusan anda`,
    lines: [`Tuntutan ${v.reference} “${v.title}” oleh ${v.claimant} menunggu tandatangan anda di ${v.organization}.`],
    action: 'Buka tuntutan',
  }),
  claim_returned: (v) => ({
    subject: `Tuntutan anda ${v.reference} telah dikembalikan`,
    lines: [`Tuntutan anda ${v.reference} “${v.title}” telah dikembalikan kepada anda untuk dipinda dan dihantar semula.`, ...quoted(v.reason ?? '', 'Sebab yang diberi:')],
    action: 'Buka tuntutan',
  }),
  claim_rejected: (v) => ({
    subject: `Tuntutan anda ${v.reference} telah ditolak`,
    lines: [`Tuntutan anda ${v.reference} “${v.title}” telah ditolak.`, ...quoted(v.reason ?? '', 'Sebab yang diberi:')],
    action: 'Buka tuntutan',
  }),
  claim_paid: (v) => ({
    subject: `Tuntutan anda ${v.reference} telah dibayar`,
    lines: [`Tuntutan anda ${v.reference} “${v.title}” telah dibayar.`],
    action: 'Buka tuntutan',
  }),
  einvoice_invalid: (v) => ({
    subject: `LHDN mendapati e-invois ${v.reference} tidak sah`,
    lines: [`LHDN MyInvois mendapati e-invois ${v.reference} tidak sah. Dokumen itu kembali menjadi draf: betulkan dan keluarkan semula.`],
    action: 'Buka invois yang perlu perhatian',
  }),
  einvoice_rejection_requested: (v) => ({
    subject: `Pembeli meminta penolakan e-invois ${v.reference}`,
    lines: [`Pembeli telah meminta LHDN MyInvois menolak e-invois ${v.reference}.`, ...quoted(v.reason ?? '', 'Sebab yang diberi:')],
    action: 'Buka invois yang perlu perhatian',
  }),
  webhook_disabled: (v) => ({
    subject: `Satu titik akhir webhook ${v.organization} telah dimatikan`,
    lines: [`Setiap penghantaran ke ${v.url} telah gagal selama 5 hari, jadi ia dimatikan dan peristiwa tidak lagi dihantar ke sana.`, 'Pastikan alamat itu menjawab, kemudian hidupkan semula titik akhir itu dan hantar semula penghantaran yang gagal.'],
    action: 'Buka titik akhir webhook',
  }),
  invitation: (v) => ({
    subject: `Anda dijemput ke ${v.organization}`,
    lines: [`${v.inviter} menjemput anda ke konsol kewangan ${v.organization}.`, 'Pilih kata laluan anda melalui pautan di bawah. Pautan ini boleh digunakan sekali dan sah selama 7 hari.'],
    action: 'Terima jemputan',
  }),
  password_reset: (v) => ({
    subject: 'Tetapkan semula kata laluan anda',
    lines: [
      `Seseorang meminta untuk menetapkan semula kata laluan akaun anda di ${v.organization}. Jika itu anda, pilih kata laluan baharu melalui pautan di bawah: pautan ini boleh digunakan sekali dan sah selama 1 jam.`,
      'Jika bukan anda, abaikan mesej ini: kata laluan anda kekal seperti sedia ada.',
    ],
    action: 'Pilih kata laluan baharu',
  }),
};

const GREETING: Record<MailLanguage, (name: string) => string> = { en: (n) => `Hello ${n},`, ms: (n) => `Salam ${n},` };
const FOOTER: Record<MailLanguage, { link: string; off: string }> = {
  en: { link: 'Or open this address:', off: 'You can switch off this kind of message in the console, under Me.' },
  ms: { link: 'Atau buka alamat ini:', off: 'Anda boleh mematikan mesej jenis ini dalam konsol, di bawah Saya.' },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One message's subject, text and HTML in `language`, with its link. */
export function renderMail(kind: MailKind, language: MailLanguage, q: { name: string; link: string; vars: Vars; switchable: boolean }) {
  const words = (language === 'ms' ? MS : EN)[kind](q.vars);
  const footer = FOOTER[language];
  const greeting = GREETING[language](q.name);
  const text = [greeting, '', ...words.lines, '', `${words.action}: ${q.link}`, ...(q.switchable ? ['', footer.off] : []), ''].join('\n');
  const html = [
    `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">`,
    `<p>${escapeHtml(greeting)}</p>`,
    ...words.lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(q.link)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(words.action)}</a></p>`,
    `<p style="font-size:13px;color:#475569">${escapeHtml(footer.link)} ${escapeHtml(q.link)}</p>`,
    q.switchable ? `<p style="font-size:13px;color:#475569">${escapeHtml(footer.off)}</p>` : '',
    '</body></html>',
  ].join('\n');
  return { subject: words.subject, text, html };
}
