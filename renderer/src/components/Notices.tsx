// The window's notices (the queue in state/notices.ts): newest on top, a few at once and "+N more" for the rest. An
// error is an alert that stays until dismissed, with Retry where the call can be made again; an info notice is a status
// that goes after a while on screen (not while the pointer or the focus is on it). Esc dismisses the focused notice.
// Hand-written: no toast library is among the dependencies, and this is one small list over the store.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { INFO_MS, NOTICES_SHOWN, noticeText, type Notice } from '../state/notices';
import { useView, type ViewState } from '../state/store';
import { ErrorText } from '../i18n/ErrorText';

function NoticeItem({ n, onDismiss }: { n: Notice; onDismiss: (n: Notice) => void }) {
  const { t } = useTranslation();
  const [pointer, setPointer] = useState(false);
  const [focus, setFocus] = useState(false);
  const held = pointer || focus;
  // An info notice times out only while it is on screen and not being read; the same one again starts it over.
  useEffect(() => {
    if (n.kind !== 'info' || held) return;
    const id = setTimeout(() => onDismiss(n), INFO_MS);
    return () => clearTimeout(id);
  }, [n, held, onDismiss]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    onDismiss(n);
  };
  return (
    <div
      className={`toast ${n.kind}`}
      role={n.kind === 'error' ? 'alert' : 'status'}
      onKeyDown={onKeyDown}
      onMouseEnter={() => setPointer(true)}
      onMouseLeave={() => setPointer(false)}
      onFocus={() => setFocus(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocus(false);
      }}
    >
      <span className="toast-text">{typeof n.text === 'object' ? <ErrorText error={n.text} /> : noticeText(n)}</span>
      {n.count > 1 && (
        <span className="toast-count" title={t('notices.times', { count: n.count })}>
          <span aria-hidden="true">×{n.count}</span>
          <span className="sr-only">{t('notices.times', { count: n.count })}</span>
        </span>
      )}
      {n.retry && (
        <button
          type="button"
          className="small"
          onClick={() => {
            const retry = n.retry!;
            onDismiss(n);
            retry();
          }}
        >
          {t('notices.retry')}
        </button>
      )}
      <button type="button" className="small toast-close" title={t('notices.dismiss')} onClick={() => onDismiss(n)}>
        <span aria-hidden="true">×</span>
        <span className="sr-only">{t('notices.dismiss')}</span>
      </button>
    </div>
  );
}

/**
 * Where the notices are, so they cover nothing: on the open-folder and setup screens, at their top; over an open folder,
 * in the middle column, the chat's above its message box and another view's under it (never over the side panels).
 */
type Place = 'page' | 'chat' | 'column';

function placeOf(s: ViewState): Place {
  if (!s.workspace || s.picking || s.setup) return 'page';
  return s.view === 'chat' ? 'chat' : 'column';
}

/** The notices, when `place` is where they are now (each place renders this; one of them shows them). */
export function NoticesAt({ place }: { place: Place }) {
  const here = useView((s) => placeOf(s) === place);
  return here ? <Notices className={place === 'page' ? 'on-page' : 'in-column'} /> : null;
}

function Notices({ className }: { className: string }) {
  const { t } = useTranslation();
  const notices = useView((s) => s.notices);
  const dismissNotice = useView((s) => s.dismissNotice);
  const [all, setAll] = useState(false);
  const ref = useRef<HTMLElement>(null);
  /** Where the focus was before it came into the notices: it goes back there when the last focused one is dismissed. */
  const back = useRef<HTMLElement | null>(null);
  /** After a notice holding the focus goes: the place in the list the focus moves to. */
  const refocus = useRef<number | undefined>(undefined);

  const shown = all ? notices : notices.slice(0, NOTICES_SHOWN);
  const more = notices.length - shown.length;

  const onDismiss = useCallback(
    (n: Notice) => {
      const slots = ref.current ? [...ref.current.querySelectorAll('.toast-slot')] : [];
      const i = slots.findIndex((x) => x.getAttribute('data-id') === String(n.id));
      if (i >= 0 && slots[i]!.contains(document.activeElement)) refocus.current = i;
      dismissNotice(n.id);
    },
    [dismissNotice],
  );

  useLayoutEffect(() => {
    const i = refocus.current;
    if (i === undefined) return;
    refocus.current = undefined;
    const slots = ref.current ? [...ref.current.querySelectorAll<HTMLElement>('.toast-slot')] : [];
    const next = slots[Math.min(i, slots.length - 1)]?.querySelector<HTMLElement>('button');
    if (next) next.focus();
    else if (back.current?.isConnected) back.current.focus();
  }, [notices]);

  useEffect(() => {
    if (notices.length <= NOTICES_SHOWN) setAll(false);
  }, [notices.length]);

  return (
    <section
      ref={ref}
      className={`toasts ${className}`}
      aria-label={t('notices.label')}
      onFocus={(e) => {
        const from = e.relatedTarget as HTMLElement | null;
        if (from && !e.currentTarget.contains(from)) back.current = from;
      }}
    >
      {shown.map((n) => (
        <div key={n.id} data-id={n.id} className="toast-slot">
          <NoticeItem n={n} onDismiss={onDismiss} />
        </div>
      ))}
      {more > 0 && (
        <button type="button" className="small toasts-more" aria-expanded={false} onClick={() => setAll(true)}>
          {t('notices.more', { count: more })}
        </button>
      )}
      {all && notices.length > NOTICES_SHOWN && (
        <button type="button" className="small toasts-more" aria-expanded onClick={() => setAll(false)}>
          {t('notices.fewer')}
        </button>
      )}
    </section>
  );
}
