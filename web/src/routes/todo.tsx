import { useQuery } from '@tanstack/react-query';
import type { LinkProps } from '@tanstack/react-router';
import { problemOf } from '../api/problem';
import { problemMessage } from '../api/problem-message';
import { todoQuery, type TodoCounts } from '../api/session';
import { useI18n, type MessageKey } from '../i18n';
import { Alert } from '../ui/Alert';
import { Tile } from '../ui/Tile';
import { PageTitle } from './layout';
import { FiguresPanel } from './reports/figures-panel';

/** The counts of me.todo (not its currency, share total or cap). */
type CountKey = 'claims_to_sign' | 'claims_to_pay' | 'own_claims_returned' | 'drafts_to_issue' | 'einvoices_needing_attention' | 'overdue_invoices';

/** Each count of me.todo: its words and the screen where the work is. */
const TILES: { key: CountKey & keyof TodoCounts; label: MessageKey; to: LinkProps['to']; search?: LinkProps['search'] }[] = [
  { key: 'claims_to_sign', label: 'todo.claimsToSign', to: '/inbox' },
  { key: 'claims_to_pay', label: 'todo.claimsToPay', to: '/payments' },
  { key: 'own_claims_returned', label: 'todo.ownClaimsReturned', to: '/claims', search: { state: 'returned' } },
  { key: 'drafts_to_issue', label: 'todo.draftsToIssue', to: '/invoices', search: { view: 'drafts' } },
  { key: 'einvoices_needing_attention', label: 'todo.einvoicesNeedingAttention', to: '/invoices', search: { view: 'einvoice_attention' } },
  { key: 'overdue_invoices', label: 'todo.overdueInvoices', to: '/invoices', search: { view: 'overdue' } },
];

/** To do: the counts of what waits for the person; a count the person has no permission for is not shown. */
export function TodoPage() {
  const { t } = useI18n();
  const todo = useQuery(todoQuery);
  const tiles = todo.data ? TILES.filter((tile) => todo.data[tile.key] !== null) : [];
  const nothing = todo.data && tiles.every((tile) => todo.data[tile.key] === 0);
  return (
    <>
      <PageTitle intro={t('todo.intro')}>{t('todo.title')}</PageTitle>
      {todo.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {todo.error ? <Alert tone="error">{problemMessage(problemOf(todo.error), t)}</Alert> : null}
      {nothing ? <p className="mb-4 text-slate-700">{t('todo.nothing')}</p> : null}
      {tiles.length ? (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {tiles.map((tile) => (
            <li key={tile.key}>
              <Tile to={tile.to} search={tile.search} count={todo.data?.[tile.key] ?? 0} label={t(tile.label)} />
            </li>
          ))}
        </ul>
      ) : null}
      <FiguresPanel />
    </>
  );
}
