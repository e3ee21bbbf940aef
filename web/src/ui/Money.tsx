import { formatMoney } from '../format/money';
import { useI18n } from '../i18n';

/** An amount as the API gives it (a decimal string), in the person's locale; digits never rounded through a number. */
export function Money({ amount, currency, className = '' }: { amount: string; currency: string; className?: string }) {
  const { locale } = useI18n();
  return <span className={`tabular-nums whitespace-nowrap ${className}`}>{formatMoney(amount, currency, locale)}</span>;
}
