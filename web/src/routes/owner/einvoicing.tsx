import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { isStale, problemOf, type ConsoleProblem } from '../../api/problem';
import { trpc, write } from '../../api/trpc';
import { useDates } from '../../format/use-dates';
import { fieldNameOf } from '../../forms/pointers';
import { useI18n } from '../../i18n';
import { useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { SelectField, TextAreaField, TextField } from '../../ui/Field';
import { ProblemAlert, SettingsTitle } from './shared';

export type EinvoiceSettings = Awaited<ReturnType<typeof trpc.settings.einvoicing.get.query>>;
type ConnectionTest = Awaited<ReturnType<typeof trpc.settings.einvoicing.testConnection.mutate>>;
type UpdateInput = Parameters<typeof trpc.settings.einvoicing.update.mutate>[0];

export const einvoicingQuery = queryOptions({ queryKey: ['settings.einvoicing.get'], queryFn: () => trpc.settings.einvoicing.get.query() });

const ENVIRONMENTS = ['simulator', 'sandbox', 'production'] as const;
const LOGINS = ['own', 'intermediary'] as const;
const CERTIFICATE_FORMATS = ['pem', 'pkcs12'] as const;

/** A file's bytes as base64 (the PKCS#12 upload's form on the wire). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
const VERSIONS = ['1.0', '1.1'] as const;

/** A problem's pointers by field name (`certificate.pem`), for the fields of this form. */
function fieldErrors(problem: ConsoleProblem | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of problem?.pointers ?? []) {
    const name = fieldNameOf(p.pointer);
    if (name && !(name in out)) out[name] = p.detail;
  }
  return out;
}

/**
 * E-invoicing settings: the switch, the MyInvois environment and credentials (the client secret and
 * the certificate go in and never come out: whether one is set, and the certificate's public facts,
 * are shown), the document version. Only what changed is sent; the server says what is wrong.
 */
export function EinvoicingPage({ children }: { children?: ReactNode }) {
  const { t } = useI18n();
  const settings = useQuery(einvoicingQuery);
  return (
    <>
      <SettingsTitle intro={t('settings.einvoicing.intro')}>{t('settings.einvoicing.title')}</SettingsTitle>
      {settings.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {settings.error ? <ProblemAlert problem={problemOf(settings.error)} /> : null}
      {settings.data ? <EinvoicingForm key={settings.data.revision} settings={settings.data} /> : null}
      {settings.data ? <TestConnection /> : null}
      {children}
    </>
  );
}

type FormValues = {
  enabled: boolean;
  login: string;
  environment: string;
  api_base_url: string;
  client_id: string;
  client_secret: string;
  version: string;
  pem: string;
  private_key: string;
  passphrase: string;
  certificate_format: string;
};

/**
 * What the owner changed, as the update takes it: only the fields that differ from the saved settings
 * (a secret, key or certificate only when one was given; an emptied client id as null).
 */
async function changedSettings(settings: EinvoiceSettings, values: FormValues, pkcs12: File | undefined): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  if (values.enabled !== settings.enabled) input.enabled = values.enabled;
  if (values.login !== settings.login) input.login = values.login;
  if (values.environment !== settings.environment) input.environment = values.environment;
  if (values.api_base_url.trim()) input.api_base_url = values.api_base_url.trim();
  if (values.client_id !== (settings.client_id ?? '')) input.client_id = values.client_id.trim() === '' ? null : values.client_id.trim();
  if (values.client_secret) input.client_secret = values.client_secret;
  if (values.version !== settings.version) input.version = values.version;
  if (values.certificate_format === 'pkcs12') {
    if (pkcs12) input.certificate = { pkcs12: await base64Of(pkcs12), passphrase: values.passphrase };
  } else if (values.pem || values.private_key) {
    input.certificate = { pem: values.pem, private_key: values.private_key, ...(values.passphrase ? { passphrase: values.passphrase } : {}) };
  }
  return input;
}

/** The certificate in use (subject and issuer) and a new one: PEM certificate and key, or a PKCS#12 file, with its passphrase. */
function CertificateFieldset({
  settings,
  values,
  errors,
  set,
  onPkcs12,
}: {
  settings: EinvoiceSettings;
  values: FormValues;
  errors: Record<string, string | undefined>;
  set: (key: keyof FormValues) => (e: { target: { value: string } }) => void;
  onPkcs12: (file: File | undefined) => void;
}) {
  const { t } = useI18n();
  return (
    <fieldset className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
      <legend className="px-1 text-lg font-semibold">{t('settings.einvoicing.certificate')}</legend>
      {settings.certificate ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-700">{t('settings.einvoicing.subject')}</dt>
          <dd className="break-all">{settings.certificate.subject}</dd>
          <dt className="text-slate-700">{t('settings.einvoicing.issuer')}</dt>
          <dd className="break-all">{settings.certificate.issuer}</dd>
        </dl>
      ) : (
        <p className="text-sm text-slate-700">{t('settings.einvoicing.noCertificate')}</p>
      )}
      <SelectField label={t('settings.einvoicing.certificateFormat')} name="certificate_format" value={values.certificate_format} onChange={set('certificate_format')}>
        {CERTIFICATE_FORMATS.map((format) => (
          <option key={format} value={format}>
            {t(`settings.einvoicing.certificateFormat.${format}`)}
          </option>
        ))}
      </SelectField>
      {values.certificate_format === 'pkcs12' ? (
        <TextField
          label={t('settings.einvoicing.pkcs12')}
          name="certificate.pkcs12"
          type="file"
          accept=".p12,.pfx,application/x-pkcs12"
          onChange={(e) => onPkcs12(e.target.files?.[0])}
          error={errors['certificate.pkcs12'] ?? errors.certificate}
        />
      ) : (
        <>
          <TextAreaField label={t('settings.einvoicing.pem')} name="certificate.pem" rows={4} value={values.pem} onChange={set('pem')} error={errors['certificate.pem'] ?? errors.certificate} />
          <TextAreaField label={t('settings.einvoicing.privateKey')} name="certificate.private_key" rows={4} value={values.private_key} onChange={set('private_key')} error={errors['certificate.private_key']} />
        </>
      )}
      <TextField label={t('settings.einvoicing.passphrase')} name="certificate.passphrase" type="password" value={values.passphrase} onChange={set('passphrase')} error={errors['certificate.passphrase']} autoComplete="off" />
    </fieldset>
  );
}

function EinvoicingForm({ settings }: { settings: EinvoiceSettings }) {
  const { t } = useI18n();
  const { date } = useDates();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<FormValues>({
    enabled: settings.enabled,
    login: settings.login as string,
    environment: settings.environment as string,
    api_base_url: '',
    client_id: settings.client_id ?? '',
    client_secret: '',
    version: settings.version as string,
    pem: '',
    private_key: '',
    passphrase: '',
    certificate_format: 'pem' as string,
  });
  const [pkcs12, setPkcs12] = useState<File>();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(problem);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((all) => ({ ...all, [key]: e.target.value }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const input = await changedSettings(settings, values, pkcs12);
    if (Object.keys(input).length === 0) {
      toast(t('settings.profile.unchanged'), 'info');
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      await trpc.settings.einvoicing.update.mutate(input as UpdateInput, write({ revision: settings.revision }));
      toast(t('settings.einvoicing.saved'));
      await queryClient.invalidateQueries({ queryKey: ['settings.einvoicing.get'] });
      await queryClient.invalidateQueries({ queryKey: ['organization.readiness'] });
    } catch (error) {
      const p = problemOf(error);
      setProblem(p);
      if (isStale(p)) await queryClient.invalidateQueries({ queryKey: ['settings.einvoicing.get'] });
    } finally {
      setBusy(false);
    }
  };

  const unplaced = problem && Object.keys(errors).length === 0;
  return (
    <form noValidate onSubmit={onSubmit} className="flex max-w-3xl flex-col gap-6" data-testid="einvoicing-form">
      <fieldset className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
        <legend className="px-1 text-lg font-semibold">{t('settings.einvoicing.status')}</legend>
        <p className="flex flex-wrap gap-2">
          <Badge tone={settings.enabled ? 'success' : 'neutral'}>{settings.enabled ? t('settings.einvoicing.on') : t('settings.einvoicing.off')}</Badge>
          <Badge tone={settings.client_secret_set ? 'success' : 'warning'}>{settings.client_secret_set ? t('settings.einvoicing.secretSet') : t('settings.einvoicing.secretMissing')}</Badge>
          {settings.certificate ? <Badge tone="info">{t('settings.einvoicing.certificateUntil', { date: date(settings.certificate.not_after.slice(0, 10)) })}</Badge> : null}
        </p>
        <label className="inline-flex min-h-11 items-center gap-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
          <input type="checkbox" name="enabled" className="h-5 w-5" checked={values.enabled} onChange={(e) => setValues((all) => ({ ...all, enabled: e.target.checked }))} />
          <span className="font-medium">{t('settings.einvoicing.enabled')}</span>
        </label>
        {errors.enabled ? <p className="text-sm font-medium text-red-700">{errors.enabled}</p> : null}
        <SelectField label={t('settings.einvoicing.environment')} name="environment" value={values.environment} onChange={set('environment')} error={errors.environment}>
          {ENVIRONMENTS.map((env) => (
            <option key={env} value={env}>
              {t(`settings.einvoicing.environment.${env}`)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('settings.einvoicing.apiBaseUrl')} name="api_base_url" hint={t('settings.einvoicing.apiBaseUrlHint', { url: settings.api_base_url })} value={values.api_base_url} onChange={set('api_base_url')} error={errors.api_base_url} autoComplete="off" />
        <SelectField label={t('settings.einvoicing.version')} name="version" hint={t('settings.einvoicing.versionHint')} value={values.version} onChange={set('version')} error={errors.version}>
          {VERSIONS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </SelectField>
      </fieldset>
      <fieldset className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
        <legend className="px-1 text-lg font-semibold">{t('settings.einvoicing.credentials')}</legend>
        <SelectField label={t('settings.einvoicing.login')} name="login" value={values.login} onChange={set('login')} error={errors.login}>
          {LOGINS.map((login) => (
            <option key={login} value={login}>
              {t(`settings.einvoicing.login.${login}`)}
            </option>
          ))}
        </SelectField>
        {values.login === 'intermediary' ? (
          <p className="text-sm text-slate-700" data-testid="intermediary-hint">
            {t('settings.einvoicing.intermediaryHint')}
          </p>
        ) : (
          <>
            <TextField label={t('settings.einvoicing.clientId')} name="client_id" value={values.client_id} onChange={set('client_id')} error={errors.client_id} autoComplete="off" />
            <TextField
              label={t('settings.einvoicing.clientSecret')}
              name="client_secret"
              type="password"
              hint={settings.client_secret_set ? t('settings.einvoicing.clientSecretKeep') : t('settings.einvoicing.clientSecretHint')}
              value={values.client_secret}
              onChange={set('client_secret')}
              error={errors.client_secret}
              autoComplete="new-password"
            />
          </>
        )}
      </fieldset>
      <CertificateFieldset settings={settings} values={values} errors={errors} set={set} onPkcs12={setPkcs12} />
      {problem ? <ProblemAlert problem={problem} message={unplaced ? undefined : t('problem.fixFields')} /> : null}
      <div>
        <Button type="submit" busy={busy}>
          {t('settings.einvoicing.save')}
        </Button>
      </div>
    </form>
  );
}

const STEP_LABEL = { credentials: 'settings.einvoicing.step.credentials', token: 'settings.einvoicing.step.token', taxpayer: 'settings.einvoicing.step.taxpayer' } as const;

/**
 * The connection test: MyInvois is asked for a token with the saved credentials, then whether it
 * knows the seller's TIN; each step as the server answers it (what failed, and what to do).
 */
function TestConnection() {
  const { t } = useI18n();
  const [result, setResult] = useState<ConnectionTest>();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const onTest = async () => {
    setBusy(true);
    setProblem(undefined);
    setResult(undefined);
    try {
      setResult(await trpc.settings.einvoicing.testConnection.mutate(undefined, write()));
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="connection-test-title" className="mt-8 flex max-w-3xl flex-col gap-3" data-testid="connection-test">
      <h2 id="connection-test-title" className="text-lg font-semibold">
        {t('settings.einvoicing.testTitle')}
      </h2>
      <p className="text-sm text-slate-700">{t('settings.einvoicing.testHint')}</p>
      <div>
        <Button variant="secondary" busy={busy} onClick={() => void onTest()}>
          {t('settings.einvoicing.test')}
        </Button>
      </div>
      <ProblemAlert problem={problem} />
      {result ? (
        <div role="status" className={`rounded-md border px-4 py-3 ${result.ok ? 'border-green-300 bg-green-50 text-green-900' : 'border-red-300 bg-red-50 text-red-900'}`} data-ok={result.ok}>
          <p className="font-medium">{result.ok ? t('settings.einvoicing.testOk') : t('settings.einvoicing.testFailed')}</p>
          <ol className="mt-2 flex flex-col gap-1">
            {result.steps.map((step) => (
              <li key={step.key} data-step={step.key} data-ok={step.ok}>
                <span className="font-medium">
                  {step.ok ? '✓' : '✗'} {t(STEP_LABEL[step.key])}
                  <span className="sr-only">: {step.ok ? t('settings.einvoicing.stepPassed') : t('settings.einvoicing.stepFailed')}</span>
                </span>
                <span className="block text-sm">{step.detail}</span>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
