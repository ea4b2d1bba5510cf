// Files in the conversation: the ones attached to the message being written (with a Remove each, and the files
// refused with why), the ones a sent message carried, and the choice a dropped skill package (.zip) or folder offers.
import { useTranslation } from 'react-i18next';
import type { Attachment, AttachmentMeta } from '../../../preload/contract';
import { sizeText, tokensOf, type Refusal } from '../state/attach';

/** "×": leave the file `name` out of the message. */
function RemoveFile({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="small link" aria-label={t('chat.attach.remove', { name })} onClick={onClick}>
      ×
    </button>
  );
}

/** The files going with the next message, each removable, then the files that were refused and why. */
export function AttachedFiles({
  files,
  refused,
  onRemove,
  onDismiss,
}: {
  files: readonly Attachment[];
  refused: readonly Refusal[];
  onRemove: (i: number) => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  if (!files.length && !refused.length) return null;
  return (
    <div className="attached">
      {files.length > 0 && (
        <ul aria-label={t('chat.attach.list')} className="file-chips">
          {files.map((f, i) => (
            <li key={`${i}:${f.name}`} className="file-chip">
              <span className="name">{f.name}</span>{' '}
              <span className="muted small-text">
                {t('chat.attach.meta', { size: sizeText(f.size), tokens: tokensOf(f).toLocaleString() })}
              </span>{' '}
              <RemoveFile name={f.name} onClick={() => onRemove(i)} />
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
  return (
    <ul aria-label={label ?? t('chat.attach.sent')} className="file-chips sent">
      {files.map((f, i) => (
        <li key={`${i}:${f.name}`} className="file-chip">
          <span className="name">{f.name}</span> <span className="muted small-text">{sizeText(f.size)}</span>
          {onRemove && (
            <>
              {' '}
              <RemoveFile name={f.name} onClick={() => onRemove(i)} />
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
