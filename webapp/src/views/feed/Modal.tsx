import { type CSSProperties, type ReactNode, useEffect, useRef } from 'react';

/**
 * A modal dialog on the native <dialog>: the browser keeps focus inside and closes it on Escape;
 * focus goes back where it was when it closes.
 */
export function Modal({
  label,
  role = 'dialog',
  onClose,
  className,
  style,
  children,
}: {
  label: string;
  role?: 'dialog' | 'alertdialog';
  onClose: () => void;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      dialog?.close();
      before?.focus();
    };
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click closes on the backdrop; Escape closes it from the keyboard
    <dialog
      ref={ref}
      role={role}
      aria-label={label}
      className={`modal ${className ?? ''}`}
      style={style}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog itself.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {children}
    </dialog>
  );
}
