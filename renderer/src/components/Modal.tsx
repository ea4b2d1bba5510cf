// A modal dialog (role="dialog", aria-modal, labelled by its heading): focus moves in on open, Escape closes it in
// every state (heard on the document, so a button that vanished under the focus — an install's Audit — cannot leave
// it deaf), Tab stays inside, and focus returns to where it was on close. Only the topmost dialog hears the keys.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface Props {
  title: string;
  onClose(): void;
  children: ReactNode;
  wide?: boolean;
}

/** Open dialogs, innermost last: Escape and Tab belong to the last one. */
const open: HTMLElement[] = [];

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea, select, a[href], [tabindex="0"]';

export function Modal({ title, onClose, children, wide }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // Where the focus was, read when the dialog first renders: by the time effects run, a control inside it with
  // autoFocus (the palette's search) already holds the focus, and returning there on close would drop it to the page.
  const [before] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );

  useEffect(() => {
    const el = ref.current!;
    open.push(el);
    const first = el.querySelector<HTMLElement>('[autofocus], input, textarea, select, button');
    (first ?? el).focus();
    const onKey = (e: KeyboardEvent) => {
      if (open[open.length - 1] !== el) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        closeRef.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const active = document.activeElement;
      if (items.length === 0) {
        e.preventDefault();
        el.focus();
        return;
      }
      const firstItem = items[0]!;
      const last = items[items.length - 1]!;
      if (!active || !el.contains(active)) {
        // Focus fell out of the dialog (the focused control was removed): Tab brings it back in.
        e.preventDefault();
        (e.shiftKey ? last : firstItem).focus();
      } else if (e.shiftKey && (active === firstItem || active === el)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        firstItem.focus();
      }
    };
    // The focused control removed (Audit's button once the report is in): focus would fall to the page, out of reach
    // of the dialog's keys. Browsers send no event for it, so every change inside the dialog checks.
    const watch = new MutationObserver(() => {
      const active = document.activeElement;
      if (open[open.length - 1] === el && (!active || active === document.body)) el.focus();
    });
    watch.observe(el, { childList: true, subtree: true });
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      watch.disconnect();
      open.splice(open.indexOf(el), 1);
      before?.focus?.();
    };
  }, []);

  return (
    <div
      className="backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        className={`modal${wide ? ' wide' : ''}`}
        tabIndex={-1}
      >
        <h2 id={id}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
