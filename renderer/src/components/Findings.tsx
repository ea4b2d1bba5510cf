// Audit findings (file:line, level, message and the offending line) and a permission request, shared by the
// skill detail view and the install dialog.
import { useTranslation } from 'react-i18next';
import type { Finding, PermissionsView } from '../api/types';
import { useSay } from '../i18n/say';

export function Findings({ findings }: { findings: Finding[] }) {
  const { t } = useTranslation();
  const say = useSay();
  if (findings.length === 0) return <p className="muted">{t('audit.noFindings')}</p>;
  return (
    <ul className="plain findings">
      {findings.map((f, i) => (
        <li key={i} className={`finding level-${f.level}`}>
          <div>
            <span className={`badge level-${f.level}`}>{f.level}</span>{' '}
            <code>
              {f.file}:{f.line}
            </code>{' '}
            {say(f.words, f.message)}
          </div>
          {f.excerpt && <pre className="excerpt">{f.excerpt}</pre>}
        </li>
      ))}
    </ul>
  );
}

export function Permissions({ p }: { p?: PermissionsView }) {
  const { t } = useTranslation();
  if (!p) return <p className="muted">{t('audit.noPermissions')}</p>;
  return (
    <dl className="facts">
      <dt>{t('perm.tools')}</dt>
      <dd>{p.tools.length ? p.tools.join(', ') : t('common.none')}</dd>
      <dt>{t('perm.network')}</dt>
      <dd>{p.network ? t('common.yes') : t('common.no')}</dd>
      <dt>{t('perm.read')}</dt>
      <dd>{p.read.length ? p.read.join(', ') : t('common.none')}</dd>
      <dt>{t('perm.write')}</dt>
      <dd>{p.write.length ? p.write.join(', ') : t('common.none')}</dd>
      {p.commands &&
        Object.entries(p.commands).map(([tool, cmds]) => (
          <div key={tool} className="contents">
            <dt>{t('perm.commands', { tool })}</dt>
            <dd>{cmds.join(', ')}</dd>
          </div>
        ))}
    </dl>
  );
}
