import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link, type LinkProps } from '@tanstack/react-router';
import { problemOf } from '../../api/problem';
import { trpc } from '../../api/trpc';
import { useI18n, type MessageKey } from '../../i18n';
import { Badge } from '../../ui/Badge';
import { SettingsHome } from './home';
import { ProblemAlert } from './shared';

export type Readiness = Awaited<ReturnType<typeof trpc.organization.readiness.query>>;
type AreaKey = Readiness['areas'][number]['key'];

export const readinessQuery = queryOptions({ queryKey: ['organization.readiness'], queryFn: () => trpc.organization.readiness.query() });

const AREA_TITLE: Record<AreaKey, MessageKey> = {
  invoicing: 'settings.checklist.area.invoicing',
  einvoicing: 'settings.checklist.area.einvoicing',
  claims: 'settings.checklist.area.claims',
};

/** Each item the server may list: its name in the person's language and the screen that fixes it. */
const ITEMS: Record<string, { title: MessageKey; to?: LinkProps['to']; family?: string }> = {
  'customers.any': { title: 'settings.checklist.item.customers', to: '/customers' },
  'accounts.any': { title: 'settings.checklist.item.accounts', family: 'accounts' },
  'tax_codes.any': { title: 'settings.checklist.item.taxCodes', family: 'taxCodes' },
  'members.issuer': { title: 'settings.checklist.item.issuer', to: '/settings/members' },
  'profile.seller_identity': { title: 'settings.checklist.item.sellerIdentity', to: '/settings/organization' },
  'einvoicing.credentials': { title: 'settings.checklist.item.credentials', to: '/settings/einvoicing' },
  'expense_categories.any': { title: 'settings.checklist.item.expenseCategories', family: 'expenseCategories' },
  'approvals.review': { title: 'settings.checklist.item.review', family: 'positionAssignments' },
  'approvals.finance': { title: 'settings.checklist.item.finance', family: 'approverAssignments' },
};

/**
 * The set-up checklist: the server's one readiness answer (what is missing before invoices can be
 * issued, e-invoicing turned on, claims approved), each item a link to the screen that fixes it.
 * The console decides nothing: done or not, and the sentence, are the server's.
 */
export function Checklist() {
  const { t } = useI18n();
  const readiness = useQuery(readinessQuery);
  return (
    <section aria-labelledby="checklist-title" className="flex flex-col gap-4" data-testid="checklist">
      <h2 id="checklist-title" className="text-xl font-semibold">
        {t('settings.checklist.title')}
      </h2>
      {readiness.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {readiness.error ? <ProblemAlert problem={problemOf(readiness.error)} /> : null}
      <div className="grid gap-4 lg:grid-cols-3">
        {readiness.data?.areas.map((area) => (
          <section key={area.key} aria-labelledby={`area-${area.key}`} className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4" data-area={area.key} data-ready={area.ready}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id={`area-${area.key}`} className="text-lg font-semibold">
                {t(AREA_TITLE[area.key])}
              </h3>
              <Badge tone={area.ready ? 'success' : 'warning'}>{area.ready ? t('settings.checklist.ready') : t('settings.checklist.notReady', { count: area.items.filter((i) => !i.done).length })}</Badge>
            </div>
            <ul className="flex flex-col gap-2">
              {area.items.map((item) => {
                const where = ITEMS[item.key];
                const title = where ? t(where.title) : item.key;
                return (
                  <li key={item.key} className="flex gap-2" data-item={item.key} data-done={item.done}>
                    <span aria-hidden="true" className={`mt-0.5 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-sm font-bold ${item.done ? 'bg-green-700 text-white' : 'border-2 border-amber-700 text-amber-800'}`}>
                      {item.done ? '✓' : '!'}
                    </span>
                    <div className="min-w-0">
                      <p className="font-medium">
                        <span className="sr-only">{item.done ? t('settings.checklist.done') : t('settings.checklist.todo')}: </span>
                        {where?.family && !item.done ? (
                          <Link to="/settings/reference/$family" params={{ family: where.family }} className="text-blue-800 underline underline-offset-2">
                            {title}
                          </Link>
                        ) : where?.to && !item.done ? (
                          <Link to={where.to} className="text-blue-800 underline underline-offset-2">
                            {title}
                          </Link>
                        ) : (
                          title
                        )}
                      </p>
                      <p className="text-sm text-slate-700">{item.detail}</p>
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}

/** /settings: the set-up checklist above the index of settings. */
export function SettingsLanding() {
  return <SettingsHome checklist={<Checklist />} />;
}
