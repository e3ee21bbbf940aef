import { useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { loginInput } from '../../../src/contract/auth';
import { signIn } from '../api/session';
import { useSchemaForm } from '../forms/use-schema-form';
import { useI18n } from '../i18n';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { SelectField, TextField } from '../ui/Field';
import { LanguageSwitch } from './me';

interface Organization {
  id: string;
  name: string;
}

/**
 * Sign in with e-mail and password (the session becomes an HttpOnly cookie). A person of several
 * organizations is told so by the server (422 at /organization_id with the list) and picks one here.
 * Then on to `next` (where an expired session interrupted them) or To do.
 */
export function SignInPage({ next, expired }: { next?: string | undefined; expired?: boolean | undefined }) {
  const { t } = useI18n();
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useSchemaForm(loginInput, { defaultValues: { email: '', password: '' } });
  const heading = useRef<HTMLHeadingElement>(null);
  const organizations = (form.problem?.extensions.organizations as Organization[] | undefined) ?? undefined;
  useEffect(() => heading.current?.focus(), []);

  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    try {
      await signIn(values);
      queryClient.clear();
      router.history.push(next ?? '/');
    } catch (error) {
      form.showProblem(error);
    }
  });

  const problem = form.problem;
  const pickingOrganization = !!organizations?.length;
  const message = !problem
    ? undefined
    : problem.status === 401
      ? t('signIn.failed')
      : problem.status === 429
        ? t('signIn.rateLimited')
        : pickingOrganization
          ? undefined
          : form.formMessage;

  return (
    <main id="main" className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-6 px-4 py-8">
      <div className="flex justify-end">
        <LanguageSwitch compact />
      </div>
      <div>
        <p className="text-base font-medium text-slate-700">{t('app.name')}</p>
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold text-slate-900 focus:outline-none">
          {t('signIn.title')}
        </h1>
        <p className="mt-1 text-slate-700">{t('signIn.intro')}</p>
      </div>
      {expired && !problem ? <Alert tone="info">{t('signIn.expired')}</Alert> : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-5 shadow-sm">
        <TextField label={t('signIn.email')} type="email" autoComplete="username" inputMode="email" required error={form.formState.errors.email?.message} {...form.register('email')} />
        <TextField label={t('signIn.password')} type="password" autoComplete="current-password" required error={form.formState.errors.password?.message} {...form.register('password')} />
        {pickingOrganization ? (
          <SelectField label={t('signIn.organization')} hint={t('signIn.chooseOrganization')} required error={form.formState.errors.organization_id?.message} {...form.register('organization_id')}>
            {organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        {message ? <Alert tone="error">{message}</Alert> : null}
        <Button type="submit" busy={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('signIn.submitting') : t('signIn.submit')}
        </Button>
      </form>
      <Link to="/forgot-password" className="text-blue-800 underline">
        {t('account.forgot.link')}
      </Link>
    </main>
  );
}
