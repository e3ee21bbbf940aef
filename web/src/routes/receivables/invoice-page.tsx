import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { memberNamesQuery } from '../../api/approvals';
import { isStale, problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc, write } from '../../api/trpc';
import { useDates } from '../../format/use-dates';
import { formatDecimal } from '../../format/money';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { buttonClass, Button } from '../../ui/Button';
import { Money } from '../../ui/Money';
import { EinvoicePanel } from './einvoice-panel';
import { customerQuery, invoiceQuery, labelOf, type InvoiceAnswer, type InvoiceDescriptor } from './invoice-api';
import { invoiceStateLabel, invoiceStateTone, kindLabel } from './invoice-states';
import { DocumentReasonDialog } from './reason-dialog';

/** The keys of the status bar's actions (Odoo's habit): shown on the buttons, taken when no field has focus. */
export const HOTKEYS: Record<string, string> = { issue: 'i', discard: 'd', dispute: 'p', resolve: 'r', cancel: 'x', keep: 'k', edit: 'e', credit: 'n' };

/** A key press meant for the page, not typed into a field or a dialog. */
function isShortcut(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  const target = e.target as HTMLElement | null;
  return !target?.closest('input, textarea, select, [contenteditable="true"], dialog');
}

/**
 * A document: its state and totals, the status bar of the actions its workflow offers (from
 * available_transitions, each with its key), the e-invoice panel once issued, the lines, the
 * allocations, the attachments, the timeline and the PDF.
 */
export function InvoicePage({ invoiceId }: { invoiceId: string }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const doc = useQuery(invoiceQuery(invoiceId));
  const customer = useQuery({ ...customerQuery(doc.data?.customer_id ?? ''), enabled: Boolean(doc.data) });
  const { date } = useDates();
  const [asking, setAsking] = useState<InvoiceDescriptor>();
  const [busy, setBusy] = useState<string>();
  const [notice, setNotice] = useState<{ tone: 'error' | 'warning'; text: string }>();
  const [reasonError, setReasonError] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  const keys = useRef<Record<string, () => void>>({});

  const decide = async (d: InvoiceDescriptor, reason?: string) => {
    if (!doc.data) return;
    setBusy(d.action_key);
    setReasonError(undefined);
    try {
      const answer = await trpc.receivables.invoices.transition.mutate({ id: invoiceId, action_key: d.action_key, ...(reason ? { reason } : {}) }, write({ revision: doc.data.revision }));
      queryClient.setQueryData(invoiceQuery(invoiceId).queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: ['receivables.invoices.list'] });
      void queryClient.invalidateQueries({ queryKey: ['receivables.invoices.einvoice', { id: invoiceId }] });
      void queryClient.invalidateQueries({ queryKey: ['me.todo'] });
      setAsking(undefined);
      setNotice(undefined);
      toast(t('invoice.transitioned', { action: labelOf(d.labels, language), state: invoiceStateLabel(answer.state, t) }));
      heading.current?.focus();
    } catch (error) {
      const problem = problemOf(error);
      const atReason = problem.pointers.find((p) => p.pointer === '/reason');
      if (isStale(problem)) {
        setAsking(undefined);
        await queryClient.invalidateQueries({ queryKey: invoiceQuery(invoiceId).queryKey });
        setNotice({ tone: 'warning', text: t('problem.stale') });
      } else if (asking && (atReason || problem.code === 'sole_owner_reason_required')) {
        setReasonError(atReason?.detail ?? problem.detail);
      } else {
        setAsking(undefined);
        setNotice({ tone: 'error', text: problemMessage(problem, t) });
      }
    } finally {
      setBusy(undefined);
    }
  };
  const take = (d: InvoiceDescriptor) => {
    if (!d.allowed || busy) return;
    setNotice(undefined);
    if (d.requires_reason) setAsking(d);
    else void decide(d);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isShortcut(e)) return;
      const run = keys.current[e.key.toLowerCase()];
      if (run) {
        e.preventDefault();
        run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (doc.data) document.title = `${doc.data.reference ?? t('invoices.draftReference')} · ${t('app.name')}`;
  }, [doc.data, t]);

  if (doc.isPending) return <p role="status">{t('app.loading')}</p>;
  if (doc.error) return <Alert tone="error">{problemMessage(problemOf(doc.error), t)}</Alert>;
  const d = doc.data;
  const shown = d.available_transitions;
  const editable = d.semantic === 'draft';
  const creditable = d.kind === 'sales_invoice' && d.issued_at !== null;
  keys.current = {};
  for (const x of shown) {
    const key = HOTKEYS[x.action_key];
    if (key && x.allowed) keys.current[key] = () => take(x);
  }
  if (editable) keys.current[HOTKEYS.edit!] = () => void navigate({ to: '/invoices/$invoiceId/edit', params: { invoiceId } });
  if (creditable) keys.current[HOTKEYS.credit!] = () => void navigate({ to: '/invoices/new', search: { kind: 'customer_credit_note', original: invoiceId } });

  return (
    <>
      <nav aria-label={t('invoice.breadcrumb')} className="mb-2 text-sm">
        <Link to="/invoices" className="text-blue-800 underline">
          {t('invoices.title')}
        </Link>
      </nav>
      <div className="mb-4 flex flex-col gap-2">
        <p className="text-sm font-medium text-slate-700">{kindLabel(d.kind, t)}</p>
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold text-slate-900 focus:outline-none" data-testid="invoice-heading">
          {d.reference ?? t('invoices.draftReference')}
        </h1>
        <p className="text-slate-800">{customer.data?.legal_name ?? d.buyer?.name ?? '…'}</p>
        <div className="flex flex-wrap items-center gap-3">
          <Badge tone={invoiceStateTone(d.semantic)}>
            <span data-testid="invoice-state">{invoiceStateLabel(d.state, t)}</span>
          </Badge>
          <span className="text-sm text-slate-700">
            {d.issued_at ? t('invoices.issuedOn', { date: date(d.invoice_date) }) : t('invoices.preparedOn', { date: date(d.invoice_date) })} · {t('invoices.dueOn', { date: date(d.due_on) })}
          </span>
        </div>
      </div>
      {notice ? (
        <Alert tone={notice.tone} className="mb-4">
          {notice.text}
        </Alert>
      ) : null}
      <StatusBar doc={d} shown={shown} busy={busy} onTake={take} editable={editable} creditable={creditable} />
      <Amounts doc={d} />
      <EinvoicePanel doc={d} />
      <Lines doc={d} />
      <Allocations doc={d} />
      <Attachments doc={d} />
      <Timeline doc={d} />
      <DocumentReasonDialog
        descriptor={asking}
        busy={busy !== undefined}
        serverError={reasonError}
        onClose={() => {
          setAsking(undefined);
          setReasonError(undefined);
        }}
        onConfirm={(reason) => asking && void decide(asking, reason)}
      />
    </>
  );
}

function KeyHint({ k }: { k: string | undefined }) {
  if (!k) return null;
  return (
    <span aria-hidden="true" className="text-sm opacity-90">
      ({k.toUpperCase()})
    </span>
  );
}

/** The actions: the workflow's edges (a refused one disabled, with its refusal), editing a draft, notes against an invoice, the PDF. */
function StatusBar({ doc, shown, busy, onTake, editable, creditable }: { doc: InvoiceAnswer; shown: InvoiceDescriptor[]; busy: string | undefined; onTake: (d: InvoiceDescriptor) => void; editable: boolean; creditable: boolean }) {
  const { t, language } = useI18n();
  return (
    <section aria-labelledby="invoice-actions" className="mb-6 rounded-lg border border-slate-300 bg-slate-50 p-3">
      <h2 id="invoice-actions" className="sr-only">
        {t('invoice.actions')}
      </h2>
      <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap" data-testid="status-bar">
        {shown.map((x) => {
          const key = x.allowed ? HOTKEYS[x.action_key] : undefined;
          return (
            <li key={x.action_key} className="flex flex-col gap-1">
              <Button
                variant={x.action_key === 'issue' ? 'primary' : x.action_key === 'cancel' || x.action_key === 'discard' ? 'danger' : 'secondary'}
                disabled={!x.allowed}
                busy={busy === x.action_key}
                aria-keyshortcuts={key}
                aria-describedby={x.refusal ? `refusal-${x.action_key}` : undefined}
                data-action={x.action_key}
                onClick={() => onTake(x)}
              >
                {labelOf(x.labels, language)} <KeyHint k={key} />
              </Button>
              {x.refusal ? (
                <p id={`refusal-${x.action_key}`} className="max-w-md text-sm text-slate-800">
                  {x.refusal.detail}
                </p>
              ) : null}
            </li>
          );
        })}
        {editable ? (
          <li>
            <Link to="/invoices/$invoiceId/edit" params={{ invoiceId: doc.id }} className={buttonClass('secondary')} aria-keyshortcuts="e" data-action="edit">
              {t('invoice.edit')} <KeyHint k="e" />
            </Link>
          </li>
        ) : null}
        {creditable ? (
          <>
            <li>
              <Link to="/invoices/new" search={{ kind: 'customer_credit_note', original: doc.id }} className={buttonClass('secondary')} aria-keyshortcuts="n">
                {t('invoice.creditNote')} <KeyHint k="n" />
              </Link>
            </li>
            <li>
              <Link to="/invoices/new" search={{ kind: 'customer_debit_note', original: doc.id }} className={buttonClass('secondary')}>
                {t('invoice.debitNote')}
              </Link>
            </li>
          </>
        ) : null}
        {doc.reference ? (
          <li>
            <a href={`/v1/receivables/invoices/${doc.id}/pdf`} target="_blank" rel="noopener" className={buttonClass('ghost')} data-testid="pdf-link">
              {t('invoice.pdf')}
            </a>
          </li>
        ) : null}
      </ul>
    </section>
  );
}

function Amounts({ doc }: { doc: InvoiceAnswer }) {
  const { t } = useI18n();
  const c = doc.currency;
  return (
    <dl className="mb-6 grid max-w-lg grid-cols-[1fr_auto] gap-x-6 gap-y-1 rounded-lg border border-slate-300 bg-white p-4" data-testid="invoice-amounts">
      <dt>{t('editor.net')}</dt>
      <dd className="text-right">
        <Money amount={doc.net_total} currency={c} />
      </dd>
      <dt>{t('editor.tax')}</dt>
      <dd className="text-right">
        <Money amount={doc.tax_total} currency={c} />
      </dd>
      <dt className="font-semibold">{t('editor.gross')}</dt>
      <dd className="text-right text-lg font-semibold" data-amount="gross">
        <Money amount={doc.gross_amount} currency={c} />
      </dd>
      {doc.fx_rate !== '1' ? (
        <>
          <dt>{t('invoice.fxRate')}</dt>
          <dd className="text-right tabular-nums">{doc.fx_rate}</dd>
        </>
      ) : null}
      {doc.issued_at ? (
        <>
          <dt className="font-semibold">{t('invoices.outstanding')}</dt>
          <dd className="text-right font-semibold" data-amount="outstanding">
            <Money amount={doc.outstanding} currency={c} />
          </dd>
        </>
      ) : null}
      {doc.reason ? (
        <>
          <dt>{t('editor.reason')}</dt>
          <dd className="text-right">{doc.reason}</dd>
        </>
      ) : null}
    </dl>
  );
}

function Lines({ doc }: { doc: InvoiceAnswer }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="invoice-lines" className="mb-6">
      <h2 id="invoice-lines" className="mb-2 text-xl font-semibold">
        {t('editor.lines')}
      </h2>
      <ol className="flex flex-col gap-2" data-testid="invoice-lines">
        {doc.lines.map((l) => (
          <li key={l.id} className="grid gap-1 rounded-lg border border-slate-300 bg-white p-3 sm:grid-cols-[1fr_auto]">
            <div>
              <p className="font-medium">
                {l.line_no}. {l.description}
              </p>
              <p className="text-sm text-slate-700">
                {formatDecimal(l.quantity, locale)} {l.unit_code ?? ''} × {formatDecimal(l.unit_price, locale)}
                {/^0(\.0+)?$/.test(l.discount_amount) ? '' : ` − ${formatDecimal(l.discount_amount, locale)}`} · {l.tax_code} {l.tax_rate}% · {t('editor.classification')} {l.classification_code}
              </p>
            </div>
            <p className="text-right font-semibold">
              <Money amount={l.net_amount} currency={doc.currency} />
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Allocations({ doc }: { doc: InvoiceAnswer }) {
  const { t } = useI18n();
  const { date } = useDates();
  if (!doc.issued_at) return null;
  return (
    <section aria-labelledby="invoice-allocations" className="mb-6">
      <h2 id="invoice-allocations" className="mb-2 text-xl font-semibold">
        {t('invoice.allocations')}
      </h2>
      {doc.allocations.length === 0 ? <p className="text-slate-700">{t('invoice.noAllocations')}</p> : null}
      <ul className="flex flex-col gap-2" data-testid="invoice-allocations">
        {doc.allocations.map((a) => (
          <li key={a.id} className="flex flex-wrap justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 py-2">
            <span>
              {a.source_kind === 'receipt' ? t('invoice.allocationReceipt') : t('invoice.allocationCreditNote')} · {date(a.effective_on)}
              {a.reversed_by_id ? ` · ${t('invoice.reversed')}` : ''}
              {a.reverses_id ? ` · ${t('invoice.reversal')}` : ''}
            </span>
            <Money amount={a.amount} currency={a.currency} className={a.reversed_by_id ? 'line-through' : ''} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Attachments({ doc }: { doc: InvoiceAnswer }) {
  const { t } = useI18n();
  const files = useQueries({ queries: doc.attachment_ids.map((id) => ({ queryKey: ['documents.get', { id }], queryFn: () => trpc.documents.get.query({ id }), staleTime: 10 * 60_000 })) });
  if (doc.attachment_ids.length === 0) return null;
  return (
    <section aria-labelledby="invoice-attachments" className="mb-6">
      <h2 id="invoice-attachments" className="mb-2 text-xl font-semibold">
        {t('invoice.attachments')}
      </h2>
      <ul className="flex flex-col gap-1">
        {doc.attachment_ids.map((id, i) => (
          <li key={id}>
            <a href={`/v1/documents/${id}/content`} className="text-blue-800 underline">
              {files[i]?.data?.filename ?? t('invoice.attachmentN', { n: i + 1 })}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Timeline({ doc }: { doc: InvoiceAnswer }) {
  const { t } = useI18n();
  const { dateTime } = useDates();
  const names = useQuery(memberNamesQuery);
  const nameOf = (id: string) => names.data?.get(id) ?? t('invoice.someone');
  return (
    <section aria-labelledby="invoice-timeline" className="mb-6">
      <h2 id="invoice-timeline" className="mb-2 text-xl font-semibold">
        {t('invoice.timeline')}
      </h2>
      <ol className="flex flex-col gap-2 border-l-2 border-slate-300 pl-4" data-testid="invoice-timeline">
        <li>
          <p className="font-medium">{t('invoice.prepared')}</p>
          <p className="text-sm text-slate-700">
            {nameOf(doc.prepared_by)} · {dateTime(doc.created_at)}
          </p>
        </li>
        {doc.timeline.map((e, i) => (
          <li key={`${e.decided_at}-${i}`} data-timeline-action={e.action_key}>
            <p className="font-medium">{t('invoice.movedTo', { from: invoiceStateLabel(e.from, t), to: invoiceStateLabel(e.to, t) })}</p>
            <p className="text-sm text-slate-700">
              {nameOf(e.actor_member_id)} · {dateTime(e.decided_at)}
            </p>
            {e.reason ? (
              <p className="text-sm text-slate-800">
                <q>{e.reason}</q>
              </p>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
