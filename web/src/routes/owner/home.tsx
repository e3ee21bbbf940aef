import { useQuery } from '@tanstack/react-query';
import { Link, type LinkProps } from '@tanstack/react-router';
import { meQuery } from '../../api/session';
import { useI18n, type MessageKey } from '../../i18n';
import { PageTitle } from '../layout';
import { FAMILY_GROUPS, FAMILY_KEYS, familyOf } from './reference/families';

interface Screen {
  to: LinkProps['to'];
  params?: Record<string, string>;
  title: MessageKey;
  intro: MessageKey;
  permission?: string;
}

const SCREENS: Screen[] = [
  { to: '/settings/organization', title: 'settings.profile.title', intro: 'settings.profile.intro' },
  { to: '/settings/members', title: 'settings.members.title', intro: 'settings.members.intro' },
  { to: '/settings/roles', title: 'settings.roles.title', intro: 'settings.roles.intro' },
  { to: '/settings/einvoicing', title: 'settings.einvoicing.title', intro: 'settings.einvoicing.intro' },
  { to: '/settings/collections', title: 'settings.collections.title', intro: 'settings.collections.intro' },
  { to: '/settings/keys', title: 'settings.keys.title', intro: 'settings.keys.intro', permission: 'organization.members.manage' },
  { to: '/settings/webhooks', title: 'webhooks.title', intro: 'webhooks.intro', permission: 'organization.webhooks.manage' },
  { to: '/settings/history', title: 'settings.history.title', intro: 'settings.history.intro' },
];

const linkClass =
  'block rounded-lg border border-slate-300 bg-white p-4 text-slate-900 hover:border-blue-700 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

/**
 * Where the owner starts: the set-up checklist (what is missing, each item linking to the screen that
 * fixes it), then every settings screen by group.
 */
export function SettingsHome({ checklist }: { checklist?: React.ReactNode }) {
  const { t } = useI18n();
  const me = useQuery(meQuery);
  const permissions = new Set(me.data?.permissions ?? []);
  return (
    <>
      <PageTitle intro={t('settings.intro')}>{t('settings.title')}</PageTitle>
      {checklist}
      <section aria-labelledby="settings-screens-title" className="mt-8 flex flex-col gap-6">
        <h2 id="settings-screens-title" className="text-xl font-semibold">
          {t('settings.screens')}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {SCREENS.filter((s) => !s.permission || permissions.has(s.permission)).map((s) => (
            <li key={s.title}>
              <Link to={s.to} className={linkClass}>
                <span className="block font-semibold text-blue-800 underline underline-offset-2">{t(s.title)}</span>
                <span className="mt-1 block text-sm text-slate-700">{t(s.intro)}</span>
              </Link>
            </li>
          ))}
        </ul>
        {FAMILY_GROUPS.map((g) => (
          <section key={g.group} aria-labelledby={`group-${g.group}`} className="flex flex-col gap-3">
            <h3 id={`group-${g.group}`} className="text-lg font-semibold">
              {t(g.title)}
            </h3>
            <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {FAMILY_KEYS.map((k) => familyOf(k)!)
                .filter((f) => f.group === g.group)
                .map((f) => (
                  <li key={f.key}>
                    <Link to="/settings/reference/$family" params={{ family: f.key }} className={linkClass}>
                      <span className="block font-semibold text-blue-800 underline underline-offset-2">{t(f.title)}</span>
                      <span className="mt-1 block text-sm text-slate-700">{t(f.intro)}</span>
                    </Link>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </section>
    </>
  );
}
