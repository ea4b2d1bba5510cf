// The `/` menu of the message box: typing `/` at the start lists the enabled skills to load by choice, filtered as you
// type (name, description, triggers, either language). ↑/↓ move, Enter or Tab picks (the box then starts with
// `/name `, which loads the skill when the message is sent), Esc closes. Kept out of the message box's own component:
// the box spreads `aria` on its textarea, asks `onKeyDown` first and renders `menu` beside it.
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { menuKey } from './menu-keys';
import type { SkillRowData } from '../state/skills';
import { useView } from '../state/store';

/** Rows the menu shows at most. */
const MAX_ROWS = 8;

/** The query while the box holds only `/` and a word being typed; undefined when the menu does not apply. */
export function slashQuery(text: string): string | undefined {
  const m = /^\/([^\s/]*)$/u.exec(text);
  return m ? m[1]! : undefined;
}

/** Enabled, unshadowed skills whose name, description or a trigger holds the query; names that start with it first. */
export function slashMatches(skills: SkillRowData[], query: string): SkillRowData[] {
  const q = query.toLowerCase();
  const usable = skills.filter((s) => s.enabled && !s.shadowedBy && !s.broken);
  const hit = usable.filter(
    (s) =>
      s.name.toLowerCase().includes(q) ||
      s.description.toLowerCase().includes(q) ||
      s.triggers.some((t) => t.toLowerCase().includes(q)),
  );
  const starts = (s: SkillRowData) => (s.name.toLowerCase().startsWith(q) ? 0 : 1);
  return hit.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name)).slice(0, MAX_ROWS);
}

export interface SlashMenu {
  /** Spread on the textarea. */
  aria: { 'aria-controls'?: string; 'aria-activedescendant'?: string; 'aria-autocomplete': 'list' };
  /** True when the key was the menu's (the box does nothing more with it). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  menu: ReactNode;
}

export function useSlashMenu(text: string, setText: (t: string) => void): SlashMenu {
  const { t } = useTranslation();
  const id = useId();
  const skills = useView((s) => s.skills);
  const [active, setActive] = useState(0);
  // The text the user closed the menu on (Esc): it stays closed until the text changes.
  const [closedOn, setClosedOn] = useState<string>();
  const query = slashQuery(text);
  const rows = useMemo(() => (query === undefined ? [] : slashMatches(skills, query)), [skills, query]);
  const open = query !== undefined && closedOn !== text;
  const at = Math.min(active, Math.max(rows.length - 1, 0));
  const optionId = (i: number) => `${id}-opt-${i}`;

  const pick = (s: SkillRowData) => {
    setText(`/${s.name} `);
    setActive(0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean =>
    menuKey(e, { open, rows, at, move: setActive, pick, close: () => setClosedOn(text) });

  const menu = open ? (
    <div className="slash-menu">
      {rows.length === 0 ? (
        <p className="muted small-text" role="status">
          {t('slash.none', { query })}
        </p>
      ) : (
        <ul id={`${id}-list`} role="listbox" aria-label={t('slash.label')}>
          {rows.map((s, i) => (
            <li
              key={`${s.tier}:${s.name}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === at}
              className={i === at ? 'active' : undefined}
              // Keep the focus in the box: a click picks without blurring it.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(s)}
            >
              <strong>/{s.name}</strong> <span className="muted small-text">{s.description}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  ) : null;

  return {
    aria: {
      'aria-autocomplete': 'list',
      ...(open && rows.length ? { 'aria-controls': `${id}-list`, 'aria-activedescendant': optionId(at) } : {}),
    },
    onKeyDown,
    menu,
  };
}
