import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  claimListQuery,
  claimPayoutChannelsQuery,
  claimQuery,
  labelOf,
  memberNamesQuery,
  uploadDocument,
  UploadError,
  type ClaimListItem,
  type Descriptor,
  type PayoutChannel,
} from '../../api/approvals';
import { isStale, problemOf, type ConsoleProblem } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc, write } from '../../api/trpc';
import { addDecimals } from '../../format/decimal';
import { useDates } from '../../format/use-dates';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Money } from '../../ui/Money';
import { channelLine, Settlements } from '../../claims/settlements';
import { PageTitle } from '../layout';
import { useNameOf } from './claim-parts';
import { ReasonDialog } from './decide';

const QUEUE = { scope: 'all' as const, state: 'approved', limit: 100 };
const PAID = { scope: 'all' as const, state: 'paid', limit: 100 };

/**
 * The payment queue: approved claims to pay, each through the claimant's chosen channel (or another
 * of their active ones), with an optional proof of payment; the totals to pay per channel; and the
 * claims paid, each with its masked settlement.
 */
export function PaymentsPage() {
  const { t } = useI18n();
  const [view, setView] = useState<'queue' | 'paid'>('queue');
  return (
    <>
      <PageTitle intro={t('payments.intro')}>{t('payments.title')}</PageTitle>
      <div role="group" aria-label={t('payments.view')} className="mb-4 flex gap-2">
        <Button variant={view === 'queue' ? 'primary' : 'secondary'} aria-pressed={view === 'queue'} onClick={() => setView('queue')}>
          {t('payments.toPay')}
        </Button>
        <Button variant={view === 'paid' ? 'primary' : 'secondary'} aria-pressed={view === 'paid'} onClick={() => setView('paid')}>
          {t('payments.paid')}
        </Button>
      </div>
      {view === 'queue' ? <Queue /> : <PaidList />}
    </>
  );
}

function Queue() {
  const { t } = useI18n();
  const list = useQuery(claimListQuery(QUEUE));
  const claims = list.data?.claims ?? [];
  const channels = useQueries({ queries: claims.map((c) => claimPayoutChannelsQuery(c.id)) });
  // Totals per channel kind, of each claim through the channel its claimant chose.
  const totals = new Map<string, { amount: string; count: number; currency: string }>();
  claims.forEach((c, i) => {
    const answer = channels[i]?.data;
    if (!answer) return;
    const chosen = answer.items.find((x) => x.id === answer.preferred_channel_id);
    const key = chosen ? chosen.channel_key : 'none';
    const sum = totals.get(key) ?? { amount: '0', count: 0, currency: c.currency };
    totals.set(key, { amount: addDecimals(sum.amount, c.total), count: sum.count + 1, currency: c.currency });
  });
  return (
    <>
      {list.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && claims.length === 0 ? <p className="text-slate-700">{t('payments.empty')}</p> : null}
      {totals.size ? (
        <section aria-labelledby="totals-title" className="mb-6">
          <h2 id="totals-title" className="mb-2 text-lg font-semibold">
            {t('payments.totals')}
          </h2>
          <dl className="grid grid-cols-1 gap-2 sm:grid-cols-3">
            {[...totals].map(([key, sum]) => (
              <div key={key} className="rounded-md border border-slate-300 bg-white p-3">
                <dt className="text-sm text-slate-700">{t(key === 'bank_transfer' ? 'payments.channel.bank_transfer' : key === 'duitnow' ? 'payments.channel.duitnow' : 'payments.channel.none')}</dt>
                <dd className="text-lg font-semibold">
                  <Money amount={sum.amount} currency={sum.currency} /> <span className="text-sm font-normal text-slate-700">{t('payments.claimsCount', { count: sum.count })}</span>
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      <ul className="flex flex-col gap-4">
        {claims.map((c) => (
          <PayCard key={c.id} item={c} />
        ))}
      </ul>
    </>
  );
}

/** One approved claim: the channel to pay, the proof, the bank figures when a line was bank-charged; pay. */
function PayCard({ item }: { item: ClaimListItem }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const toast = useToast();
  const names = useQuery(memberNamesQuery);
  const nameOf = useNameOf(names.data);
  const claim = useQuery(claimQuery(item.id));
  const channels = useQuery(claimPayoutChannelsQuery(item.id));
  const [channelId, setChannelId] = useState<string>();
  const [proof, setProof] = useState<File>();
  const [bank, setBank] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [notice, setNotice] = useState<string>();
  const [referring, setReferring] = useState<Descriptor>();
  const [referError, setReferError] = useState<string>();

  const answer = claim.data;
  const chosen = channelId ?? channels.data?.preferred_channel_id ?? channels.data?.items[0]?.id;
  const bankLines = (answer?.lines ?? []).filter((l) => !l.withdrawn && l.reimbursement_basis === 'bank_charged');
  const pay = answer?.available_transitions.find((d) => d.action_key === 'pay');
  const refer = answer?.available_transitions.find((d) => d.action_key === 'refer_difference');
  const beyondTolerance = problem?.status === 422 && problem.pointers.some((p) => /^\/bank_charged_amounts\/\d+\/amount$/.test(p.pointer));
  const figures = () => bankLines.map((l) => ({ line_id: l.id, amount: (bank[l.id] ?? l.base_amount).trim() }));
  // A bank figure other than the approved amount changes what is paid, which the server works out: the button then names no amount.
  const figuresChanged = figures().some((f, i) => f.amount !== bankLines[i]!.base_amount);

  const onPay = async () => {
    if (!answer) return;
    setBusy(true);
    setProblem(undefined);
    setNotice(undefined);
    try {
      const proofId = proof ? (await uploadDocument(proof)).id : undefined;
      await trpc.expenses.claims.pay.mutate(
        { id: item.id, ...(chosen ? { channel_id: chosen } : {}), ...(proofId ? { proof_document_id: proofId } : {}), ...(bankLines.length ? { bank_charged_amounts: figures() } : {}) },
        write({ revision: answer.claim.revision }),
      );
      toast(t('payments.paidToast', { reference: answer.claim.reference }));
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['expenses.claims.list'] }), queryClient.invalidateQueries({ queryKey: ['me.todo'] })]);
      void queryClient.invalidateQueries({ queryKey: ['expenses.claims.get', { id: item.id }] });
    } catch (error) {
      if (error instanceof UploadError) {
        setNotice(t('payments.proofFailed', { detail: error.message }));
      } else {
        const p = problemOf(error);
        if (isStale(p)) {
          await claim.refetch();
          setNotice(t('problem.stale'));
        } else setProblem(p);
      }
    } finally {
      setBusy(false);
    }
  };

  const onRefer = async (reason: string) => {
    if (!answer) return;
    setBusy(true);
    setReferError(undefined);
    try {
      await trpc.expenses.claims.referDifference.mutate({ id: item.id, reason, bank_charged_amounts: figures() }, write({ revision: answer.claim.revision }));
      setReferring(undefined);
      setProblem(undefined);
      toast(t('payments.referred', { reference: answer.claim.reference }));
      await queryClient.invalidateQueries({ queryKey: ['expenses.claims.list'] });
    } catch (error) {
      const p = problemOf(error);
      const atReason = p.pointers.find((x) => x.pointer === '/reason');
      if (atReason) setReferError(atReason.detail);
      else {
        setReferring(undefined);
        setProblem(p);
      }
    } finally {
      setBusy(false);
    }
  };

  const lineError = (lineIndex: number) => problem?.pointers.find((p) => p.pointer === `/bank_charged_amounts/${lineIndex}/amount`)?.detail;
  const channelError = problem?.pointers.find((p) => p.pointer === '/channel_id')?.detail;

  return (
    <li className="rounded-lg border border-slate-300 bg-white p-4" data-pay-claim={item.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">
          {item.reference} · {item.title}
        </h2>
        <Money amount={item.total} currency={item.currency} className="text-lg font-semibold" />
      </div>
      <p className="text-slate-700">{nameOf(item.claimant_member_id)}</p>
      {notice ? (
        <Alert tone="warning" className="mt-3">
          {notice}
        </Alert>
      ) : null}
      {claim.isPending || channels.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {channels.data ? <ChannelChoice claimId={item.id} channels={channels.data} chosen={chosen} error={channelError} onChoose={setChannelId} /> : null}
      {bankLines.length ? <BankFigures lines={bankLines} figures={bank} errorOf={lineError} onChange={(lineId, value) => setBank((all) => ({ ...all, [lineId]: value }))} /> : null}
      <div className="mt-3">
        <label className="flex flex-col gap-1">
          <span className="font-medium">{t('payments.proof')}</span>
          <span className="text-sm text-slate-700">{t('payments.proofHint')}</span>
          <input type="file" accept="image/*,application/pdf" onChange={(e) => setProof(e.target.files?.[0])} className="min-h-11" />
        </label>
      </div>
      {problem && !beyondTolerance ? (
        <Alert tone="error" className="mt-3">
          {problemMessage(problem, t)}
        </Alert>
      ) : null}
      {beyondTolerance ? (
        <Alert tone="warning" className="mt-3">
          <p>{problem?.detail}</p>
          {refer?.allowed ? <p className="mt-1">{t('payments.referHint')}</p> : null}
        </Alert>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {pay ? (
          <Button disabled={!pay.allowed || !chosen} busy={busy} onClick={() => void onPay()}>
            {labelOf(pay.labels, language)} {figuresChanged ? null : <Money amount={item.total} currency={item.currency} />}
          </Button>
        ) : null}
        {beyondTolerance && refer?.allowed ? (
          <Button variant="secondary" onClick={() => setReferring(refer)}>
            {labelOf(refer.labels, language)}
          </Button>
        ) : null}
      </div>
      {pay && !pay.allowed && pay.refusal ? <p className="mt-2 text-sm text-slate-800">{pay.refusal.detail}</p> : null}
      <ReasonDialog descriptor={referring} busy={busy} serverError={referError} onClose={() => setReferring(undefined)} onConfirm={(reason) => void onRefer(reason)} />
    </li>
  );
}

/** The claimant's payout channels to pay through (the preferred one first chosen), or that there is none. */
function ChannelChoice({
  claimId,
  channels,
  chosen,
  error,
  onChoose,
}: {
  claimId: string;
  channels: { items: PayoutChannel[]; preferred_channel_id: string | null };
  chosen: string | undefined;
  error: string | undefined;
  onChoose: (id: string) => void;
}) {
  const { t } = useI18n();
  if (!channels.items.length) {
    return (
      <Alert tone="warning" className="mt-3">
        {t('payments.noChannel')}
      </Alert>
    );
  }
  return (
    <fieldset className="mt-3 flex flex-col gap-2">
      <legend className="font-medium">{t('payments.payTo')}</legend>
      {channels.items.map((ch) => (
        <label key={ch.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3 py-2 has-[:checked]:border-blue-700 has-[:checked]:bg-blue-50">
          <input type="radio" name={`channel-${claimId}`} value={ch.id} checked={chosen === ch.id} onChange={() => onChoose(ch.id)} className="h-5 w-5" />
          <span>
            <span className="font-medium">{ch.name}</span>
            {ch.id === channels.preferred_channel_id ? <span className="text-sm text-slate-700"> ({t('payments.preferred')})</span> : null}
            <span className="block text-sm text-slate-700">{channelLine(ch)}</span>
          </span>
        </label>
      ))}
      {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
    </fieldset>
  );
}

/** What the bank charged for each bank-charged line (its approved amount until changed), each with its refusal. */
function BankFigures({
  lines,
  figures,
  errorOf,
  onChange,
}: {
  lines: { id: string; line_no: number; description: string; base_amount: string }[];
  figures: Record<string, string>;
  errorOf: (lineIndex: number) => string | undefined;
  onChange: (lineId: string, value: string) => void;
}) {
  const { t } = useI18n();
  return (
    <fieldset className="mt-3 flex flex-col gap-2">
      <legend className="font-medium">{t('payments.bankFigures')}</legend>
      <p className="text-sm text-slate-700">{t('payments.bankFiguresHint')}</p>
      {lines.map((l, i) => (
        <TextField
          key={l.id}
          name={`bank_charged_amounts.${i}.amount`}
          inputMode="decimal"
          label={t('payments.bankFigureOf', { line: l.line_no, description: l.description })}
          value={figures[l.id] ?? l.base_amount}
          onChange={(e) => onChange(l.id, e.target.value)}
          error={errorOf(i)}
        />
      ))}
    </fieldset>
  );
}

function PaidList() {
  const { t } = useI18n();
  const list = useQuery(claimListQuery(PAID));
  const claims = list.data?.claims ?? [];
  return (
    <>
      {list.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && claims.length === 0 ? <p className="text-slate-700">{t('payments.nonePaid')}</p> : null}
      <ul className="flex flex-col gap-4">
        {claims.map((c) => (
          <PaidCard key={c.id} item={c} />
        ))}
      </ul>
    </>
  );
}

/** A paid claim with its settlement, masked: channel, account, amount, when, the proof. */
function PaidCard({ item }: { item: ClaimListItem }) {
  const { dateTime } = useDates();
  const names = useQuery(memberNamesQuery);
  const nameOf = useNameOf(names.data);
  const claim = useQuery(claimQuery(item.id));
  return (
    <li className="rounded-lg border border-slate-300 bg-white p-4" data-paid-claim={item.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">
          {item.reference} · {item.title}
        </h2>
        <Money amount={item.total} currency={item.currency} className="text-lg font-semibold" />
      </div>
      <p className="text-slate-700">{nameOf(item.claimant_member_id)}</p>
      {claim.data ? <Settlements answer={claim.data} dateTime={dateTime} nameOf={nameOf} /> : null}
    </li>
  );
}
