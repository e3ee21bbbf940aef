import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { problemOf, type ConsoleProblem } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc, write } from '../../api/trpc';
import { dateIn } from '../../format/date';
import { useDates } from '../../format/use-dates';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Button, buttonClass } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { PageTitle } from '../layout';

const BATCHES_KEY = ['journal.exports.list'];
const FORMATS = ['csv', 'sql_account', 'autocount', 'xero'] as const;

/**
 * The journal export: a new batch of every entry up to a day not yet exported (the server numbers
 * it and says when there is nothing to take), and the batches, each downloadable in the layouts the
 * accounting systems import. The same batch always downloads as the same file.
 */
export function JournalPage() {
  const { t } = useI18n();
  return (
    <>
      <PageTitle intro={t('journal.intro')}>{t('journal.title')}</PageTitle>
      <div className="flex max-w-3xl flex-col gap-8">
        <CreateBatch />
        <Batches />
      </div>
    </>
  );
}

function CreateBatch() {
  const { t } = useI18n();
  const { timeZone } = useDates();
  const toast = useToast();
  const queryClient = useQueryClient();
  const today = dateIn(new Date(), timeZone);
  const [upTo, setUpTo] = useState(today);
  const [problem, setProblem] = useState<ConsoleProblem>();
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const batch = await trpc.journal.exports.create.mutate({ up_to: upTo }, write());
      toast(t('journal.created', { number: batch.number, count: batch.entries.length }));
      await queryClient.invalidateQueries({ queryKey: BATCHES_KEY });
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  const upToError = problem?.pointers?.find((p) => p.pointer.endsWith('/up_to'))?.detail;
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4" data-testid="journal-create">
      <h2 className="text-lg font-semibold">{t('journal.createTitle')}</h2>
      <TextField label={t('journal.upTo')} hint={t('journal.upToHint')} type="date" name="up_to" value={upTo} onChange={(e) => setUpTo(e.target.value)} error={upToError} required />
      {problem && !upToError ? <Alert tone="error">{problem.detail ?? problemMessage(problem, t)}</Alert> : null}
      <div>
        <Button type="submit" busy={busy}>
          {t('journal.create')}
        </Button>
      </div>
    </form>
  );
}

function Batches() {
  const { t } = useI18n();
  const { date, dateTime } = useDates();
  const batches = useInfiniteQuery({
    queryKey: BATCHES_KEY,
    queryFn: ({ pageParam }) => trpc.journal.exports.list.query({ limit: 25, ...(pageParam ? { before: pageParam } : {}) }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  const items = batches.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="batches-title" className="flex flex-col gap-3">
      <h2 id="batches-title" className="text-lg font-semibold">
        {t('journal.batches')}
      </h2>
      {batches.isPending ? <p role="status">{t('app.loading')}</p> : null}
      {batches.error ? <Alert tone="error">{problemMessage(problemOf(batches.error), t)}</Alert> : null}
      {batches.data && items.length === 0 ? <p className="text-slate-700">{t('journal.none')}</p> : null}
      <ul className="flex flex-col gap-2" data-testid="journal-batches">
        {items.map((b) => (
          <li key={b.number} className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3" data-batch={b.number}>
            <h3 className="font-semibold">{t('journal.batch', { number: b.number })}</h3>
            <p className="text-sm text-slate-700">{t('journal.batchFacts', { upTo: date(b.up_to), count: b.entry_count, created: dateTime(b.created_at) })}</p>
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-medium">{t('journal.download')}:</span>
              {FORMATS.map((format) => (
                <a
                  key={format}
                  href={`/v1/journal/exports/${b.number}?format=${format}`}
                  className={buttonClass('secondary')}
                  aria-label={t('journal.downloadOf', { number: b.number, format: t(`journal.format.${format}`) })}
                  data-format={format}
                >
                  {t(`journal.format.${format}`)}
                </a>
              ))}
            </div>
          </li>
        ))}
      </ul>
      {batches.hasNextPage ? (
        <div>
          <Button variant="secondary" busy={batches.isFetchingNextPage} onClick={() => void batches.fetchNextPage()}>
            {t('journal.more')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
