// Where a skill installed from a git repository or marketplace came from: URL, ref, commit, folder, marketplace, plugin.
import { useTranslation } from 'react-i18next';
import type { SkillOrigin as Origin } from '../../../preload/contract';

export function SkillOrigin({ origin }: { origin?: Origin }) {
  const { t } = useTranslation();
  if (!origin) return null;
  return (
    <section aria-label={t('origin.title')}>
      <h3>{t('origin.title')}</h3>
      <dl className="facts">
        <dt>{t('origin.url')}</dt>
        <dd>
          <code>{origin.url}</code>
        </dd>
        {origin.ref && (
          <>
            <dt>{t('origin.ref')}</dt>
            <dd>
              <code>{origin.ref}</code>
            </dd>
          </>
        )}
        <dt>{t('origin.commit')}</dt>
        <dd>
          <code>{origin.commit.slice(0, 12)}</code>
        </dd>
        <dt>{t('origin.path')}</dt>
        <dd>
          <code>{origin.path || '.'}</code>
        </dd>
        {origin.marketplace && (
          <>
            <dt>{t('origin.marketplace')}</dt>
            <dd>
              <code>{origin.marketplace}</code>
              {origin.plugin && ` · ${origin.plugin}`}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
