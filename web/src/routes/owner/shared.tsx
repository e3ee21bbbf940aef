import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { problemOf, type ConsoleProblem } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { useI18n, type MessageKey } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { PageTitle } from '../layout';

/** A keyset page as the set-up lists answer it. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * A set-up list read page by page (100 at a time, the lists' most): the items so far and a way to
 * read the next page while the server gives a cursor.
 */
export function usePagedList<T>(queryKey: QueryKey, fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return { query, items };
}

/** "Show more" under a paged list while the server has more. */
export function MoreButton({ list }: { list: ReturnType<typeof usePagedList<unknown>>['query'] }) {
  const { t } = useI18n();
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-3">
      <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {t('settings.more')}
      </Button>
    </div>
  );
}

/** The sentence of what to do for the refusals of the role editor (the server's detail says what happened). */
const WHAT_TO_DO: Record<string, MessageKey> = {
  owner_role_manage_required: 'settings.refusal.ownerRoleManageRequired',
  self_lockout: 'settings.refusal.selfLockout',
  person_required: 'settings.refusal.personRequired',
  company_group_creator_only: 'settings.refusal.companyGroupCreatorOnly',
};

/**
 * A problem no field carries: for the role editor's refusals, the server's detail and what to do
 * about it; for the rest, the form's message (fields at fault named on them) or the console's sentence.
 */
export function ProblemAlert({ problem, message }: { problem: ConsoleProblem | undefined; message?: string | undefined }) {
  const { t } = useI18n();
  if (!problem) return null;
  const todo = WHAT_TO_DO[problem.code];
  if (todo) {
    return (
      <Alert tone="error">
        <p className="font-medium" data-problem-code={problem.code}>
          {problem.detail}
        </p>
        <p className="mt-1">{t(todo)}</p>
      </Alert>
    );
  }
  return <Alert tone="error">{message ?? problemMessage(problem, t)}</Alert>;
}

/** A settings screen's heading with the way back to the settings' start. */
export function SettingsTitle({ children, intro }: { children: ReactNode; intro?: ReactNode }) {
  const { t } = useI18n();
  return (
    <>
      <p className="mb-2">
        <Link to="/settings" className="text-blue-800 underline underline-offset-2">
          {t('settings.back')}
        </Link>
      </p>
      <PageTitle intro={intro}>{children}</PageTitle>
    </>
  );
}

/**
 * A dialog that asks before one irreversible step (revoke, delete, deactivate): the step runs on the
 * confirm button, a refusal is shown in the dialog with the server's sentence, and `onRefused` lets
 * the screen read its list again (the record may have changed meanwhile).
 */
export function ConfirmDialog({
  open,
  title,
  warning,
  confirmLabel,
  onConfirm,
  onRefused,
  onClose,
}: {
  open: boolean;
  title: string;
  warning?: string;
  confirmLabel: string;
  /** The step itself; it throws the server's refusal. */
  onConfirm: () => Promise<void>;
  onRefused?: (problem: ConsoleProblem) => Promise<unknown> | void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const close = () => {
    setProblem(undefined);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await onConfirm();
      close();
    } catch (error) {
      const refused = problemOf(error);
      setProblem(refused);
      await onRefused?.(refused);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} title={title} onClose={close}>
      {warning ? <p>{warning}</p> : null}
      <ProblemAlert problem={problem} />
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" busy={busy} onClick={() => void confirm()}>
          {confirmLabel}
        </Button>
        <Button variant="secondary" onClick={close}>
          {t('settings.cancel')}
        </Button>
      </div>
    </Dialog>
  );
}
