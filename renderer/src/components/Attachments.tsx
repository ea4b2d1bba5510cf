// Files in the conversation: the ones attached to the message being written (with a Remove each, and the files
// refused with why), the ones a sent message carried, and the choice a dropped skill package (.zip) or folder offers.
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { displaySafe, type Attachment, type AttachmentMeta } from '../../../preload/contract';
import { sizeText, tokensOf, type Refusal } from '../state/attach';

/**
 * The Remove pressed leaves with its file: the focus goes to the Remove now in its place (the next file's, else the
 * last one's), never to the page. The list's owner takes it when the last file goes (the list leaves too).
 */
function useFocusAfterRemove(list: RefObject<HTMLUListElement | null>, count: number): (i: number) => void {
  const at = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (at.current === undefined) return;
    const buttons = list.current?.querySelectorAll('button') ?? [];
    buttons[Math.min(at.current, buttons.length - 1)]?.focus();
    at.current = undefined;
  }, [list, count]);
  return (i) => {
    at.current = i;
  };
}

/** "×": leave the file `name` out of the message. */
function RemoveFile({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="small link" aria-label={t('chat.attach.remove', { name })} onClick={onClick}>
      ×
    </button>
  );
}

/**
 * The files going with the next message, each removable, then the files that were refused and why. An image for a
 * model that reads none (`noImages`: that model) says so on its chip at once; Send is refused by main, naming it.
 */
export function AttachedFiles({
  files,
  noImages,
  refused,
  onRemove,
  onDismiss,
}: {
  files: readonly Attachment[];
  noImages?: string | undefined;
  refused: readonly Refusal[];
  onRemove: (i: number) => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  const removed = useFocusAfterRemove(list, files.length);
  if (!files.length && !refused.length) return null;
  return (
    <div className="attached">
      {files.length > 0 && (
        <ul ref={list} aria-label={t('chat.attach.list')} className="file-chips">
          {files.map((f, i) => (
            <li key={`${i}:${f.name}`} className="file-chip">
              <span className="name">{f.name}</span>{' '}
              {f.kind === 'image' && noImages !== undefined ? (
                <span className="error small-text">
                  {t('chat.attach.noImages', { size: sizeText(f.size), model: displaySafe(noImages) })}
                </span>
              ) : (
                <span className="muted small-text">
                  {t('chat.attach.meta', { size: sizeText(f.size), tokens: tokensOf(f).toLocaleString() })}
                </span>
              )}{' '}
              <RemoveFile
                name={f.name}
                onClick={() => {
                  removed(i);
                  onRemove(i);
                }}
              />
            </li>
          ))}
        </ul>
      )}
      {refused.length > 0 && (
        <div role="alert" className="error refused">
          {refused.map((r, i) => (
            <p key={i}>{t(`chat.attach.${r.key}`, { name: r.name, ...r.values })}</p>
          ))}
          <button type="button" className="small" onClick={onDismiss}>
            {t('chat.attach.dismiss')}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The files a sent message carried: name and size (what the model was given with it). While the message is edited
 * (`onRemove`), each has a Remove: what is left goes with the edit.
 */
export function SentFiles({
  files,
  label,
  onRemove,
}: {
  files: readonly AttachmentMeta[];
  label?: string;
  onRemove?: (i: number) => void;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  const removed = useFocusAfterRemove(list, files.length);
  return (
    <ul ref={list} aria-label={label ?? t('chat.attach.sent')} className="file-chips sent">
      {files.map((f, i) => (
        <li key={`${i}:${f.name}`} className="file-chip">
          <span className="name">{f.name}</span> <span className="muted small-text">{sizeText(f.size)}</span>
          {onRemove && (
            <>
              {' '}
              <RemoveFile
                name={f.name}
                onClick={() => {
                  removed(i);
                  onRemove(i);
                }}
              />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A skill package or folder dropped on the chat: open it in the skill installer, or leave it. */
export function PackageChoice({
  name,
  folder,
  onInstall,
  onDismiss,
}: {
  name: string;
  folder: boolean;
  onInstall: () => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('chat.attach.packageLabel')} className="package-choice notice info">
      <p>{t(folder ? 'chat.attach.folder' : 'chat.attach.package', { name })}</p>
      <button type="button" className="small primary" onClick={onInstall}>
        {t('chat.attach.install')}
      </button>{' '}
      <button type="button" className="small" onClick={onDismiss}>
        {t('chat.attach.notNow')}
      </button>
    </div>
  );
}
