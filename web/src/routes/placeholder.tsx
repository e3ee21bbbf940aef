import { useI18n, type MessageKey } from '../i18n';
import { PageTitle } from './layout';

/** A screen still to be built: its title, so navigation and tests already reach it. */
export function Placeholder({ title }: { title: MessageKey }) {
  const { t } = useI18n();
  return (
    <>
      <PageTitle>{t(title)}</PageTitle>
      <p className="text-slate-700">{t('placeholder.body')}</p>
    </>
  );
}
