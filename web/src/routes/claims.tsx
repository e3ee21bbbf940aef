import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { claimListQuery, claimQuery, returnedBy, type Claim, type ClaimAnswer, type ClaimListInput } from '../api/claims';
import { problemOf } from '../api/problem';
import { problemMessage } from '../api/problem-message';
import { claimStateLabel, claimStateTone, CLAIM_STATE_FILTERS } from '../claims/states';
import { formatDateTime } from '../format/date';
import { useI18n, type Translate } from '../i18n';
import { Alert } from '../ui/Alert';
import { Badge } from '../ui/Badge';
import { buttonClass } from '../ui/Button';
import { SelectField } from '../ui/Field';
import { Money } from '../ui/Money';
import { PageTitle } from './layout';

/**
 * My claims: the person's own claims, newest first, each with its state, total and what is missing
 * (read from the claim's answer while it is with its claimant: the submit edge's refusal, a return's
 * reason, possible duplicates). `state=returned` keeps the drafts a decider sent back.
 */
export function ClaimsPage({ state, q, cursor }: { state?: string | undefined; q?: string | undefined; cursor?: string | undefined }) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const returned = state === 'returned';
  // A search by reference (a possible duplicate's link) looks at every claim the person may read.
  const input: ClaimListInput = { scope: q ? 'all' : 'mine', limit: returned ? 100 : 25, ...(state && !returned ? { state } : {}), ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) };
  const list = useQuery(claimListQuery(input));
  const claims = list.data?.claims ?? [];
  const withClaimant = claims.filter((c) => c.semantic === 'draft');
  const answers = useQueries({ queries: withClaimant.map((c) => ({ ...claimQuery(c.id), staleTime: 30_000 })) });
  const answerOf = new Map<string, ClaimAnswer>();
  answers.forEach((a) => a.data && answerOf.set(a.data.claim.id, a.data));
  const shown = returned ? withClaimant.filter((c) => { const a = answerOf.get(c.id); return a && returnedBy(a); }) : claims;
  const loadingReturned = returned && answers.some((a) => a.isPending);

  return (
    <>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
        <PageTitle intro={t('claims.intro')}>{t('claims.title')}</PageTitle>
        <Link to="/claims/new" className={buttonClass('primary')}>
          {t('claims.new')}
        </Link>
      </div>
      <form role="search" className="mb-4 max-w-sm" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label={t('claims.filterState')}
          name="state"
          value={state ?? ''}
          onChange={(e) => void navigate({ to: '/claims', search: e.target.value ? { state: e.target.value } : {} })}
        >
          <option value="">{t('claims.allStates')}</option>
          {CLAIM_STATE_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s === 'returned' ? t('claims.returnedToMe') : claimStateLabel(s, t)}
            </option>
          ))}
        </SelectField>
      </form>
      {q ? (
        <p className="mb-4 text-slate-700">
          {t('claims.searchingFor', { q })}{' '}
          <Link to="/claims" className="text-blue-800 underline">
            {t('claims.clearSearch')}
          </Link>
        </p>
      ) : null}
      {list.isPending || loadingReturned ? <p role="status">{t('app.loading')}</p> : null}
      {list.error ? <Alert tone="error">{problemMessage(problemOf(list.error), t)}</Alert> : null}
      {list.data && !loadingReturned && shown.length === 0 ? <p className="text-slate-700">{returned ? t('claims.noneReturned') : t('claims.none')}</p> : null}
      {shown.length ? (
        <ul className="flex flex-col gap-3" aria-label={t('claims.listLabel')} data-testid="claim-list">
          {shown.map((claim) => (
            <li key={claim.id}>
              <ClaimCard claim={claim} answer={answerOf.get(claim.id)} locale={locale} />
            </li>
          ))}
        </ul>
      ) : null}
      {list.data?.next_cursor && !returned ? (
        <div className="mt-4">
          <Link to="/claims" search={{ ...(state ? { state } : {}), ...(q ? { q } : {}), cursor: list.data.next_cursor }} className={buttonClass('secondary')}>
            {t('claims.more')}
          </Link>
        </div>
      ) : null}
    </>
  );
}

function ClaimCard({ claim, answer, locale }: { claim: Claim; answer: ClaimAnswer | undefined; locale: string }) {
  const { t } = useI18n();
  const missing = answer ? whatIsMissing(answer, t) : [];
  return (
    <article className="rounded-lg border border-slate-300 bg-white p-4 shadow-sm" data-claim-reference={claim.reference}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 className="text-lg font-semibold">
          <Link to="/claims/$claimId" params={{ claimId: claim.id }} className="text-blue-800 underline underline-offset-2">
            <span className="block text-sm font-medium text-slate-700 no-underline">{claim.reference}</span>
            {claim.title}
          </Link>
        </h2>
        <Badge tone={claimStateTone(claim.semantic)}>{claimStateLabel(claim.state, t)}</Badge>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm text-slate-700">
        <dt>{t('claim.total')}</dt>
        <dd className="text-right text-base font-semibold text-slate-900">
          <Money amount={claim.total} currency={claim.currency} />
        </dd>
        <dt>{claim.submitted_at ? t('claim.submittedAt') : t('claim.createdAt')}</dt>
        <dd className="text-right">{formatDateTime(claim.submitted_at ?? claim.created_at, locale)}</dd>
      </dl>
      {missing.length ? (
        <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-medium">{t('claims.missing')}</p>
          <ul className="list-disc pl-5">
            {missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </article>
  );
}

/** What stands between a claim with its claimant and the next step, as the answer says it. */
export function whatIsMissing(answer: ClaimAnswer, t: Translate): string[] {
  const out: string[] = [];
  const back = returnedBy(answer);
  if (back) out.push(t('claims.returnedReason', { reason: back.reason }));
  for (const d of answer.available_transitions) if (!d.allowed && d.refusal && d.gate === 'reporter') out.push(d.refusal.detail);
  const duplicates = answer.lines.filter((l) => !l.withdrawn && l.possible_duplicate).length;
  if (duplicates) out.push(t('claims.possibleDuplicate', { count: duplicates }));
  return out;
}
