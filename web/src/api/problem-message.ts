import type { Translate } from '../i18n';
import { isStale, type ConsoleProblem } from './problem';

/**
 * The sentence a person sees for a problem that is not about one field: the console's own words for
 * the statuses every screen meets (in the person's language), the server's detail for the rest (a
 * refusal's detail comes from the descriptor, already in the caller's language where the server has it).
 */
export function problemMessage(problem: ConsoleProblem, t: Translate): string {
  if (problem.refusal) return problem.refusal.detail;
  if (problem.status === 0) return t('problem.network');
  if (isStale(problem)) return t('problem.stale');
  if (problem.status === 403) return t('problem.forbidden');
  if (problem.status === 404) return t('problem.notFound');
  if (problem.status === 429) return t('problem.rateLimited');
  if (problem.status >= 500) return t('problem.generic', { requestId: problem.requestId ?? '—' });
  return problem.detail;
}
