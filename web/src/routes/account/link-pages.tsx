import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { requestPasswordResetInput, useLinkInput } from '../../../../src/contract/auth';
import { problemOf } from '../../api/problem';
import { trpc } from '../../api/trpc';
import { useSchemaForm } from '../../forms/use-schema-form';
import { useI18n } from '../../i18n';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { LanguageSwitch } from '../me';

/**
 * The pages a person reaches from an e-mail, outside the signed-in area: accepting an invitation
 * and choosing a new password (each from a one-time link: the person sets a password and is signed
 * in), and asking for a reset link (the same answer for every address).
 */

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main id="main" className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-6 px-4 py-8">
      <div className="flex justify-end">
        <LanguageSwitch compact />
      </div>
      <div>
        <p className="text-base font-medium text-slate-700">{t('app.name')}</p>
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold text-slate-900 focus:outline-none">
          {title}
        </h1>
      </div>
      {children}
    </main>
  );
}

const passwordInput = useLinkInput.pick({ password: true });

/** /invitation/<token> and /reset-password/<token>: whose link it is, then the new password. */
export function LinkPasswordPage({ token, purpose }: { token: string; purpose: 'invitation' | 'password_reset' }) {
  const { t } = useI18n();
  const router = useRouter();
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: ['auth.readLink', token], queryFn: () => trpc.auth.readLink.query({ token }), retry: false, staleTime: Infinity });
  const form = useSchemaForm(passwordInput, { defaultValues: { password: '' } });
  const [gone, setGone] = useState<number>();
  const invitation = purpose === 'invitation';
  const title = invitation ? t('account.invitation.title', { organization: link.data?.organization.name ?? '' }) : t('account.reset.title');

  const onSubmit = form.handleSubmit(async ({ password }) => {
    form.clearProblem();
    try {
      const use = invitation ? trpc.auth.acceptInvitation : trpc.auth.resetPassword;
      await use.mutate({ token, password, cookie: true });
      queryClient.clear();
      router.history.push('/');
    } catch (error) {
      const problem = form.showProblem(error);
      if (problem.status === 410 || problem.status === 404) setGone(problem.status);
    }
  });

  const failed = gone ?? (link.error ? problemOf(link.error).status : undefined);
  if (link.isPending) return <Frame title={title}>{<p role="status">{t('app.loading')}</p>}</Frame>;
  if (failed === 410 || failed === 404 || (link.data && link.data.purpose !== purpose)) {
    return (
      <Frame title={invitation ? t('account.invitation.title', { organization: '' }).trim() : t('account.reset.title')}>
        <Alert tone="error">{failed === 410 ? t('account.link.expired') : t('account.link.unknown')}</Alert>
        <p className="flex flex-col gap-2">
          <Link to="/forgot-password" className="text-blue-800 underline">
            {t('account.link.askAgain')}
          </Link>
          <Link to="/sign-in" className="text-blue-800 underline">
            {t('account.link.toSignIn')}
          </Link>
        </p>
      </Frame>
    );
  }
  if (!link.data) return <Frame title={title}>{<Alert tone="error">{form.formMessage ?? problemOf(link.error).detail}</Alert>}</Frame>;
  const who = { name: link.data.member.name, email: link.data.member.email ?? '', organization: link.data.organization.name };
  return (
    <Frame title={title}>
      <p className="text-slate-700">{invitation ? t('account.invitation.intro', who) : t('account.reset.intro', who)}</p>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-5 shadow-sm">
        {/* The account's name for password managers. */}
        <input type="email" name="username" autoComplete="username" value={who.email} readOnly hidden />
        <TextField label={t('account.password')} hint={t('account.passwordHint')} type="password" autoComplete="new-password" required error={form.formState.errors.password?.message} {...form.register('password')} />
        {form.problem && !form.formState.errors.password ? <Alert tone="error">{form.formMessage}</Alert> : null}
        <Button type="submit" busy={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('account.submitting') : invitation ? t('account.invitation.submit') : t('account.reset.submit')}
        </Button>
      </form>
    </Frame>
  );
}

/** /forgot-password: an address in, the same answer out whoever has it. */
export function ForgotPasswordPage() {
  const { t } = useI18n();
  const form = useSchemaForm(requestPasswordResetInput, { defaultValues: { email: '' } });
  const [sent, setSent] = useState(false);
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    setSent(false);
    try {
      await trpc.auth.requestPasswordReset.mutate(values);
      setSent(true);
    } catch (error) {
      form.showProblem(error);
    }
  });
  const problem = form.problem;
  const message = !problem ? undefined : problem.status === 429 ? t('account.forgot.rateLimited') : form.formMessage;
  return (
    <Frame title={t('account.forgot.title')}>
      <p className="text-slate-700">{t('account.forgot.intro')}</p>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-5 shadow-sm">
        <TextField label={t('account.forgot.email')} type="email" autoComplete="username" inputMode="email" required error={form.formState.errors.email?.message} {...form.register('email')} />
        {message ? <Alert tone="error">{message}</Alert> : null}
        {sent ? <Alert tone="success">{t('account.forgot.sent')}</Alert> : null}
        <Button type="submit" busy={form.formState.isSubmitting}>
          {t('account.forgot.submit')}
        </Button>
      </form>
      <Link to="/sign-in" className="text-blue-800 underline">
        {t('account.link.toSignIn')}
      </Link>
    </Frame>
  );
}
