import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { isStale, problemOf, type ConsoleProblem } from '../../api/problem';
import { trpc, write } from '../../api/trpc';
import { useDates } from '../../format/use-dates';
import { useI18n, type MessageKey } from '../../i18n';
import { useToast } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ProblemAlert, SettingsTitle } from './shared';

const AGEING_KEY = ['settings.ageing.get'];
const REMINDERS_KEY = ['settings.paymentReminders.get'];
const SENT_KEY = ['settings.paymentReminders.sent'];

/** "30, 60, 90" as whole numbers; undefined when a part is not one (the server checks the rest). */
function daysOf(text: string): number[] | undefined {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (!parts.every((p) => /^\d{1,4}$/.test(p))) return undefined;
  return parts.map((p) => Number.parseInt(p, 10));
}

/** The server's sentence for the list field (its pointers name one day, /edges/2 or /steps/0). */
function listError(problem: ConsoleProblem | undefined, field: string): string | undefined {
  const hit = problem?.pointers?.find((p) => p.pointer === `/${field}` || p.pointer.startsWith(`/${field}/`));
  return hit ? hit.detail : undefined;
}

/**
 * Saving one record of this screen: the days read from the text (refused here when unreadable),
 * the server's answer (a toast, or its refusal, reading the record again when it was stale).
 */
function useDaysSave(queryKey: string[], saved: MessageKey) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [unreadable, setUnreadable] = useState(false);
  const [busy, setBusy] = useState(false);
  const save = async (text: string, send: (days: number[]) => Promise<unknown>) => {
    const days = daysOf(text);
    setUnreadable(!days);
    if (!days) return;
    setBusy(true);
    setProblem(undefined);
    try {
      await send(days);
      toast(t(saved));
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      const p = problemOf(error);
      setProblem(p);
      if (isStale(p)) await queryClient.invalidateQueries({ queryKey });
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (field: string) => (unreadable ? t('settings.collections.daysUnreadable') : listError(problem, field));
  return { problem, busy, save, fieldError };
}

/**
 * Collections set-up: the ageing report's buckets (the edges in days past due) and the payment
 * reminders (on or off, the days past due they go out), with the reminders sent so far. The server
 * checks every value and says what is wrong.
 */
export function CollectionsPage() {
  const { t } = useI18n();
  return (
    <>
      <SettingsTitle intro={t('settings.collections.intro')}>{t('settings.collections.title')}</SettingsTitle>
      <div className="flex max-w-3xl flex-col gap-8">
        <AgeingEdges />
        <Reminders />
        <SentReminders />
      </div>
    </>
  );
}

function AgeingEdges() {
  const { t } = useI18n();
  const settings = useQuery({ queryKey: AGEING_KEY, queryFn: () => trpc.settings.ageing.get.query() });
  if (settings.error) return <ProblemAlert problem={problemOf(settings.error)} />;
  if (!settings.data) return <p role="status">{t('app.loading')}</p>;
  return <AgeingForm key={settings.data.revision} edges={settings.data.edges} revision={settings.data.revision} />;
}

function AgeingForm({ edges, revision }: { edges: number[]; revision: number }) {
  const { t } = useI18n();
  const [text, setText] = useState(edges.join(', '));
  const { problem, busy, save, fieldError: errorOf } = useDaysSave(AGEING_KEY, 'settings.collections.ageingSaved');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save(text, (days) => trpc.settings.ageing.update.mutate({ edges: days }, write({ revision })));
  };
  const fieldError = errorOf('edges');
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4" data-testid="ageing-edges-form">
      <h2 className="text-lg font-semibold">{t('settings.collections.ageingTitle')}</h2>
      <TextField label={t('settings.collections.edges')} hint={t('settings.collections.edgesHint')} name="edges" value={text} onChange={(e) => setText(e.target.value)} error={fieldError} inputMode="numeric" autoComplete="off" />
      {problem && !fieldError ? <ProblemAlert problem={problem} /> : null}
      <div>
        <Button type="submit" busy={busy}>
          {t('settings.collections.saveAgeing')}
        </Button>
      </div>
    </form>
  );
}

function Reminders() {
  const { t } = useI18n();
  const schedule = useQuery({ queryKey: REMINDERS_KEY, queryFn: () => trpc.settings.paymentReminders.get.query() });
  if (schedule.error) return <ProblemAlert problem={problemOf(schedule.error)} />;
  if (!schedule.data) return <p role="status">{t('app.loading')}</p>;
  return <RemindersForm key={schedule.data.revision} enabled={schedule.data.enabled} steps={schedule.data.steps} revision={schedule.data.revision} />;
}

function RemindersForm({ enabled, steps, revision }: { enabled: boolean; steps: number[]; revision: number }) {
  const { t } = useI18n();
  const [on, setOn] = useState(enabled);
  const [text, setText] = useState(steps.join(', '));
  const { problem, busy, save, fieldError: errorOf } = useDaysSave(REMINDERS_KEY, 'settings.collections.remindersSaved');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save(text, (days) => trpc.settings.paymentReminders.update.mutate({ enabled: on, steps: days }, write({ revision })));
  };
  const fieldError = errorOf('steps');
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4" data-testid="reminders-form">
      <h2 className="text-lg font-semibold">{t('settings.collections.remindersTitle')}</h2>
      <p className="text-sm text-slate-700">{t('settings.collections.remindersIntro')}</p>
      <label className="inline-flex min-h-11 items-center gap-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700">
        <input type="checkbox" name="enabled" className="h-5 w-5" checked={on} onChange={(e) => setOn(e.target.checked)} />
        <span className="font-medium">{t('settings.collections.remindersOn')}</span>
      </label>
      <TextField label={t('settings.collections.steps')} hint={t('settings.collections.stepsHint')} name="steps" value={text} onChange={(e) => setText(e.target.value)} error={fieldError} inputMode="numeric" autoComplete="off" />
      {problem && !fieldError ? <ProblemAlert problem={problem} /> : null}
      <div>
        <Button type="submit" busy={busy}>
          {t('settings.collections.saveReminders')}
        </Button>
      </div>
    </form>
  );
}

function SentReminders() {
  const { t } = useI18n();
  const { dateTime } = useDates();
  const sent = useQuery({ queryKey: SENT_KEY, queryFn: () => trpc.settings.paymentReminders.sent.query({ limit: 100 }) });
  return (
    <section aria-labelledby="sent-title" className="flex flex-col gap-3" data-testid="sent-reminders">
      <h2 id="sent-title" className="text-lg font-semibold">
        {t('settings.collections.sentTitle')}
      </h2>
      {sent.error ? <ProblemAlert problem={problemOf(sent.error)} /> : null}
      {sent.data && sent.data.length === 0 ? <p className="text-slate-700">{t('settings.collections.noneSent')}</p> : null}
      <ul className="flex flex-col gap-2">
        {sent.data?.map((r) => (
          <li key={r.id} className="rounded-lg border border-slate-300 bg-white p-3 text-sm" data-reminder-id={r.id}>
            <Link to="/invoices/$invoiceId" params={{ invoiceId: r.document_id }} className="font-medium text-blue-800 underline underline-offset-2">
              {t('settings.collections.sentLine', { step: r.step, to: r.sent_to })}
            </Link>
            <span className="block text-slate-700">{dateTime(r.sent_at)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
