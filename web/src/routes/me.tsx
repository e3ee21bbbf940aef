import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { meQuery } from '../api/session';
import { useI18n, LANGUAGES, type Language, type MessageKey } from '../i18n';
import { PageTitle } from './layout';

const LANGUAGE_NAME: Record<Language, MessageKey> = { en: 'language.en', ms: 'language.ms' };
// The forms of Me load with the page, not with sign-in (which shows the language switch too).
const ChangePassword = lazy(() => import('./approver/me-sections').then((m) => ({ default: m.ChangePassword })));
const PayoutChannels = lazy(() => import('./approver/me-sections').then((m) => ({ default: m.PayoutChannels })));
const Delegations = lazy(() => import('./approver/me-sections').then((m) => ({ default: m.Delegations })));
const MailSettings = lazy(() => import('./account/me-mail').then((m) => ({ default: m.MailSettings })));

/** The console's language on this browser: a choice between English and Bahasa Malaysia. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { t, language, setLanguage } = useI18n();
  return (
    <fieldset className={compact ? 'flex items-center gap-2' : 'flex flex-col gap-2'}>
      <legend className={compact ? 'sr-only' : 'font-medium text-slate-900'}>{t('me.language')}</legend>
      {compact ? null : <p className="text-sm text-slate-600">{t('me.languageHint')}</p>}
      <div className="flex gap-2">
        {LANGUAGES.map((l: Language) => (
          <label
            key={l}
            className={`inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-700 ${language === l ? 'border-blue-700 bg-blue-50 text-blue-900' : 'border-slate-400 bg-white text-slate-900'}`}
          >
            <input type="radio" name="language" value={l} checked={language === l} onChange={() => setLanguage(l)} className="sr-only" />
            <span lang={l}>{t(LANGUAGE_NAME[l])}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Me: the person's own settings: language; payout channels (with expenses.payout_channel.manage);
 * delegations of their approval authority (with expenses.claim.approve); e-mail (language, kinds); the password.
 */
export function MePage() {
  const { t } = useI18n();
  const me = useQuery(meQuery);
  const permissions = new Set(me.data?.permissions ?? []);
  return (
    <>
      <PageTitle>{t('me.title')}</PageTitle>
      <div className="flex max-w-xl flex-col gap-10">
        <LanguageSwitch />
        <Suspense fallback={<p role="status">{t('app.loading')}</p>}>
          {permissions.has('expenses.payout_channel.manage') ? <PayoutChannels /> : null}
          {permissions.has('expenses.claim.approve') ? <Delegations /> : null}
          <MailSettings />
          <ChangePassword />
        </Suspense>
      </div>
    </>
  );
}
