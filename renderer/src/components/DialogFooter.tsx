// The end the dialogs share: their actions, last of them Close (or Cancel); and the line saying what went wrong,
// read out as it appears (role="alert"), wherever a screen has one.
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText, type Shown } from '../i18n/ErrorText';

export function ErrorLine({ error }: { error: Shown | undefined }) {
  return error ? (
    <p role="alert" className="error">
      <ErrorText error={error} />
    </p>
  ) : null;
}

export function DialogFooter({
  onClose,
  cancel,
  closeRef,
  autoFocus,
  children,
}: {
  onClose(): void;
  /** Nothing was done yet: the button says Cancel rather than Close. */
  cancel?: boolean;
  closeRef?: Ref<HTMLButtonElement>;
  autoFocus?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="actions">
      {children}
      <button type="button" ref={closeRef} onClick={onClose} autoFocus={autoFocus}>
        {t(cancel ? 'common.cancel' : 'common.close')}
      </button>
    </div>
  );
}
