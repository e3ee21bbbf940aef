import { documentContentUrl, type ClaimAnswer } from '../api/approvals';
import { useI18n } from '../i18n';
import { Money } from '../ui/Money';

/** Masked fields of a channel, as one line ("Maybank · ••••••••5678"). */
export function channelLine(channel: { fields: { key: string; display: string }[] }): string {
  return channel.fields.map((f) => f.display).join(' · ');
}

/**
 * A claim's settlements, masked: the channel and account paid to, the amount, when and by whom, and
 * the proof of payment when one was attached. The payer's paid list and the claimant's claim show the same.
 */
export function Settlements({ answer, dateTime, nameOf }: { answer: ClaimAnswer; dateTime: (instant: string) => string; nameOf: (id: string) => string }) {
  const { t } = useI18n();
  return (
    <ul className="mt-2 flex flex-col gap-2" data-testid="settlements">
      {answer.settlements.map((s) => (
        <li key={s.id} className="rounded-md bg-green-50 p-3 text-green-900">
          <p className="font-medium">
            {t('payments.settledTo', { channel: s.channel_name })} <span data-settlement-account>{channelLine(s)}</span>
          </p>
          <p className="text-sm">
            <Money amount={s.amount} currency={s.currency} /> · {dateTime(s.settled_at)} · {t('payments.settledBy', { name: nameOf(s.settled_by) })}
          </p>
          {s.proof_document_id ? (
            <a href={documentContentUrl(s.proof_document_id)} className="inline-flex min-h-11 items-center text-blue-800 underline">
              {t('payments.proofLink')}
            </a>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
