import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { meQuery } from '../../api/session';
import { problemOf, type ConsoleProblem } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc, write } from '../../api/trpc';
import { compareDecimals, isDecimal } from '../../format/decimal';
import { useDates } from '../../format/use-dates';
import { useI18n, type MessageKey } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Money } from '../../ui/Money';
import { PageTitle } from '../layout';
import { ACCOUNTS_KEY, LINES_KEY, NewAccountForm, UploadForm } from './account-forms';
import { bankStatementsRoute } from './routes';

type Line = Awaited<ReturnType<typeof trpc.receivables.bankStatements.lines.query>>['lines'][number];
type Suggestion = Line['suggestions'][number];
type Show = 'open' | 'matched' | 'ignored' | 'all';

const STATUS_TONE = { open: 'warning', matched: 'success', ignored: 'neutral' } as const;

export function BankStatementsRoute() {
  const search = bankStatementsRoute.useSearch();
  return <BankStatementsPage account={search.account} show={search.show ?? 'open'} />;
}

/**
 * Bank statements: choose (or add) a bank account, upload its CSV, then work through its lines:
 * each waiting credit with its suggested matches (accept one, split over several, ignore), and
 * matched or ignored lines with undo. The buttons are the line's available transitions.
 */
export function BankStatementsPage({ account, show }: { account: string | undefined; show: Show }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const me = useQuery(meQuery);
  const canWrite = Boolean(me.data?.permissions.includes('receivables.receipt.create'));
  const accounts = useQuery({ queryKey: ACCOUNTS_KEY, queryFn: () => trpc.receivables.bankStatements.listAccounts.query() });
  const items = accounts.data?.items ?? [];
  const current = items.find((a) => a.id === account) ?? items[0];
  const go = (next: { account?: string; show?: Show }) => void navigate({ to: '/bank-statements', search: { account: next.account ?? current?.id, show: next.show ?? show } });
  return (
    <>
      <PageTitle intro={t('bank.intro')}>{t('bank.title')}</PageTitle>
      {accounts.error ? <Alert tone="error">{problemMessage(problemOf(accounts.error), t)}</Alert> : null}
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="bank-lines-title" className="flex min-w-0 flex-col gap-3">
          {items.length ? (
            <SelectField label={t('bank.accounts')} name="account" value={current?.id ?? ''} onChange={(e) => go({ account: e.target.value })}>
              {items.map((a) => (
                <option key={a.id} value={a.id}>
                  {`${a.name} (${a.currency}) · ${t('bank.openCredits', { count: a.open_credits })}`}
                </option>
              ))}
            </SelectField>
          ) : accounts.data ? (
            <p className="text-slate-700">{t('bank.noAccounts')}</p>
          ) : null}
          <h2 id="bank-lines-title" className="text-lg font-semibold">
            {t('bank.lines')}
          </h2>
          {current ? <Lines accountId={current.id} show={show} canWrite={canWrite} onShow={(s) => go({ show: s })} /> : null}
        </section>
        {canWrite ? (
          <div className="flex flex-col gap-8">
            {current ? <UploadForm accountId={current.id} /> : null}
            <NewAccountForm onCreated={(id) => go({ account: id })} />
          </div>
        ) : null}
      </div>
    </>
  );
}

function Lines({ accountId, show, canWrite, onShow }: { accountId: string; show: Show; canWrite: boolean; onShow: (s: Show) => void }) {
  const { t } = useI18n();
  const lines = useInfiniteQuery({
    queryKey: [LINES_KEY, accountId, show],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      trpc.receivables.bankStatements.lines.query({ id: accountId, limit: 25, ...(show === 'all' ? {} : { status: show }), ...(show === 'open' ? { credits_only: true } : {}), ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const all = lines.data?.pages.flatMap((p) => p.lines) ?? [];
  return (
    <>
      <SelectField label={t('bank.show')} name="show" value={show} onChange={(e) => onShow(e.target.value as Show)}>
        {(['open', 'matched', 'ignored', 'all'] as const).map((s) => (
          <option key={s} value={s}>
            {t(`bank.show.${s}`)}
          </option>
        ))}
      </SelectField>
      {lines.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {lines.error ? <Alert tone="error">{problemMessage(problemOf(lines.error), t)}</Alert> : null}
      {lines.data && all.length === 0 ? <p className="text-slate-700">{t('bank.noLines')}</p> : null}
      <ul className="flex flex-col gap-3" data-testid="bank-lines">
        {all.map((l) => (
          <LineItem key={l.id} line={l} canWrite={canWrite} />
        ))}
      </ul>
      {lines.hasNextPage ? (
        <Button variant="secondary" busy={lines.isFetchingNextPage} onClick={() => void lines.fetchNextPage()} className="self-start">
          {t('bank.more')}
        </Button>
      ) : null}
    </>
  );
}

function LineItem({ line, canWrite }: { line: Line; canWrite: boolean }) {
  const { t } = useI18n();
  const { date } = useDates();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState<string>();
  const [splitting, setSplitting] = useState(false);
  const run = async (what: string, fn: () => Promise<unknown>, done: MessageKey) => {
    setBusy(what);
    setProblem(undefined);
    try {
      await fn();
      toast(t(done));
      setSplitting(false);
      await queryClient.invalidateQueries({ queryKey: [LINES_KEY, line.bank_account_id] });
      await queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(undefined);
    }
  };
  const accept = (body: { receipt_id?: string; allocations: { invoice_id: string; amount: string }[] }, what: string) =>
    run(what, () => trpc.receivables.bankStatements.accept.mutate({ id: line.id, ...body }, write()), 'bank.accepted');
  const can = (x: 'accept' | 'ignore' | 'undo') => canWrite && line.available_transitions.includes(x);
  const credit = compareDecimals(line.amount, '0') > 0;
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3" data-line-id={line.id} data-status={line.status}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 break-words font-semibold">
          {date(line.date)} · {line.description || line.reference}
        </h3>
        <Money amount={line.amount} currency={line.currency} className={credit ? 'font-semibold' : 'text-slate-700'} />
      </div>
      <p className="flex flex-wrap gap-2 text-sm text-slate-700">
        <Badge tone={STATUS_TONE[line.status]}>{t(`bank.status.${line.status}`)}</Badge>
        {line.reference ? <span>{`${t('bank.reference')}: ${line.reference}`}</span> : null}
        {!credit ? <span>{t('bank.debit')}</span> : null}
      </p>
      {line.status === 'open' && credit ? <Suggestions line={line} canAccept={can('accept')} busy={busy} onAccept={accept} /> : null}
      {splitting ? <SplitForm line={line} busy={busy === 'split'} onCancel={() => setSplitting(false)} onSplit={(allocations) => accept({ allocations }, 'split')} /> : null}
      {problem ? <Alert tone="error">{problem.pointers[0] && problem.code === 'validation' ? problem.pointers.map((p) => p.detail).join('; ') : problem.detail}</Alert> : null}
      <div className="flex flex-wrap gap-2" role="group" aria-label={t('bank.transitions', { date: date(line.date) })}>
        {can('accept') && !splitting ? (
          <Button variant="secondary" onClick={() => setSplitting(true)}>
            {t('bank.split')}
          </Button>
        ) : null}
        {can('ignore') ? (
          <Button variant="ghost" busy={busy === 'ignore'} onClick={() => void run('ignore', () => trpc.receivables.bankStatements.ignore.mutate({ id: line.id }, write()), 'bank.ignored')}>
            {t('bank.ignore')}
          </Button>
        ) : null}
        {can('undo') ? (
          <Button variant="secondary" busy={busy === 'undo'} onClick={() => void run('undo', () => trpc.receivables.bankStatements.undo.mutate({ id: line.id }, write()), 'bank.undone')}>
            {t('bank.undo')}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

const smaller = (a: string, b: string) => (compareDecimals(a, b) <= 0 ? a : b);

function Suggestions({ line, canAccept, busy, onAccept }: { line: Line; canAccept: boolean; busy: string | undefined; onAccept: (body: { receipt_id?: string; allocations: { invoice_id: string; amount: string }[] }, what: string) => void }) {
  const { t } = useI18n();
  const { date } = useDates();
  if (!line.suggestions.length) return <p className="text-sm text-slate-700">{t('bank.noSuggestions')}</p>;
  const label = (s: Suggestion) => (s.kind === 'receipt' ? t('bank.receipt', { reference: s.reference ?? '' }) : (s.reference ?? ''));
  return (
    <section aria-label={t('bank.suggestions')}>
      <h4 className="text-sm font-medium">{t('bank.suggestions')}</h4>
      <ol className="mt-1 flex flex-col gap-2" data-testid="suggestions">
        {line.suggestions.slice(0, 5).map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-50 p-2" data-suggestion-id={s.id}>
            <div className="min-w-0 text-sm">
              <p className="font-medium">
                {label(s)} · {s.customer_name}
              </p>
              <p className="text-slate-700">
                {t('bank.open', { amount: s.open_amount })}
                {s.due_on ? ` · ${t('bank.dueOn', { date: date(s.due_on) })}` : ''} · {t('bank.score', { score: s.score })}
              </p>
              <p className="text-slate-700">{s.reasons.map((r) => t(`bank.reason.${r}` as MessageKey)).join(', ')}</p>
            </div>
            {canAccept ? (
              <Button
                busy={busy === s.id}
                onClick={() =>
                  onAccept(s.kind === 'receipt' ? { receipt_id: s.id, allocations: [] } : { allocations: [{ invoice_id: s.id, amount: smaller(line.amount, s.open_amount) }] }, s.id)
                }
              >
                {t('bank.accept', { reference: label(s) })}
              </Button>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Splitting a credit over the suggested documents: an amount for each one it pays. */
function SplitForm({ line, busy, onCancel, onSplit }: { line: Line; busy: boolean; onCancel: () => void; onSplit: (allocations: { invoice_id: string; amount: string }[]) => void }) {
  const { t } = useI18n();
  const [error, setError] = useState<string>();
  const docs = line.suggestions.filter((s) => s.kind === 'document');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const allocations = docs.map((s) => ({ invoice_id: s.id, amount: String(form.get(`amount_${s.id}`) ?? '').trim() })).filter((a) => a.amount !== '');
    if (!allocations.length || allocations.some((a) => !isDecimal(a.amount))) return setError(t('bank.splitNone'));
    setError(undefined);
    onSplit(allocations);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 rounded-md border border-slate-300 p-3" aria-label={t('bank.splitTitle', { amount: line.amount })}>
      <p className="font-medium">{t('bank.splitTitle', { amount: line.amount })}</p>
      {docs.map((s) => (
        <TextField key={s.id} label={t('bank.splitAmount', { reference: s.reference ?? s.id })} name={`amount_${s.id}`} inputMode="decimal" hint={t('bank.open', { amount: s.open_amount })} />
      ))}
      {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={busy}>
          {t('bank.splitSend')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('bank.cancel')}
        </Button>
      </div>
    </form>
  );
}
