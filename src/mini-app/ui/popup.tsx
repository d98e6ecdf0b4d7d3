import { useLingui } from '@lingui/react';
import { useEffect, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface PopupProps {
  title?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** An accessible name when the title is not plain text. */
  label?: string;
}

/** A bottom sheet over a dim backdrop; tapping the backdrop or × closes it, and so does Escape. */
export const Popup = ({ title, onClose, children, label }: PopupProps) => {
  const { _ } = useLingui();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return createPortal(
    <div className="popup__backdrop" onClick={onClose}>
      <div
        className="popup"
        role="dialog"
        aria-modal="true"
        aria-label={label ?? (typeof title === 'string' ? title : undefined)}
        onClick={(e) => e.stopPropagation()}
      >
        <button className="popup__close" aria-label={_('app.ui.closePopup')} onClick={onClose}>×</button>
        {title !== undefined && <h2 className="popup__title">{title}</h2>}
        {children}
      </div>
    </div>,
    document.body,
  );
};
