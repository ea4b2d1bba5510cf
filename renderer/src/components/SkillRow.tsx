// One sidebar row: the skill's name and description, its badges (tier source, audit level, diagnostics,
// shadowed, checking…) and its on/off switch (role="switch", named after the skill).
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay } from '../i18n/say';
import { LevelBadge } from './Levels';
import { auditLevel, checking, problems, waitsForTrust, type SkillRowData } from '../state/skills';

/** Whether the row has a badge to show: a row without one has no badge line (a built-in skill, unaudited, usually). */
export function hasBadges(s: SkillRowData): boolean {
  return (
    s.source === 'agents' ||
    !!s.agentCreated ||
    checking(s) ||
    !!auditLevel(s) ||
    !!s.broken ||
    problems(s) > 0 ||
    !!s.shadowedBy
  );
}

interface Props {
  skill: SkillRowData;
  selected: boolean;
  onSelect(s: SkillRowData): void;
  onToggle(s: SkillRowData, enabled: boolean): unknown;
  onTrust(s: SkillRowData): unknown;
}

export const SkillRow = memo(function SkillRow({ skill, selected, onSelect, onToggle, onTrust }: Props) {
  const { t } = useTranslation();
  const say = useSay();
  // Why it is off, in the window's language (a held P1's reason names the CLI; the row says what the window offers).
  const held = waitsForTrust(skill);
  const level = auditLevel(skill);
  const busy = checking(skill);
  const count = problems(skill);
  const why = held ? '' : say(skill.disabledWords, skill.disabledReason);
  const badged = hasBadges(skill);
  return (
    <div
      className={`skill-row${selected ? ' selected' : ''}${skill.shadowedBy ? ' shadowed' : ''}${badged ? '' : ' plain'}`}
      data-skill={skill.name}
    >
      <button
        type="button"
        className="skill-main"
        onClick={() => onSelect(skill)}
        aria-current={selected ? 'true' : undefined}
        aria-label={t('skills.open', { name: skill.name })}
      >
        <span className="skill-name">{skill.name}</span>
        <span className="skill-desc">{skill.description}</span>
        {badged && (
          <span className="badges">
            {skill.source === 'agents' && <span className="badge">{t('skills.agentsFolder')}</span>}
            {skill.agentCreated && (
              <span className="badge" title={t('skills.agentCreatedHint')}>
                {t('skills.agentCreated')}
              </span>
            )}
            {busy && (
              <span className="badge checking" role="status">
                {t('skills.checking')}
              </span>
            )}
            {/* A SKILL.md that cannot be read has no level: the last audit was of the text before it broke. */}
            {!busy && level && !skill.broken && <LevelBadge level={level} trusted={skill.audit.status === 'trusted'} />}
            {skill.broken && (
              <span className="badge level-P0" title={say(skill.broken.words, skill.broken.message)}>
                {t('skills.brokenBadge')}
              </span>
            )}
            {count > 0 && <span className="badge warn">{t('skills.diagnostics', { count })}</span>}
            {skill.shadowedBy && (
              <span className="badge">{t('skills.shadowedBy', { tier: t(`tier.${skill.shadowedBy.tier}`) })}</span>
            )}
          </span>
        )}
      </button>
      <span className="skill-actions">
        {held && (
          <button
            type="button"
            className="small"
            onClick={() => onTrust(skill)}
            aria-label={t('skills.trustOne', { name: skill.name })}
          >
            {t('skills.trust')}
          </button>
        )}
        <button
          type="button"
          role="switch"
          aria-checked={skill.enabled}
          className="switch"
          aria-label={t('skills.toggle', { name: skill.name })}
          disabled={!!skill.shadowedBy || !!skill.broken}
          title={
            skill.broken
              ? say(skill.broken.words, skill.broken.message)
              : level === 'P0'
                ? `${t('skills.whyBlocked', { name: skill.name })} ${why}`.trim()
                : held
                  ? t('skills.whyUntrusted', { name: skill.name })
                  : !skill.enabled && why
                    ? why
                    : undefined
          }
          onClick={() => onToggle(skill, !skill.enabled)}
        >
          <span className="knob" aria-hidden="true" />
        </button>
      </span>
    </div>
  );
});
