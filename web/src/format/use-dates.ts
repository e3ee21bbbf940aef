import { useQuery } from '@tanstack/react-query';
import { meQuery } from '../api/session';
import { useI18n } from '../i18n';
import { DEFAULT_TIME_ZONE, formatDate, formatDateTime } from './date';

/**
 * Dates as the person reads them: in their language, instants in the organization's time zone
 * (auth.me's organization.time_zone; Kuala Lumpur until it is known), never the browser's.
 *
 *   const { date, dateTime } = useDates();  date('2026-11-27'); dateTime(claim.submitted_at)
 */
export function useDates() {
  const { locale } = useI18n();
  const me = useQuery(meQuery);
  const timeZone = me.data?.organization.time_zone ?? DEFAULT_TIME_ZONE;
  return {
    timeZone,
    date: (isoDate: string) => formatDate(isoDate, locale),
    dateTime: (instant: string) => formatDateTime(instant, locale, timeZone),
  };
}
