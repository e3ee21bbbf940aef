import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { claimListQuery, claimQuery, labelOf, memberNamesQuery, type ClaimListItem, type Descriptor } from '../../api/approvals';
import { isStale, problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc, write } from '../../api/trpc';
import { useDates } from '../../format/use-dates';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Money } from '../../ui/Money';
import { PageTitle } from '../layout';
import { BulkApproveDialog } from './bulk-approve';
import { ClaimLines, ClaimWarnings, Decisions, Signoffs, SignsList, useNameOf } from './claim-parts';
import { asksReason, ReasonDialog } from './decide';

/** The inbox's list: the claims the person may sign now, each with their share. */
export const INBOX_LIST = { scope: 'to_act' as const, limit: 100 };

/** Edges the inbox offers; paying and referring a difference belong to the payment queue. */
const PAYER_EDGES = new Set(['pay', 'refer_difference']);

/** A key press meant for the page, not typed into a field or a dialog. */
function isShortcut(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  const target = e.target as HTMLElement | null;
  if (!target) return true;
  if (target.closest('input, textarea, select, [contenteditable="true"], dialog')) return false;
  return true;
}

/** The route's screen (loaded when first visited): the claim selected is the `claim` search parameter. */
export function InboxRoute() {
  const search = useSearch({ strict: false }) as { claim?: string };
  return <InboxPage claimId={search.claim} />;
}

/**
 * The approver's inbox: the claims waiting for the person's signature, and beside them (below on a
 * phone) the one selected, reviewed: warnings first, the decisions the workflow offers, the shares
 * the person signs (and for whom), the sign-offs, the lines with their receipts. Keys: j and k move,
 * a approves, r returns (not while typing). After a decision the next claim is selected.
 */
export function InboxPage({ claimId }: { claimId?: string | undefined }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const list = useQuery(claimListQuery(INBOX_LIST));
  const claims = list.data?.claims ?? [];
  const selectedId = claimId && claims.some((c) => c.id === claimId) ? claimId : claimId ?? claims[0]?.id;
  const rows = useRef(new Map<string, HTMLButtonElement>());
  const actions = useRef<{ approve?: () => void; return?: () => void }>({});
  const [bulk, setBulk] = useState<Set<string>>(new Set());
  const [bulkOpen, setBulkOpen] = useState(false);

  const select = useCallback(
    (id: string | undefined, focus = false) => {
      void navigate({ to: '/inbox', search: id ? { claim: id } : {}, replace: true });
      if (focus && id) requestAnimationFrame(() => rows.current.get(id)?.focus());
    },
    [navigate],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isShortcut(e)) return;
      const index = claims.findIndex((c) => c.id === selectedId);
      if (e.key === 'j' || e.key === 'k') {
        e.preventDefault();
        const next = e.key === 'j' ? Math.min(claims.length - 1, index + 1) : Math.max(0, index - 1);
        select(claims[next]?.id, true);
      } else if (e.key === 'a' && actions.current.approve) {
        e.preventDefault();
        actions.current.approve();
      } else if (e.key === 'r' && actions.current.return) {
        e.preventDefault();
        actions.current.return();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [claims, selectedId, select]);

  /** After a decision on `id`: the claim after it in the list (else the one before), selected. */
  const afterDecision = (id: string) => {
    const index = claims.findIndex((c) => c.id === id);
    const rest = claims.filter((c) => c.id !== id);
    const next = rest[Math.min(index, rest.length - 1)];
    select(next?.id, true);
  };

  const toggle = (id: string) =>
    setBulk((all) => {
      const next = new Set(all);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <PageTitle intro={t('inbox.intro')}>{t('inbox.title')}</PageTitle>
      {list.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && claims.length === 0 ? <p className="text-slate-700">{t('inbox.empty')}</p> : null}
      {claims.length ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(18rem,1fr)_2fr]">
          <section aria-labelledby="inbox-list-title" className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="inbox-list-title" className="text-lg font-semibold">
                {t('inbox.toSign', { count: claims.length })}
              </h2>
              <Button variant="secondary" disabled={bulk.size === 0} onClick={() => setBulkOpen(true)}>
                {t('inbox.bulkApprove', { count: bulk.size })}
              </Button>
            </div>
            <p className="text-sm text-slate-700">{t('inbox.keysHint')}</p>
            <ul className="flex flex-col gap-2">
              {claims.map((c) => (
                <ClaimRow
                  key={c.id}
                  claim={c}
                  selected={c.id === selectedId}
                  checked={bulk.has(c.id)}
                  onToggle={() => toggle(c.id)}
                  onSelect={() => select(c.id)}
                  rowRef={(el) => {
                    if (el) rows.current.set(c.id, el);
                    else rows.current.delete(c.id);
                  }}
                />
              ))}
            </ul>
          </section>
          {selectedId ? <ReviewPane key={selectedId} id={selectedId} actions={actions} onDecided={() => afterDecision(selectedId)} /> : null}
        </div>
      ) : null}
      {bulkOpen ? (
        <BulkApproveDialog
          ids={[...bulk]}
          onClose={(approved) => {
            setBulkOpen(false);
            if (approved.length) setBulk(new Set());
          }}
        />
      ) : null}
    </>
  );
}

function ClaimRow({
  claim,
  selected,
  checked,
  onToggle,
  onSelect,
  rowRef,
}: {
  claim: ClaimListItem;
  selected: boolean;
  checked: boolean;
  onToggle: () => void;
  onSelect: () => void;
  rowRef: (el: HTMLButtonElement | null) => void;
}) {
  const { t } = useI18n();
  const { dateTime } = useDates();
  const names = useQuery(memberNamesQuery);
  const nameOf = useNameOf(names.data);
  return (
    <li className={`flex items-stretch gap-2 rounded-lg border bg-white ${selected ? 'border-blue-700 ring-2 ring-blue-700' : 'border-slate-300'}`}>
      <label className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center">
        <input type="checkbox" checked={checked} onChange={onToggle} className="h-5 w-5" aria-label={t('inbox.selectClaim', { reference: claim.reference })} />
      </label>
      <button
        ref={rowRef}
        type="button"
        data-claim-row={claim.id}
        aria-current={selected ? 'true' : undefined}
        onClick={onSelect}
        className="flex min-h-11 flex-1 flex-col items-start gap-0.5 rounded-r-lg px-2 py-2 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        <span className="flex w-full flex-wrap items-baseline justify-between gap-x-2">
          <span className="font-medium text-slate-900">{claim.reference}</span>
          {claim.your_share ? (
            <span className="text-sm text-slate-800">
              {t('inbox.yourShare')} <Money amount={claim.your_share} currency={claim.currency} className="font-semibold" />
            </span>
          ) : null}
        </span>
        <span className="text-slate-800">{claim.title}</span>
        <span className="text-sm text-slate-700">
          {nameOf(claim.claimant_member_id)}
          {claim.submitted_at ? ` · ${dateTime(claim.submitted_at)}` : ''}
        </span>
      </button>
    </li>
  );
}

/** The selected claim, reviewed, with the decisions the workflow offers the person. */
function ReviewPane({ id, actions, onDecided }: { id: string; actions: React.RefObject<{ approve?: () => void; return?: () => void }>; onDecided: () => void }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const toast = useToast();
  const claim = useQuery(claimQuery(id));
  const names = useQuery(memberNamesQuery);
  const nameOf = useNameOf(names.data);
  const [asking, setAsking] = useState<Descriptor>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'error' | 'warning'; text: string }>();
  const [reasonError, setReasonError] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);

  const answer = claim.data;
  const shown = (answer?.available_transitions ?? []).filter(
    (d) => !PAYER_EDGES.has(d.action_key) && (d.allowed || (d.refusal && d.refusal.code !== 'not_reporter')),
  );
  const approve = shown.find((d) => d.action_key === 'approve');

  const decide = async (d: Descriptor, reason?: string) => {
    if (!answer) return;
    setBusy(true);
    setReasonError(undefined);
    try {
      await trpc.expenses.claims.transition.mutate({ id, action_key: d.action_key, ...(reason ? { reason } : {}) }, write({ revision: answer.claim.revision }));
      setAsking(undefined);
      toast(t('inbox.decided', { action: labelOf(d.labels, language), reference: answer.claim.reference }));
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['expenses.claims.list'] }), queryClient.invalidateQueries({ queryKey: ['me.todo'] })]);
      void queryClient.invalidateQueries({ queryKey: ['expenses.claims.get', { id }] });
      onDecided();
    } catch (error) {
      const problem = problemOf(error);
      if (isStale(problem)) {
        setAsking(undefined);
        await claim.refetch();
        void queryClient.invalidateQueries({ queryKey: ['expenses.claims.list'] });
        setNotice({ tone: 'warning', text: t('problem.stale') });
        heading.current?.focus();
      } else {
        const atReason = problem.pointers.find((p) => p.pointer === '/reason');
        if (atReason && asking) setReasonError(atReason.detail);
        else {
          setAsking(undefined);
          setNotice({ tone: 'error', text: problemMessage(problem, t) });
        }
      }
    } finally {
      setBusy(false);
    }
  };

  const start = (d: Descriptor) => {
    setNotice(undefined);
    if (!d.allowed || busy) return;
    if (asksReason(d)) setAsking(d);
    else void decide(d);
  };

  // The page's keys reach this claim's approve and return buttons (registered after the previous
  // claim's pane let go of them).
  const returnEdge = shown.find((d) => d.action_key === 'return');
  const mine = useRef<{ approve?: () => void; return?: () => void }>({});
  mine.current = {
    ...(approve?.allowed ? { approve: () => start(approve) } : {}),
    ...(returnEdge?.allowed ? { return: () => start(returnEdge) } : {}),
  };
  useEffect(() => {
    const handlers = { approve: () => mine.current.approve?.(), return: () => mine.current.return?.() };
    actions.current = handlers;
    return () => {
      if (actions.current === handlers) actions.current = {};
    };
  }, [actions]);

  if (claim.isPending) return <p role="status">{t('app.loading')}</p>;
  if (claim.error || !answer) return <Alert tone="error">{problemMessage(problemOf(claim.error), t)}</Alert>;
  const c = answer.claim;
  const KEYS: Record<string, string> = { approve: 'a', return: 'r' };

  return (
    <section aria-labelledby="review-title" className="flex flex-col gap-5">
      <div>
        <h2 id="review-title" ref={heading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          {c.reference} · {c.title}
        </h2>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-700">
          <span>{nameOf(c.claimant_member_id)}</span>
          {c.claimant_unit_name ? <span>· {c.claimant_unit_name}</span> : null}
          <Badge>{c.state}</Badge>
          <span>
            {t('inbox.total')} <Money amount={c.total} currency={c.currency} className="font-semibold" />
          </span>
        </p>
      </div>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      <ClaimWarnings answer={answer} />
      <div className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-slate-50 p-4">
        {approve ? <SignsList descriptor={approve} nameOf={nameOf} currency={c.currency} /> : null}
        {shown.length ? (
          <div className="flex flex-wrap gap-2">
            {shown.map((d) => {
              const key = KEYS[d.action_key];
              return (
                <Button
                  key={d.action_key}
                  variant={d.action_key === 'approve' ? 'primary' : d.action_key === 'reject' ? 'danger' : 'secondary'}
                  disabled={!d.allowed}
                  busy={busy && !asking}
                  aria-keyshortcuts={key}
                  aria-describedby={d.refusal ? `refusal-${d.action_key}` : undefined}
                  onClick={() => start(d)}
                >
                  {labelOf(d.labels, language)}
                  {key && d.allowed ? (
                    <kbd className="rounded border border-current px-1 text-sm" aria-hidden="true">
                      {key}
                    </kbd>
                  ) : null}
                </Button>
              );
            })}
          </div>
        ) : (
          <p className="text-slate-700">{t('inbox.nothingToDecide')}</p>
        )}
        {shown
          .filter((d) => !d.allowed && d.refusal)
          .map((d) => (
            <p key={d.action_key} id={`refusal-${d.action_key}`} className="text-sm text-slate-800">
              {labelOf(d.labels, language)}: {d.refusal?.detail}
            </p>
          ))}
      </div>
      <Signoffs answer={answer} nameOf={nameOf} />
      <ClaimLines answer={answer} />
      <Decisions answer={answer} nameOf={nameOf} />
      <ReasonDialog
        descriptor={asking}
        busy={busy}
        serverError={reasonError}
        onClose={() => {
          setAsking(undefined);
          setReasonError(undefined);
        }}
        onConfirm={(reason) => asking && void decide(asking, reason)}
      />
    </section>
  );
}
