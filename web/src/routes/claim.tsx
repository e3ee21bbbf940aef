import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { claimQuery, lineReferenceQuery, memberNamesQuery, returnedBy, type ClaimAnswer, type ClaimLine, type LineReference, type TransitionDescriptor } from '../api/claims';
import { isStale, problemOf, type ConsoleProblem } from '../api/problem';
import { problemMessage } from '../api/problem-message';
import { trpc, write } from '../api/trpc';
import { LineForm } from '../claims/line-form';
import { Settlements } from '../claims/settlements';
import { claimStateLabel, claimStateTone } from '../claims/states';
import { formatDate, formatDateTime } from '../format/date';
import { formatDecimal } from '../format/money';
import { useDates } from '../format/use-dates';
import { useSchemaForm } from '../forms/use-schema-form';
import { useI18n, type Language } from '../i18n';
import { Alert, useToast } from '../ui/Alert';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Money } from '../ui/Money';
import { ReasonDialog as AskReason } from '../ui/ReasonDialog';
import { PageTitle } from './layout';

/** The label of a descriptor in the person's language (the server's words), English where it has none. */
export function descriptorLabel(d: TransitionDescriptor, language: Language): string {
  const labels = d.labels as Record<string, string | undefined>;
  return labels[language] ?? labels.en ?? d.action_key;
}

const newClaimForm = z.object({ title: z.string().trim().min(1, { message: 'required' }).max(200) });

/** A new claim: its title, then on to the claim, where the lines are added. */
export function NewClaimPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useSchemaForm(newClaimForm, { defaultValues: { title: '' } });
  const [key] = useState(() => crypto.randomUUID());
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      const answer = await trpc.expenses.claims.create.mutate({ title: values.title }, write({ idempotencyKey: key }));
      queryClient.setQueryData(claimQuery(answer.claim.id).queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: ['expenses.claims.list'] });
      await navigate({ to: '/claims/$claimId', params: { claimId: answer.claim.id } });
    } catch (error) {
      form.showProblem(error);
    }
  });
  return (
    <>
      <PageTitle intro={t('claimNew.intro')}>{t('claimNew.title')}</PageTitle>
      <form noValidate onSubmit={onSubmit} className="flex max-w-xl flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4 shadow-sm">
        <TextField
          label={t('claimNew.claimTitle')}
          hint={t('claimNew.claimTitleHint')}
          required
          autoComplete="off"
          error={form.formState.errors.title ? (form.formState.errors.title.type === 'server' ? form.formState.errors.title.message : t('claimNew.required')) : undefined}
          {...form.register('title')}
        />
        {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('claimNew.create')}
          </Button>
          <Link to="/claims" className="inline-flex min-h-11 items-center px-2 text-blue-800 underline">
            {t('claimNew.back')}
          </Link>
        </div>
      </form>
    </>
  );
}

type Notice = { tone: 'error' | 'warning'; message: string };

/**
 * What every write on the claim page does with its outcome: an answer becomes the claim shown (the
 * lists refreshed); a stale revision reloads the claim and says so; any other refusal is said as it is.
 */
function useClaimWrites(claimId: string, setNotice: (notice: Notice) => void) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const settle = (answer: ClaimAnswer) => {
    queryClient.setQueryData(claimQuery(claimId).queryKey, answer);
    void queryClient.invalidateQueries({ queryKey: ['expenses.claims.list'] });
    void queryClient.invalidateQueries({ queryKey: ['me.todo'] });
  };
  const failed = async (problem: ConsoleProblem) => {
    if (isStale(problem)) {
      await queryClient.invalidateQueries({ queryKey: claimQuery(claimId).queryKey });
      setNotice({ tone: 'warning', message: t('problem.stale') });
    } else setNotice({ tone: 'error', message: problemMessage(problem, t) });
  };
  return { settle, failed };
}

type Editing = { kind: 'new' } | { kind: 'line'; line: ClaimLine } | undefined;

/** A claim: who returned it and why (first), its state, total and actions, its lines, and the line form. */
export function ClaimPage({ claimId }: { claimId: string }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const claim = useQuery(claimQuery(claimId));
  const reference = useQuery(lineReferenceQuery);
  const members = useQuery(memberNamesQuery);
  const { dateTime } = useDates();
  const [editing, setEditing] = useState<Editing>();
  const [notice, setNotice] = useState<Notice>();
  const [asking, setAsking] = useState<TransitionDescriptor>();
  const heading = useRef<HTMLHeadingElement>(null);

  const { settle, failed } = useClaimWrites(claimId, setNotice);

  const transition = useMutation({
    mutationFn: ({ d, reason }: { d: TransitionDescriptor; reason?: string }) =>
      trpc.expenses.claims.transition.mutate({ id: claimId, action_key: d.action_key, ...(reason ? { reason } : {}) }, write({ revision: claim.data?.claim.revision ?? 0 })),
    onSuccess: (answer, { d }) => {
      settle(answer);
      setAsking(undefined);
      setNotice(undefined);
      toast(t('claim.transitioned', { action: descriptorLabel(d, language), state: claimStateLabel(answer.claim.state, t) }));
      heading.current?.focus();
    },
  });
  const withdrawLine = useMutation({
    mutationFn: (line: ClaimLine) => trpc.expenses.claims.lines.withdraw.mutate({ id: claimId, line_id: line.id }, write({ revision: claim.data?.claim.revision ?? 0 })),
    onSuccess: (answer) => {
      settle(answer);
      setNotice(undefined);
      toast(t('line.withdrawn'));
    },
    onError: (error) => void failed(problemOf(error)),
  });

  useEffect(() => {
    if (claim.data) document.title = `${claim.data.claim.reference} · ${t('app.name')}`;
  }, [claim.data, t]);

  if (claim.isPending) return <p role="status">{t('app.loading')}</p>;
  if (claim.error) return <Alert tone="error">{problemMessage(problemOf(claim.error), t)}</Alert>;
  const answer = claim.data;
  const c = answer.claim;
  const nameOf = (id: string) => members.data?.get(id) ?? (members.isPending ? '…' : t('claim.someone'));
  const editable = c.semantic === 'draft';
  const actions = answer.available_transitions.filter((d) => d.allowed || d.gate === 'reporter');
  const duplicates = answer.lines.filter((l) => !l.withdrawn && l.possible_duplicate);
  const active = answer.lines.filter((l) => !l.withdrawn);
  const withdrawn = answer.lines.filter((l) => l.withdrawn);

  const take = (d: TransitionDescriptor) => {
    setNotice(undefined);
    if (d.requires_reason) setAsking(d);
    else transition.mutate({ d }, { onError: (error) => void failed(problemOf(error)) });
  };

  const lineForm = (line?: ClaimLine) =>
    reference.data ? (
      <LineForm
        key={line?.id ?? 'new'}
        claim={answer}
        reference={reference.data}
        line={line}
        onSaved={(a) => {
          settle(a);
          setEditing(undefined);
          setNotice(undefined);
          toast(t(line ? 'line.saved' : 'line.added'));
        }}
        onStale={() => void failed({ status: 409, code: 'conflict', detail: '', pointers: [], extensions: {} })}
        onCancel={() => setEditing(undefined)}
      />
    ) : null;

  return (
    <>
      <ClaimHeader answer={answer} nameOf={nameOf} headingRef={heading} />

      {notice ? (
        <Alert tone={notice.tone} className="mb-4">
          {notice.message}
        </Alert>
      ) : null}

      {duplicates.length ? <DuplicatesAlert lines={duplicates} /> : null}

      {answer.settlements.length ? (
        <section aria-labelledby="claim-payment" className="mb-6">
          <h2 id="claim-payment" className="text-xl font-semibold">
            {t('claim.payment')}
          </h2>
          <Settlements answer={answer} dateTime={dateTime} nameOf={nameOf} />
        </section>
      ) : null}

      {actions.length ? <ClaimActions actions={actions} pendingKey={transition.isPending ? transition.variables?.d.action_key : undefined} onTake={take} /> : null}

      <section aria-labelledby="claim-lines">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="claim-lines" className="text-xl font-semibold">
            {t('claim.lines')}
          </h2>
          {editable && editing?.kind !== 'new' ? (
            <Button variant="secondary" onClick={() => setEditing({ kind: 'new' })} data-testid="add-line">
              {t('claim.addLine')}
            </Button>
          ) : null}
        </div>
        {editing?.kind === 'new' ? lineForm() : null}
        {editing && !reference.data ? <p role="status">{reference.error ? problemMessage(problemOf(reference.error), t) : t('app.loading')}</p> : null}
        {active.length === 0 && editing?.kind !== 'new' ? <p className="text-slate-700">{t('claim.noLines')}</p> : null}
        <ActiveLines
          lines={active}
          currency={c.currency}
          reference={reference.data}
          editable={editable}
          editingId={editing?.kind === 'line' && reference.data ? editing.line.id : undefined}
          withdrawingId={withdrawLine.isPending ? withdrawLine.variables?.id : undefined}
          lineForm={lineForm}
          onEdit={(line) => setEditing({ kind: 'line', line })}
          onWithdraw={(line) => withdrawLine.mutate(line)}
        />
        {withdrawn.length ? <WithdrawnLines lines={withdrawn} currency={c.currency} /> : null}
      </section>

      {answer.decisions.length ? <ClaimHistory decisions={answer.decisions} nameOf={nameOf} /> : null}

      <ReasonDialog
        descriptor={asking}
        language={language}
        busy={transition.isPending}
        onClose={() => setAsking(undefined)}
        onConfirm={(reason) =>
          asking &&
          transition.mutate(
            { d: asking, reason },
            {
              onError: (error) => {
                const problem = problemOf(error);
                if (isStale(problem)) setAsking(undefined);
                void failed(problem);
              },
            },
          )
        }
        error={asking && transition.error ? problemMessage(problemOf(transition.error), t) : undefined}
      />
    </>
  );
}

/** Who returned the claim and why (first on the page), the way back to the list, its reference, title, state and total. */
function ClaimHeader({ answer, nameOf, headingRef }: { answer: ClaimAnswer; nameOf: (id: string) => string; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const { t, locale } = useI18n();
  const c = answer.claim;
  const back = returnedBy(answer);
  return (
    <>
      {back ? (
        <div role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900" data-testid="returned-banner">
          <p className="font-semibold">{t('claim.returnedBy', { name: nameOf(back.actor_member_id), when: formatDateTime(back.decided_at, locale) })}</p>
          <p className="mt-1">
            <span className="font-medium">{t('claim.returnReason')}</span> <q>{back.reason}</q>
          </p>
        </div>
      ) : null}
      <nav aria-label={t('claim.breadcrumb')} className="mb-2 text-sm">
        <Link to="/claims" className="text-blue-800 underline">
          {t('claims.title')}
        </Link>
      </nav>
      <div className="mb-4 flex flex-col gap-2">
        <p className="text-sm font-medium text-slate-700">{c.reference}</p>
        <h1 ref={headingRef} tabIndex={-1} className="text-2xl font-semibold text-slate-900 focus:outline-none">
          {c.title}
        </h1>
        <div className="flex flex-wrap items-center gap-3">
          <Badge tone={claimStateTone(c.semantic)}>
            <span data-testid="claim-state">{claimStateLabel(c.state, t)}</span>
          </Badge>
          <span className="text-slate-700">
            {t('claim.total')}{' '}
            <strong className="text-lg text-slate-900" data-testid="claim-total">
              <Money amount={c.total} currency={c.currency} />
            </strong>
          </span>
        </div>
      </div>
    </>
  );
}

/** The active lines whose documents another claim holds too, each with the claims to look at. */
function DuplicatesAlert({ lines }: { lines: ClaimLine[] }) {
  const { t } = useI18n();
  return (
    <Alert tone="warning" className="mb-4">
      <p className="font-medium">{t('claim.duplicates', { count: lines.length })}</p>
      <ul className="list-disc pl-5">
        {lines.map((l) => (
          <li key={l.id}>
            {t('claim.duplicateLine', { line: l.line_no, description: l.description })}{' '}
            {l.duplicate_claim_references.map((ref, i) => (
              <span key={ref}>
                {i > 0 ? ', ' : ''}
                <Link to="/claims" search={{ q: ref }} className="underline">
                  {ref}
                </Link>
              </span>
            ))}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** The claim's transitions the caller may take (or is told why not), as the server describes them. */
function ClaimActions({ actions, pendingKey, onTake }: { actions: TransitionDescriptor[]; pendingKey: string | undefined; onTake: (d: TransitionDescriptor) => void }) {
  const { t, language } = useI18n();
  return (
    <section aria-labelledby="claim-actions" className="mb-6">
      <h2 id="claim-actions" className="sr-only">
        {t('claim.actions')}
      </h2>
      <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {actions.map((d) => (
          <li key={d.action_key} className="flex flex-col gap-1">
            <Button
              variant={d.action_key === 'cancel' ? 'secondary' : 'primary'}
              disabled={!d.allowed}
              busy={pendingKey === d.action_key}
              aria-describedby={d.refusal ? `refusal-${d.action_key}` : undefined}
              data-action={d.action_key}
              onClick={() => onTake(d)}
            >
              {descriptorLabel(d, language)}
            </Button>
            {d.refusal ? (
              <p id={`refusal-${d.action_key}`} className="max-w-md text-sm text-slate-700">
                {d.refusal.detail}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The active lines as cards (the one being edited as its form), with edit and withdraw on a draft. */
function ActiveLines({
  lines,
  currency,
  reference,
  editable,
  editingId,
  withdrawingId,
  lineForm,
  onEdit,
  onWithdraw,
}: {
  lines: ClaimLine[];
  currency: string;
  reference: LineReference | undefined;
  editable: boolean;
  editingId: string | undefined;
  withdrawingId: string | undefined;
  lineForm: (line: ClaimLine) => React.ReactNode;
  onEdit: (line: ClaimLine) => void;
  onWithdraw: (line: ClaimLine) => void;
}) {
  const { t } = useI18n();
  return (
    <ol className="flex flex-col gap-3" data-testid="claim-lines">
      {lines.map((line) =>
        editingId === line.id ? (
          <li key={line.id}>{lineForm(line)}</li>
        ) : (
          <li key={line.id}>
            <LineCard
              line={line}
              claimCurrency={currency}
              categoryName={reference?.categories.find((x) => x.id === line.category_id)?.name}
              accountName={(id) => reference?.accounts.find((a) => a.id === id)?.name ?? id}
              actions={
                editable ? (
                  <div className="mt-3 flex flex-wrap gap-2">
                    <Button variant="secondary" onClick={() => onEdit(line)} aria-label={t('line.editNamed', { line: line.line_no })}>
                      {t('line.edit')}
                    </Button>
                    <Button variant="ghost" busy={withdrawingId === line.id} onClick={() => onWithdraw(line)} aria-label={t('line.withdrawNamed', { line: line.line_no })}>
                      {t('line.withdraw')}
                    </Button>
                  </div>
                ) : null
              }
            />
          </li>
        ),
      )}
    </ol>
  );
}

/** The withdrawn lines, folded away under their count. */
function WithdrawnLines({ lines, currency }: { lines: ClaimLine[]; currency: string }) {
  const { t } = useI18n();
  return (
    <details className="mt-4">
      <summary className="cursor-pointer text-slate-700">{t('claim.withdrawnLines', { count: lines.length })}</summary>
      <ol className="mt-2 flex flex-col gap-2">
        {lines.map((line) => (
          <li key={line.id} className="text-slate-700">
            {line.line_no}. {line.description} <Money amount={line.base_amount} currency={currency} />
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Every decision on the claim, oldest first, with who took it and the reason given. */
function ClaimHistory({ decisions, nameOf }: { decisions: ClaimAnswer['decisions']; nameOf: (id: string) => string }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="claim-history" className="mt-8">
      <h2 id="claim-history" className="mb-2 text-xl font-semibold">
        {t('claim.history')}
      </h2>
      <ol className="flex flex-col gap-2 text-slate-800">
        {decisions.map((d, i) => (
          <li key={i}>
            <span className="font-medium">{formatDateTime(d.decided_at, locale)}</span> — {t('claim.decision', { name: nameOf(d.actor_member_id), from: claimStateLabel(d.from, t), to: claimStateLabel(d.to, t) })}
            {d.reason ? <span className="block text-slate-700">“{d.reason}”</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReasonDialog({
  descriptor,
  language,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  descriptor: TransitionDescriptor | undefined;
  language: Language;
  busy: boolean;
  error: string | undefined;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const { t } = useI18n();
  const label = descriptor ? descriptorLabel(descriptor, language) : '';
  return (
    <AskReason
      decision={descriptor?.action_key}
      title={label}
      label={t('claim.reason')}
      required
      requiredMessage={t('claim.reasonRequired')}
      confirmLabel={label}
      busy={busy}
      serverError={error}
      onClose={onClose}
      onConfirm={onConfirm}
    />
  );
}

const TYPE_LABEL = { receipt: 'lineType.receipt', mileage: 'lineType.mileage', per_diem: 'lineType.per_diem', advance_offset: 'lineType.advance_offset' } as const;

function LineCard({ line, claimCurrency, categoryName, accountName, actions }: { line: ClaimLine; claimCurrency: string; categoryName: string | undefined; accountName: (id: string) => string; actions: React.ReactNode }) {
  const { t, locale } = useI18n();
  return (
    <article className="rounded-lg border border-slate-300 bg-white p-4 shadow-sm" data-line-type={line.type}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="font-semibold">
          {line.line_no}. {line.description}
        </h3>
        <span className="text-lg font-semibold">
          <Money amount={line.base_amount} currency={claimCurrency} />
        </span>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-slate-700">
        <dt>{t('line.type')}</dt>
        <dd>{t(TYPE_LABEL[line.type])}</dd>
        <dt>{t('line.expenseDate')}</dt>
        <dd>{formatDate(line.expense_date, locale)}</dd>
        <dt>{t('line.category')}</dt>
        <dd>{categoryName ?? '—'}</dd>
        {line.currency !== claimCurrency ? (
          <>
            <dt>{t('line.amount')}</dt>
            <dd>
              <Money amount={line.amount} currency={line.currency} /> × {formatDecimal(line.fx_rate, locale)}
            </dd>
          </>
        ) : null}
        {line.type === 'mileage' || line.type === 'per_diem' ? (
          <>
            <dt>{line.type === 'mileage' ? t('line.km') : t('line.days')}</dt>
            <dd>
              {formatDecimal(line.quantity, locale)}
              {line.band ? ` (${line.band})` : ''}
            </dd>
          </>
        ) : null}
        {line.tax_amount !== '0' && line.tax_amount !== '0.00' && line.type === 'receipt' ? (
          <>
            <dt>{t('line.sst')}</dt>
            <dd>
              <Money amount={line.tax_amount} currency={line.currency} />
            </dd>
          </>
        ) : null}
        {line.supplier_name ? (
          <>
            <dt>{t('line.supplier')}</dt>
            <dd>{line.supplier_name}</dd>
          </>
        ) : null}
        {line.type === 'receipt' ? (
          <>
            <dt>{t('line.documentBasis')}</dt>
            <dd>
              {t(`basis.${line.document_basis}`)}
              {line.einvoice_uuid ? ` · ${line.einvoice_uuid}` : ''}
            </dd>
          </>
        ) : null}
        <dt>{t('line.shares')}</dt>
        <dd>{line.shares.length ? line.shares.map((s) => `${accountName(s.analytic_account_id)} ${formatDecimal(s.percentage, locale)}%`).join(', ') : t('line.noShares')}</dd>
        {line.documents.length ? (
          <>
            <dt>{t('line.documents')}</dt>
            <dd>{t('line.documentCount', { count: line.documents.length })}</dd>
          </>
        ) : null}
      </dl>
      {line.possible_duplicate ? (
        <p className="mt-2 text-sm font-medium text-amber-900">
          <Badge tone="warning">{t('line.possibleDuplicate')}</Badge>
        </p>
      ) : null}
      {actions}
    </article>
  );
}
