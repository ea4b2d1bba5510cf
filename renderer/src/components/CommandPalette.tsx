// The command palette (Mod+K): type to filter, arrows to move, Enter to run. Also the shortcuts list (Mod+/).
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useView } from '../state/store';
import { COMMANDS, shownKeys } from './commands';
import { Modal } from './Modal';

export function CommandPalette() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [i, setI] = useState(0);
  const close = () => useView.getState().set({ paletteOpen: false });
  const list = useMemo(
    () => COMMANDS.filter((c) => c.id !== 'palette' && t(c.label).toLowerCase().includes(q.toLowerCase())),
    [q, t],
  );

  function run(idx: number) {
    const c = list[idx];
    if (!c) return;
    close();
    c.run(useView.getState());
  }

  return (
    <Modal title={t('cmd.palette')} onClose={close}>
      <input
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-label={t('cmd.search')}
        aria-activedescendant={list[i] ? `cmd-${list[i]!.id}` : undefined}
        value={q}
        autoFocus
        onChange={(e) => {
          setQ(e.target.value);
          setI(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setI((x) => Math.min(x + 1, list.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setI((x) => Math.max(x - 1, 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            run(i);
          }
        }}
      />
      <ul id="palette-list" role="listbox" aria-label={t('cmd.palette')} className="plain palette">
        {list.map((c, idx) => (
          <li
            key={c.id}
            id={`cmd-${c.id}`}
            role="option"
            aria-selected={idx === i}
            className={idx === i ? 'active' : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              run(idx);
            }}
          >
            <span>{t(c.label)}</span>
            {c.keys && <kbd>{shownKeys(c.keys)}</kbd>}
          </li>
        ))}
        {list.length === 0 && <li className="muted">{t('cmd.none')}</li>}
      </ul>
    </Modal>
  );
}

export function ShortcutsList() {
  const { t } = useTranslation();
  return (
    <Modal title={t('cmd.shortcuts')} onClose={() => useView.getState().set({ shortcutsOpen: false })}>
      <table className="shortcuts">
        <tbody>
          {COMMANDS.filter((c) => c.keys).map((c) => (
            <tr key={c.id}>
              <td>{t(c.label)}</td>
              <td>
                <kbd>{shownKeys(c.keys!)}</kbd>
              </td>
            </tr>
          ))}
          <tr>
            <td>{t('cmd.send')}</td>
            <td>
              <kbd>Enter</kbd>
            </td>
          </tr>
          <tr>
            <td>{t('cmd.close')}</td>
            <td>
              <kbd>Esc</kbd>
            </td>
          </tr>
        </tbody>
      </table>
    </Modal>
  );
}
