import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { claimQuery, type ClaimAnswer } from '../../api/approvals';
import { problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc, write } from '../../api/trpc';
import { useI18n } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';

interface Sorted {
  allowed: ClaimAnswer[];
  refused: { answer: ClaimAnswer; detail: string }[];
}

/**
 * Approving several claims at once: each claim is read again and only those whose approve edge is
 * allowed for the person now are approved (with their own revision); the others are listed with the
 * refusal's detail and never sent.
 */
export function BulkApproveDialog({ ids, onClose }: { ids: string[]; onClose: (approved: string[]) => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [sorted, setSorted] = useState<Sorted>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ approved: string[]; failed: { reference: string; detail: string }[] }>();

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const answers = await Promise.all(ids.map((id) => queryClient.fetchQuery({ ...claimQuery(id), staleTime: 0 })));
        const next: Sorted = { allowed: [], refused: [] };
        for (const answer of answers) {
          const approve = answer.available_transitions.find((d) => d.action_key === 'approve');
          if (approve?.allowed) next.allowed.push(answer);
          else next.refused.push({ answer, detail: approve?.refusal?.detail ?? t('inbox.bulkNotOffered', { state: answer.claim.state }) });
        }
        if (live) setSorted(next);
      } catch (e) {
        if (live) setError(problemMessage(problemOf(e), t));
      }
    })();
    return () => {
      live = false;
    };
  }, [ids, queryClient, t]);

  const approveAll = async () => {
    if (!sorted) return;
    setBusy(true);
    const approved: string[] = [];
    const failed: { reference: string; detail: string }[] = [];
    for (const answer of sorted.allowed) {
      try {
        await trpc.expenses.claims.transition.mutate({ id: answer.claim.id, action_key: 'approve' }, write({ revision: answer.claim.revision }));
        approved.push(answer.claim.reference);
      } catch (e) {
        failed.push({ reference: answer.claim.reference, detail: problemMessage(problemOf(e), t) });
      }
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['expenses.claims.list'] }),
      queryClient.invalidateQueries({ queryKey: ['expenses.claims.get'] }),
      queryClient.invalidateQueries({ queryKey: ['me.todo'] }),
    ]);
    setBusy(false);
    setDone({ approved, failed });
  };

  const close = () => onClose(done?.approved ?? []);

  return (
    <Dialog open title={t('inbox.bulkTitle')} onClose={close}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {!sorted && !error ? <p role="status">{t('app.loading')}</p> : null}
      {sorted && !done ? (
        <div className="flex flex-col gap-4">
          {sorted.allowed.length ? (
            <div>
              <h3 className="font-semibold">{t('inbox.bulkWillApprove', { count: sorted.allowed.length })}</h3>
              <ul className="mt-1 list-disc pl-5" data-bulk="allowed">
                {sorted.allowed.map((a) => (
                  <li key={a.claim.id}>
                    {a.claim.reference} · {a.claim.title}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p>{t('inbox.bulkNone')}</p>
          )}
          {sorted.refused.length ? (
            <div>
              <h3 className="font-semibold">{t('inbox.bulkRefused', { count: sorted.refused.length })}</h3>
              <ul className="mt-1 list-disc pl-5" data-bulk="refused">
                {sorted.refused.map((r) => (
                  <li key={r.answer.claim.id}>
                    {r.answer.claim.reference}: {r.detail}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t('inbox.cancel')}
            </Button>
            <Button disabled={!sorted.allowed.length} busy={busy} onClick={() => void approveAll()}>
              {t('inbox.bulkConfirm', { count: sorted.allowed.length })}
            </Button>
          </div>
        </div>
      ) : null}
      {done ? (
        <div className="flex flex-col gap-3">
          {done.approved.length ? <Alert tone="success">{t('inbox.bulkDone', { references: done.approved.join(', ') })}</Alert> : null}
          {done.failed.length ? (
            <Alert tone="error">
              <ul>
                {done.failed.map((f) => (
                  <li key={f.reference}>
                    {f.reference}: {f.detail}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <div className="flex justify-end">
            <Button onClick={close}>{t('app.close')}</Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
