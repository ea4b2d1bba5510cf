// Audit findings (file:line, level, rule, message and the offending line) and a permission request, and the one audit
// block every review shows (install, source install, trust): legend, findings, permissions, the reviewed hash.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditFinding, PermissionDiff, Permissions as Asked } from '../../../preload/contract';
import { useSay } from '../i18n/say';
import { SaidText } from '../i18n/SaidText';
import { LevelLegend } from './Levels';

export function Findings({ findings }: { findings: AuditFinding[] }) {
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
            <SaidText words={f.words} fallback={f.message} /> <code className="muted small-text rule">{f.rule}</code>
          </div>
          {f.excerptWords?.length ? (
            // A permission diff: its lines said in the window's language, not the CLI's English excerpt.
            <pre className="excerpt">{f.excerptWords.map((w) => say(w)).join('\n')}</pre>
          ) : (
            f.excerpt && <pre className="excerpt">{f.excerpt}</pre>
          )}
        </li>
      ))}
    </ul>
  );
}

export function Permissions({ p }: { p?: Asked | undefined }) {
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
      {Object.entries(p.commands).map(([tool, cmds]) => (
        <div key={tool} className="contents">
          <dt>{t('perm.commands', { tool })}</dt>
          <dd>{cmds.join(', ')}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * An update's permission diff: each line added (+) or dropped (-), said in the window's language (the English `lines`
 * for an approval stored before the diff had words), or that the permissions do not change.
 */
export function DiffLines({ diff, label }: { diff: PermissionDiff | undefined; label?: string }) {
  const { t } = useTranslation();
  const say = useSay();
  const lines = diff?.lines ?? [];
  if (lines.length === 0) return <p className="muted">{t('install.noDiff')}</p>;
  return (
    <ul className="plain diff" aria-label={label}>
      {lines.map((l, i) => (
        <li key={l} className={l.startsWith('-') ? 'minus' : 'plus'}>
          <code>{say(diff?.words?.[i], l)}</code>
        </li>
      ))}
    </ul>
  );
}

/**
 * The audit part of a review, the same in the install dialog, a source install and a trust review: the level legend,
 * the findings, the permissions asked for, `children` (an update's permission diff), and the content hash an approval
 * is bound to.
 */
export function AuditFindings({
  findings,
  permissions,
  contentHash,
  children,
}: {
  findings: AuditFinding[];
  permissions?: Asked | undefined;
  contentHash?: string | undefined;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="audit-findings">
      <LevelLegend />
      <h3>{t('install.findings')}</h3>
      <Findings findings={findings} />
      <h3>{t('install.permissions')}</h3>
      <Permissions p={permissions} />
      {children}
      {contentHash && (
        <p className="muted small-text">
          {t('install.hash')} <code>{contentHash.slice(0, 16)}</code>
        </p>
      )}
    </div>
  );
}
