import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createEndpointInput } from '../../../../src/contract/organization/events';
import { EVENT_TYPES } from '../../../../src/domain/events';
import { isStale, problemOf, type ConsoleProblem } from '../../api/problem';
import { trpc, write } from '../../api/trpc';
import { useDates } from '../../format/use-dates';
import { useSchemaForm } from '../../forms/use-schema-form';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ConfirmDialog, ProblemAlert, SettingsTitle } from '../owner/shared';

type Endpoint = Awaited<ReturnType<typeof trpc.organization.webhookEndpoints.list.query>>['items'][number];
type Delivery = Awaited<ReturnType<typeof trpc.organization.webhookEndpoints.deliveries.query>>['items'][number];

const LIST_KEY = ['organization.webhookEndpoints.list'];
const DELIVERIES_KEY = 'organization.webhookEndpoints.deliveries';
const endpointsQuery = queryOptions({ queryKey: LIST_KEY, queryFn: () => trpc.organization.webhookEndpoints.list.query({ limit: 100 }) });

const DELIVERY_TONE = { pending: 'warning', delivered: 'success', failed: 'danger' } as const;

/** A secret the server answers once: shown with a copy button until the person says they have it. */
function SecretOnce({ title, note, secret, onHide }: { title: string; note?: string; secret: string; onHide: () => void }) {
  const { t } = useI18n();
  return (
    <Alert tone="warning">
      <p className="font-medium">{title}</p>
      {note ? <p className="mt-1">{note}</p> : null}
      <p className="mt-2 break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900" data-testid="webhook-secret">
        {secret}
      </p>
      <p className="mt-1 text-sm">{t('webhooks.copyHint')}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(secret)}>
          {t('settings.keys.copy')}
        </Button>
        <Button variant="ghost" onClick={onHide}>
          {t('settings.keys.hideSecret')}
        </Button>
      </div>
    </Alert>
  );
}

/**
 * Webhook endpoints: where the organization's events are posted, with the types each receives and
 * whether it is on (or was turned off for failing); adding one (its signing secret shown once); for
 * each, a test event, a new secret, turning it on or off, deleting it, and its recent deliveries
 * with every attempt and a way to send a failed one again.
 */
export function WebhooksPage() {
  const { t } = useI18n();
  const endpoints = useQuery(endpointsQuery);
  const [deleting, setDeleting] = useState<Endpoint>();
  return (
    <>
      <SettingsTitle intro={t('webhooks.intro')}>{t('webhooks.title')}</SettingsTitle>
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="webhooks-list-title" className="flex flex-col gap-3">
          <h2 id="webhooks-list-title" className="text-lg font-semibold">
            {t('webhooks.list')}
          </h2>
          {endpoints.isPending ? <p role="status">{t('app.loading')}</p> : null}
          {endpoints.error ? <ProblemAlert problem={problemOf(endpoints.error)} /> : null}
          {endpoints.data && endpoints.data.items.length === 0 ? <p className="text-slate-700">{t('webhooks.none')}</p> : null}
          <ul className="flex flex-col gap-3" data-testid="endpoint-list">
            {endpoints.data?.items.map((e) => (
              <EndpointItem key={e.id} endpoint={e} onDelete={() => setDeleting(e)} />
            ))}
          </ul>
        </section>
        <CreateEndpoint />
      </div>
      <DeleteDialog endpoint={deleting} onClose={() => setDeleting(undefined)} />
    </>
  );
}

function EndpointItem({ endpoint: e, onDelete }: { endpoint: Endpoint; onDelete: () => void }) {
  const { t } = useI18n();
  const { dateTime } = useDates();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string>();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState<string>();
  const run = async (what: string, fn: () => Promise<unknown>) => {
    setBusy(what);
    setProblem(undefined);
    try {
      await fn();
    } catch (error) {
      const p = problemOf(error);
      setProblem(p);
      if (isStale(p)) toast(t('webhooks.stale'));
    } finally {
      setBusy(undefined);
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
      await queryClient.invalidateQueries({ queryKey: [DELIVERIES_KEY, e.id] });
    }
  };
  const sendTest = () => run('test', async () => {
    await trpc.organization.webhookEndpoints.test.mutate({ id: e.id }, write());
    toast(t('webhooks.testSent'));
  });
  const rotate = () => run('rotate', async () => {
    setSecret(undefined);
    const answer = await trpc.organization.webhookEndpoints.rotateSecret.mutate({ id: e.id }, write({ revision: e.revision }));
    setSecret(answer.secret);
  });
  const toggle = () => run('toggle', async () => {
    await trpc.organization.webhookEndpoints.update.mutate({ id: e.id, enabled: !e.enabled }, write({ revision: e.revision }));
    toast(t(e.enabled ? 'webhooks.disabledDone' : 'webhooks.enabledDone'));
  });
  const state = e.enabled ? 'enabled' : e.disabled_reason === 'failing' ? 'failing' : 'disabled';
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-3" data-endpoint-id={e.id} data-state={state}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="break-all font-semibold">{e.url}</h3>
        <Badge tone={e.enabled ? 'success' : 'danger'}>{t(`webhooks.state.${state}`)}</Badge>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-700">{t('webhooks.types')}</dt>
        <dd className="break-all">{e.types.includes('*') ? t('webhooks.allTypes') : e.types.join(', ')}</dd>
        <dt className="text-slate-700">{t('webhooks.created')}</dt>
        <dd>{dateTime(e.created_at)}</dd>
        {e.failing_since ? (
          <>
            <dt className="text-slate-700">{t('webhooks.failingSince')}</dt>
            <dd>{dateTime(e.failing_since)}</dd>
          </>
        ) : null}
        {e.previous_secret_expires_at ? (
          <>
            <dt className="text-slate-700">{t('webhooks.previousSecret')}</dt>
            <dd>{t('webhooks.previousSecretUntil', { time: dateTime(e.previous_secret_expires_at) })}</dd>
          </>
        ) : null}
      </dl>
      {secret ? <SecretOnce title={t('webhooks.newSecretOnce')} note={t('webhooks.oldSecretKeeps')} secret={secret} onHide={() => setSecret(undefined)} /> : null}
      <ProblemAlert problem={problem} />
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" busy={busy === 'test'} onClick={() => void sendTest()} aria-label={t('webhooks.testOf', { url: e.url })}>
          {t('webhooks.test')}
        </Button>
        <Button variant="secondary" busy={busy === 'rotate'} onClick={() => void rotate()} aria-label={t('webhooks.rotateOf', { url: e.url })}>
          {t('webhooks.rotate')}
        </Button>
        <Button variant="secondary" busy={busy === 'toggle'} onClick={() => void toggle()} aria-label={t(e.enabled ? 'webhooks.disableOf' : 'webhooks.enableOf', { url: e.url })}>
          {t(e.enabled ? 'webhooks.disable' : 'webhooks.enable')}
        </Button>
        <Button variant="ghost" onClick={onDelete} aria-label={t('webhooks.deleteOf', { url: e.url })}>
          {t('webhooks.delete')}
        </Button>
      </div>
      <Deliveries endpoint={e} />
    </li>
  );
}

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useI18n();
  const deliveries = useQuery({
    queryKey: [DELIVERIES_KEY, endpoint.id],
    queryFn: () => trpc.organization.webhookEndpoints.deliveries.query({ id: endpoint.id, limit: 20 }),
    // While one is on its way, look again (the delivery job sends it in the background).
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.state === 'pending') ? 1500 : false),
  });
  const headingId = `deliveries-${endpoint.id}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={headingId} className="font-semibold">
          {t('webhooks.deliveries')}
        </h4>
        <Button variant="ghost" busy={deliveries.isFetching} onClick={() => void deliveries.refetch()} aria-label={t('webhooks.refreshOf', { url: endpoint.url })}>
          {t('webhooks.refresh')}
        </Button>
      </div>
      {deliveries.error ? <ProblemAlert problem={problemOf(deliveries.error)} /> : null}
      {deliveries.data && deliveries.data.items.length === 0 ? <p className="text-sm text-slate-700">{t('webhooks.noDeliveries')}</p> : null}
      <ul className="flex flex-col gap-2" data-testid="delivery-list">
        {deliveries.data?.items.map((d) => (
          <DeliveryItem key={d.id} endpoint={endpoint} delivery={d} />
        ))}
      </ul>
    </section>
  );
}

function DeliveryItem({ endpoint, delivery: d }: { endpoint: Endpoint; delivery: Delivery }) {
  const { t } = useI18n();
  const { dateTime } = useDates();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const again = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await trpc.organization.webhookEndpoints.redeliver.mutate({ id: endpoint.id, delivery_id: d.id }, write());
      toast(t('webhooks.againSent'));
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: [DELIVERIES_KEY, endpoint.id] });
    }
  };
  return (
    <li className="rounded border border-slate-200 p-2 text-sm" data-delivery-id={d.id} data-state={d.state}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="break-all font-mono">{d.event_type}</span>
        <Badge tone={DELIVERY_TONE[d.state]}>{t(`webhooks.delivery.${d.state}`)}</Badge>
      </div>
      <p className="text-slate-700">{dateTime(d.created_at)}</p>
      {d.attempts.length > 0 ? (
        <ol className="mt-1 flex flex-col gap-1">
          {d.attempts.map((a) => (
            <li key={a.number} className="rounded bg-slate-50 p-1" data-attempt={a.number}>
              <span>{t('webhooks.attempt', { number: String(a.number), time: dateTime(a.attempted_at), status: a.status === null ? t('webhooks.noStatus') : String(a.status), ms: String(a.duration_ms) })}</span>
              {a.error ? <span className="block text-red-800">{a.error}</span> : null}
              {a.answer ? <code className="block break-all text-slate-800">{a.answer.slice(0, 200)}</code> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {d.next_attempt_at && d.state === 'pending' ? <p className="text-slate-700">{t('webhooks.nextAttempt', { time: dateTime(d.next_attempt_at) })}</p> : null}
      <ProblemAlert problem={problem} />
      {d.state === 'failed' ? (
        <Button variant="secondary" className="mt-1" busy={busy} onClick={() => void again()}>
          {t('webhooks.sendAgain')}
        </Button>
      ) : null}
    </li>
  );
}

function CreateEndpoint() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ url: string; secret: string }>();
  const form = useSchemaForm(createEndpointInput, { defaultValues: { url: '', types: ['*'] } });
  const types = form.watch('types') ?? [];
  const all = types.includes('*');
  const setTypes = (next: string[]) => form.setValue('types', next as never, { shouldValidate: form.formState.isSubmitted });
  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    setCreated(undefined);
    try {
      const endpoint = await trpc.organization.webhookEndpoints.create.mutate(values, write());
      setCreated({ url: endpoint.url, secret: endpoint.secret });
      form.reset({ url: '', types: ['*'] });
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
    } catch (error) {
      form.showProblem(error);
    }
  });
  const errors = form.formState.errors;
  return (
    <section aria-labelledby="webhook-new-title" className="flex flex-col gap-3">
      <h2 id="webhook-new-title" className="text-lg font-semibold">
        {t('webhooks.new')}
      </h2>
      {created ? <SecretOnce title={t('webhooks.secretOnce', { url: created.url })} secret={created.secret} onHide={() => setCreated(undefined)} /> : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4" data-testid="webhook-form">
        <TextField label={t('webhooks.url')} hint={t('webhooks.urlHint')} type="url" autoComplete="off" error={errors.url?.message} {...form.register('url')} />
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 font-medium">{t('webhooks.typesChoose')}</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="types-mode" className="h-5 w-5" checked={all} onChange={() => setTypes(['*'])} />
            {t('webhooks.allTypes')}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="types-mode" className="h-5 w-5" checked={!all} onChange={() => setTypes([])} />
            {t('webhooks.chosenTypes')}
          </label>
          {errors.types?.message ? <p className="text-sm text-red-800">{errors.types.message}</p> : null}
        </fieldset>
        {!all ? (
          <fieldset className="flex max-h-72 flex-col gap-1 overflow-y-auto">
            <legend className="mb-1 font-medium">{t('webhooks.types')}</legend>
            {EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 break-all font-mono text-sm">
                <input
                  type="checkbox"
                  className="h-5 w-5 shrink-0"
                  value={type}
                  checked={types.includes(type)}
                  onChange={(ev) => setTypes(ev.target.checked ? [...types, type] : types.filter((x) => x !== type))}
                />
                {type}
              </label>
            ))}
          </fieldset>
        ) : null}
        <ProblemAlert problem={form.problem} message={form.formMessage} />
        <div>
          <Button type="submit" busy={form.formState.isSubmitting}>
            {t('webhooks.create')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function DeleteDialog({ endpoint, onClose }: { endpoint: Endpoint | undefined; onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      open={!!endpoint}
      title={endpoint ? t('webhooks.deleteOf', { url: endpoint.url }) : ''}
      warning={t('webhooks.deleteWarning')}
      confirmLabel={t('webhooks.delete')}
      onConfirm={async () => {
        if (!endpoint) return;
        await trpc.organization.webhookEndpoints.delete.mutate({ id: endpoint.id }, write({ revision: endpoint.revision }));
        toast(t('webhooks.deleted', { url: endpoint.url }));
        await queryClient.invalidateQueries({ queryKey: LIST_KEY });
      }}
      onRefused={(p) => (isStale(p) ? queryClient.invalidateQueries({ queryKey: LIST_KEY }) : undefined)}
      onClose={onClose}
    />
  );
}
