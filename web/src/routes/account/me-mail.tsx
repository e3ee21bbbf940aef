import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc } from '../../api/trpc';
import { useI18n, type Language, type MessageKey } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';

type Settings = Awaited<ReturnType<typeof trpc.me.notifications.get.query>>;
type Kind = Settings['kinds'][number]['kind'];

export const mailSettingsQuery = { queryKey: ['me.notifications'], queryFn: () => trpc.me.notifications.get.query() };

const LANGUAGE_NAME: Record<Language, MessageKey> = { en: 'language.en', ms: 'language.ms' };

/** Each kind's words (a kind the server adds fails tsc here until it has them). */
const KIND_LABEL: Record<Kind, MessageKey> = {
  signoff_requested: 'account.mail.kind.signoff_requested',
  claim_returned: 'account.mail.kind.claim_returned',
  claim_rejected: 'account.mail.kind.claim_rejected',
  claim_paid: 'account.mail.kind.claim_paid',
  einvoice_invalid: 'account.mail.kind.einvoice_invalid',
  einvoice_rejection_requested: 'account.mail.kind.einvoice_rejection_requested',
  webhook_disabled: 'account.mail.kind.webhook_disabled',
};

/** Me → E-mail: the language messages are written in, and each notification kind on or off. */
export function MailSettings() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const settings = useQuery(mailSettingsQuery);
  const [language, setLanguage] = useState<Language>('en');
  const [enabled, setEnabled] = useState<Record<string, boolean>>({});
  const [state, setState] = useState<{ saving?: boolean; saved?: boolean; error?: string }>({});
  useEffect(() => {
    if (!settings.data) return;
    setLanguage(settings.data.language);
    setEnabled(Object.fromEntries(settings.data.kinds.map((k) => [k.kind, k.enabled])));
  }, [settings.data]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ saving: true });
    try {
      const kinds = (settings.data?.kinds ?? []).map((k) => ({ kind: k.kind, enabled: enabled[k.kind] ?? true }));
      const saved = await trpc.me.notifications.update.mutate({ language, kinds });
      queryClient.setQueryData(mailSettingsQuery.queryKey, saved);
      setState({ saved: true });
    } catch (error) {
      setState({ error: problemMessage(problemOf(error), t) });
    }
  };

  return (
    <section aria-labelledby="mail-title" className="flex flex-col gap-3">
      <h2 id="mail-title" className="text-lg font-semibold">
        {t('account.mail.title')}
      </h2>
      <p className="text-sm text-slate-600">{t('account.mail.intro')}</p>
      {settings.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {settings.error ? <Alert tone="error">{problemMessage(problemOf(settings.error), t)}</Alert> : null}
      {settings.data ? (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
          <SelectField label={t('account.mail.language')} name="mail_language" value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
            {(['en', 'ms'] as const).map((l) => (
              <option key={l} value={l} lang={l}>
                {t(LANGUAGE_NAME[l])}
              </option>
            ))}
          </SelectField>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium text-slate-900">{t('account.mail.kinds')}</legend>
            {settings.data.kinds.map(({ kind }) => (
              <label key={kind} className="flex min-h-11 cursor-pointer items-center gap-3">
                <input
                  type="checkbox"
                  name={kind}
                  checked={enabled[kind] ?? true}
                  onChange={(e) => setEnabled((v) => ({ ...v, [kind]: e.target.checked }))}
                  className="size-5 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                />
                <span>{t(KIND_LABEL[kind as Kind])}</span>
              </label>
            ))}
          </fieldset>
          {state.error ? <Alert tone="error">{state.error}</Alert> : null}
          {state.saved ? <Alert tone="success">{t('account.mail.saved')}</Alert> : null}
          <div>
            <Button type="submit" busy={state.saving}>
              {t('account.mail.save')}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
