import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, type LinkProps } from '@tanstack/react-router';
import { useState } from 'react';
import { meQuery, signOut } from '../api/session';
import { useI18n, type MessageKey } from '../i18n';
import { Button } from '../ui/Button';

interface NavItem {
  to: LinkProps['to'];
  label: MessageKey;
  /** Shown only to a person holding this permission. */
  permission?: string;
}

const NAV: NavItem[] = [
  { to: '/', label: 'nav.todo' },
  { to: '/claims', label: 'nav.claims', permission: 'expenses.claim.create' },
  { to: '/inbox', label: 'nav.inbox' },
  { to: '/payments', label: 'nav.payments', permission: 'expenses.claim.pay' },
  { to: '/invoices', label: 'nav.invoices', permission: 'receivables.invoice.read' },
  { to: '/customers', label: 'nav.customers', permission: 'receivables.customer.read' },
  { to: '/receipts', label: 'nav.receipts', permission: 'receivables.receipt.read' },
  { to: '/bank-statements', label: 'nav.bankStatements', permission: 'receivables.invoice.read' },
  { to: '/ageing', label: 'nav.ageing', permission: 'receivables.invoice.read' },
  { to: '/journal', label: 'nav.journal', permission: 'receivables.journal.export' },
  { to: '/settings', label: 'nav.settings', permission: 'organization.settings.read' },
  { to: '/me', label: 'nav.me' },
];

const navLink =
  'inline-flex min-h-11 items-center whitespace-nowrap rounded-md px-3 text-base font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';
const activeLink = 'bg-blue-50 text-blue-900 underline underline-offset-4';

/**
 * The signed-in frame: skip link, top bar (organization, person, sign out), navigation (a row under
 * the bar on a phone, beside the title on a wide screen), then the screen in <main>.
 */
export function AppLayout() {
  const { t } = useI18n();
  const me = useQuery(meQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const permissions = new Set(me.data?.permissions ?? []);
  const items = NAV.filter((item) => !item.permission || permissions.has(item.permission));

  const onSignOut = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } catch {
      // Already ended on the server: the person is signed out either way.
    }
    queryClient.clear();
    await navigate({ to: '/sign-in', search: {} });
  };

  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only rounded-md bg-white px-4 py-2 text-blue-800 focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50">
        {t('app.skipToContent')}
      </a>
      <header className="border-b border-slate-300 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <div className="min-w-0">
            <p className="truncate text-base font-semibold text-slate-900">{me.data?.organization.name ?? t('app.name')}</p>
            {me.data ? (
              <p className="truncate text-sm text-slate-600" title={t('nav.signedInAs', { name: me.data.member.name, organization: me.data.organization.name })}>
                {me.data.member.name}
              </p>
            ) : null}
          </div>
          <Button variant="secondary" onClick={onSignOut} busy={signingOut}>
            {t('nav.signOut')}
          </Button>
        </div>
        <nav aria-label={t('nav.label')} className="mx-auto max-w-6xl px-2 pb-2">
          <ul className="flex flex-wrap gap-1">
            {items.map((item) => (
              <li key={item.label}>
                <Link to={item.to} className={navLink} activeProps={{ className: activeLink, 'aria-current': 'page' }} activeOptions={{ exact: item.to === '/' }}>
                  {t(item.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 focus:outline-none">
        <Outlet />
      </main>
    </div>
  );
}

/** The heading every screen starts with (one h1 per page). */
export function PageTitle({ children, intro }: { children: React.ReactNode; intro?: React.ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-semibold text-slate-900">{children}</h1>
      {intro ? <p className="mt-1 text-slate-700">{intro}</p> : null}
    </div>
  );
}
