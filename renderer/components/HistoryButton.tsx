// Opens the History view (the jobs every host ran, kept after they end) from the window's top bar.

import { History } from 'lucide-react';
import { useHistory } from '../store/history-store.ts';

export function HistoryButton() {
  const show = useHistory((s) => s.show);
  return (
    <button type="button" title="Finished jobs, kept across restarts: audit, export, undo" onClick={() => void show()}>
      <History size={14} aria-hidden />
      History
    </button>
  );
}
