// The sidebar's "N skills could not be read" group: each SKILL.md that does not parse with its file, line and reason
// (in the window's language; a parser's own message inside it as the parser said it, in code),
// and (desktop) a button that opens its folder with the file selected. Serve mode shows the full path to copy.
import { useTranslation } from 'react-i18next';
import { SaidText } from '../i18n/SaidText';
import { firstProblem, type BrokenSkill } from '../state/skills';
import { failure } from '../i18n/ErrorText';
import { useView } from '../state/store';

/** Opens the file's folder; a failure is an error notice whose Retry tries again. */
function showFile(show: (file: string) => Promise<unknown>, file: string): void {
  show(file).catch((e) =>
    useView.getState().notify({ kind: 'error', text: failure(e), retry: () => showFile(show, file) }),
  );
}

function shortName(b: BrokenSkill): string {
  const parts = b.file.split(/[\\/]/).filter(Boolean);
  return parts.slice(-2).join('/');
}

export function BrokenGroup({ broken, show }: { broken: BrokenSkill[]; show?: (file: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <details className="broken-group" open>
      <summary>{t('skills.broken', { count: broken.length })}</summary>
      <ul className="plain" aria-label={t('skills.broken', { count: broken.length })}>
        {broken.map((b) => {
          const d = firstProblem(b);
          return (
            <li key={b.file} className="broken-row">
              <div>
                <code title={b.file}>
                  {shortName(b)}
                  {d?.line ? `:${d.line}` : ''}
                </code>{' '}
                <span className="muted">{t(`tier.${b.tier}`)}</span>
              </div>
              <div className="broken-reason">
                {d?.field ? `${d.field}: ` : ''}
                <SaidText words={d?.words} fallback={d?.message} />
              </div>
              {show ? (
                <button
                  type="button"
                  className="small"
                  onClick={() => showFile(show, b.file)}
                  aria-label={t('skills.showFileOf', { file: shortName(b) })}
                >
                  {t('skills.showFile')}
                </button>
              ) : (
                <code className="broken-path small-text">{b.file}</code>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
