// "Trust all…": the grouped summary of every pending P1 skill (what they ask for), then one confirmation.
// Nothing is trusted until the user confirms; the summary comes from the main process.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { MethodOutput } from '../../../preload/contract';
import { useView } from '../state/store';
import { Modal } from './Modal';
import { useSay } from '../i18n/say';
import { SaidText } from '../i18n/SaidText';
import { ErrorLine } from './DialogFooter';

type TrustSummary = MethodOutput<'skills.trustAll'>;

export function TrustAllDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const [summary, setSummary] = useState<TrustSummary>();
  const [error, setError] = useState<Shown>();
  const [done, setDone] = useState<TrustSummary>();

  useEffect(() => {
    client.call('skills.trustAll', { dryRun: true }).then(setSummary, (e) => setError(failure(e)));
  }, [client, ws]);

  /** Skill names, the first eight and how many more. */
  const names = (list: string[]) =>
    list.length > 8
      ? `${list.slice(0, 8).join(', ')} ${t('trustAll.more', { count: list.length - 8 })}`
      : list.join(', ');

  async function confirm() {
    try {
      setDone(await client.call('skills.trustAll', {}));
    } catch (e) {
      setError(failure(e));
    }
  }

  return (
    <Modal title={t('trustAll.title')} onClose={onClose}>
      <ErrorLine error={error} />
      {!summary && !error && <p className="muted">{t('common.loading')}</p>}
      {summary && done === undefined && (
        <>
          <p>
            {summary.trusted.length
              ? t('trustAll.intro', { count: summary.trusted.length, names: names(summary.trusted) })
              : t('trustAll.none')}
          </p>
          {summary.trusted.length > 0 && summary.groups.length > 0 && (
            <>
              <h3>{t('trustAll.byRule')}</h3>
              <ul className="plain groups">
                {summary.groups.map((g) => (
                  <li key={g.rule} title={g.rule}>
                    <strong>{t('trustAll.group', { count: g.skills.length })}</strong>{' '}
                    <span className="muted">{t('trustAll.findings', { count: g.count })}</span>
                    {t('common.colon')}
                    {say(g.words, g.message)}
                    <div className="small-text">{names(g.skills)}</div>
                  </li>
                ))}
              </ul>
            </>
          )}
          {summary.trusted.length > 0 && (
            <>
              <h3>{t('trustAll.widest')}</h3>
              <dl className="facts">
                <dt>{t('perm.tools')}</dt>
                <dd>
                  {summary.widest.tools.join(', ') || '—'}
                  {summary.widest.anyCommand.length > 0 && (
                    <> ({t('trustAll.anyCommand', { tools: summary.widest.anyCommand.join(', ') })})</>
                  )}
                </dd>
                <dt>{t('perm.network')}</dt>
                <dd>{summary.widest.network ? t('common.on') : t('common.off')}</dd>
                <dt>{t('perm.read')}</dt>
                <dd>{summary.widest.read.join(', ') || '—'}</dd>
                <dt>{t('perm.write')}</dt>
                <dd>{summary.widest.write.join(', ') || '—'}</dd>
              </dl>
            </>
          )}
          {summary.refused.length > 0 && (
            <>
              <h3>{t('trustAll.refused')}</h3>
              <ul>
                {summary.refused.map((r) => (
                  <li key={r.name}>
                    <strong>{r.name}</strong>
                    {t('common.colon')}
                    <SaidText words={r.words} fallback={r.reason} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {done !== undefined && <p role="status">{t('trustAll.done', { count: done.trusted.length })}</p>}
      <div className="actions">
        {done === undefined && summary && summary.trusted.length > 0 && (
          <button type="button" className="primary" onClick={() => void confirm()}>
            {t('trustAll.confirm', { count: summary.trusted.length })}
          </button>
        )}
        <button type="button" onClick={onClose}>
          {done === undefined ? t('common.cancel') : t('common.close')}
        </button>
      </div>
    </Modal>
  );
}
