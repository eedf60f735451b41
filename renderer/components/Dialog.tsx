// A modal dialog on the native <dialog> element: focus trapping, Escape and the backdrop for free.
// Focus starts on the element marked data-autofocus (the safe choice, such as Cancel), else on the
// dialog's first control. On close the focus goes back where it was (React removes the element
// before the browser could restore it), or, if that is gone (a deleted row), to the object table.
// A dialog opened over another (a folder picker over the download form) closes alone: React passes
// a dialog's close and cancel events on to the dialogs around it, which take only their own.

import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

/**
 * `title`: text, or text with names in it (each a <Name>, isolated); then `label` is the title as
 * plain text, for the dialog's accessible name.
 */
export function Dialog({
  title,
  label,
  onClose,
  children,
}: {
  title: ReactNode;
  label?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    if (dialog && !dialog.open) dialog.showModal();
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog?.close();
      // Only if the focus was lost: another dialog opened in its place keeps its own.
      if (document.activeElement && document.activeElement !== document.body) return;
      if (before?.isConnected) before.focus();
      else document.querySelector<HTMLElement>('.rows [tabindex="0"], .rows')?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={label ?? (typeof title === 'string' ? title : undefined)}
      onClose={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      onCancel={(e) => {
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
    >
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}
