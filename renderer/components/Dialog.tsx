// A modal dialog on the native <dialog> element: focus trapping, Escape and the backdrop for free.
// Focus starts on the element marked data-autofocus (the safe choice, such as Cancel), else on the
// dialog's first control.

import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} aria-label={title} onClose={onClose} onCancel={(e) => { e.preventDefault(); onClose(); }}>
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}
