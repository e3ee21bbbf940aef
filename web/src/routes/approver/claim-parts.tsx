import { useState } from 'react';
import { documentContentUrl, type ClaimAnswer, type Descriptor } from '../../api/approvals';
import { useDates } from '../../format/use-dates';
import { useI18n, type MessageKey } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Money } from '../../ui/Money';

/**
 * Pieces of a claim as an approver or a payer reads it: what needs attention first (possible
 * duplicates, gaps in who may sign), the sign-offs, and the lines with their receipts beside them.
 */

type Gap = NonNullable<ClaimAnswer['signoffs'][number]['gap']>;

const GAP_TEXT: Record<Gap['reason'], MessageKey> = {
  member_inactive: 'gap.member_inactive',
  position_retired: 'gap.position_retired',
  vacant: 'gap.vacant',
  no_primary_position: 'gap.no_primary_position',
  no_unit_head: 'gap.no_unit_head',
  above_root: 'gap.above_root',
  only_the_claimant: 'gap.only_the_claimant',
  no_band_covers_amount: 'gap.no_band_covers_amount',
  unallocated: 'gap.unallocated',
  no_account_approver: 'gap.no_account_approver',
};

/** A member's name, or words that say it is someone the person may not look up. */
export function useNameOf(names: Map<string, string> | undefined) {
  const { t } = useI18n();
  return (id: string) => names?.get(id) ?? t('inbox.someoneElse');
}

/** Possible duplicates, gaps and other warnings: shown before anything else of the claim. */
export function ClaimWarnings({ answer }: { answer: ClaimAnswer }) {
  const { t } = useI18n();
  const items: string[] = [];
  for (const line of answer.lines) {
    if (line.withdrawn || !line.possible_duplicate) continue;
    items.push(
      line.duplicate_claim_references.length
        ? t('inbox.duplicateOf', { line: line.line_no, references: line.duplicate_claim_references.join(', ') })
        : t('inbox.duplicateUnknown', { line: line.line_no }),
    );
  }
  const gaps = new Set<string>();
  for (const s of answer.signoffs) if (s.gap) gaps.add(t('inbox.gapOn', { account: `${s.account_code} ${s.account_name}`, reason: t(GAP_TEXT[s.gap.reason]) }));
  for (const d of answer.available_transitions) for (const g of d.gaps ?? []) gaps.add(t(GAP_TEXT[g.reason]));
  items.push(...gaps);
  if (answer.claim.multiple_currencies) items.push(t('inbox.multipleCurrencies'));
  if (!items.length) return null;
  return (
    <Alert tone="warning">
      <h3 className="font-semibold">{t('inbox.attention')}</h3>
      <ul className="mt-1 list-disc pl-5">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </Alert>
  );
}

/** The shares the approve edge lets the person sign, each with whose authority ("acting for Aisha"). */
export function SignsList({ descriptor, nameOf, currency }: { descriptor: Descriptor; nameOf: (id: string) => string; currency: string }) {
  const { t } = useI18n();
  if (!descriptor.signs?.length) return null;
  return (
    <div className="text-sm text-slate-800">
      <p className="font-medium">{t('inbox.youSign')}</p>
      <ul className="mt-1 flex flex-col gap-1">
        {descriptor.signs.map((s) => (
          <li key={s.analytic_account_id} className="flex flex-wrap items-baseline gap-x-2">
            <span>
              {s.account_code} {s.account_name}
            </span>
            <Money amount={s.amount} currency={currency} className="font-medium" />
            {s.via === 'delegation' ? (
              <Badge tone="info">{t('inbox.actingFor', { name: nameOf(s.authority_member_id) })}</Badge>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The sign-offs of the current step: signed (by whom, for whom, when) or waiting (on whom, or the gap). */
export function Signoffs({ answer, nameOf }: { answer: ClaimAnswer; nameOf: (id: string) => string }) {
  const { t } = useI18n();
  const { dateTime } = useDates();
  if (!answer.signoffs.length) return null;
  return (
    <section aria-labelledby="signoffs-title" className="flex flex-col gap-2">
      <h3 id="signoffs-title" className="text-lg font-semibold">
        {t('inbox.signoffs')}
      </h3>
      <ul className="flex flex-col gap-2">
        {answer.signoffs.map((s) => (
          <li key={`${s.axis_id}-${s.analytic_account_id}`} className="rounded-md border border-slate-300 bg-white p-3">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-medium">
                {s.account_code} {s.account_name}
              </span>
              <Money amount={s.amount} currency={s.currency} />
            </div>
            {s.signed ? (
              <p className="text-sm text-green-800">
                {s.signed.via === 'delegation'
                  ? t('inbox.signedForBy', { name: nameOf(s.signed.actor_member_id), for: nameOf(s.signed.authority_member_id), at: dateTime(s.signed.decided_at) })
                  : t('inbox.signedBy', { name: nameOf(s.signed.actor_member_id), at: dateTime(s.signed.decided_at) })}
              </p>
            ) : s.gap ? (
              <p className="text-sm text-amber-900">{t(GAP_TEXT[s.gap.reason])}</p>
            ) : (
              <p className="text-sm text-slate-700">{t('inbox.waitingOn', { names: s.eligible.map(nameOf).join(', ') || '—' })}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A receipt: the image itself, or (a PDF, anything a browser cannot show as an image) a link to it. */
function Receipt({ id, lineNo }: { id: string; lineNo: number }) {
  const { t } = useI18n();
  const [asLink, setAsLink] = useState(false);
  const url = documentContentUrl(id);
  if (asLink) {
    return (
      <a href={url} className="inline-flex min-h-11 items-center text-blue-800 underline" target="_blank" rel="noreferrer">
        {t('inbox.openReceipt', { line: lineNo })}
      </a>
    );
  }
  return (
    <a href={url} target="_blank" rel="noreferrer" className="block">
      <img src={url} alt={t('inbox.receiptOf', { line: lineNo })} onError={() => setAsLink(true)} className="max-h-80 w-full rounded-md border border-slate-300 bg-white object-contain" loading="lazy" />
    </a>
  );
}

/** The claim's active lines, each with its receipts beside it. */
export function ClaimLines({ answer }: { answer: ClaimAnswer }) {
  const { t } = useI18n();
  const { date } = useDates();
  const lines = answer.lines.filter((l) => !l.withdrawn);
  return (
    <section aria-labelledby="lines-title" className="flex flex-col gap-3">
      <h3 id="lines-title" className="text-lg font-semibold">
        {t('inbox.lines')}
      </h3>
      <ul className="flex flex-col gap-3">
        {lines.map((line) => (
          <li key={line.id} className="grid gap-3 rounded-md border border-slate-300 bg-white p-3 md:grid-cols-2">
            <div className="flex flex-col gap-1">
              <p className="font-medium">
                {line.line_no}. {line.description}
              </p>
              <p className="text-sm text-slate-700">{date(line.expense_date)}</p>
              <p>
                <Money amount={line.amount} currency={line.currency} />
                {line.currency !== answer.claim.currency ? (
                  <span className="text-sm text-slate-700">
                    {' '}
                    (<Money amount={line.base_amount} currency={answer.claim.currency} />)
                  </span>
                ) : null}
              </p>
              {line.supplier_name ? <p className="text-sm text-slate-700">{line.supplier_name}</p> : null}
              {line.reimbursement_basis === 'bank_charged' ? <Badge tone="info">{t('payments.bankCharged')}</Badge> : null}
              {line.possible_duplicate ? <Badge tone="warning">{t('inbox.possibleDuplicate')}</Badge> : null}
            </div>
            <div className="flex flex-col gap-2">
              {line.documents.length ? line.documents.map((id) => <Receipt key={id} id={id} lineNo={line.line_no} />) : <p className="text-sm text-slate-700">{t('inbox.noReceipt')}</p>}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The decision log, oldest first. */
export function Decisions({ answer, nameOf }: { answer: ClaimAnswer; nameOf: (id: string) => string }) {
  const { t } = useI18n();
  const { dateTime } = useDates();
  if (!answer.decisions.length) return null;
  return (
    <section aria-labelledby="decisions-title" className="flex flex-col gap-2">
      <h3 id="decisions-title" className="text-lg font-semibold">
        {t('inbox.history')}
      </h3>
      <ol className="flex flex-col gap-1 text-sm">
        {answer.decisions.map((d, i) => (
          <li key={i}>
            {dateTime(d.decided_at)}: {d.via === 'delegation' ? t('inbox.decisionFor', { name: nameOf(d.actor_member_id), for: nameOf(d.authority_member_id) }) : nameOf(d.actor_member_id)} — {d.from} → {d.to}
            {d.reason ? <span className="text-slate-700"> “{d.reason}”</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
