// A folder on the engine's machine, typed or browsed: the field of the Download and Sync dialogs.
//
// Electron's window is on that machine and opens its native dialog; a browser's is not, so it browses the
// host's folders with FolderPicker. The picker is a dialog with a form of its own: it is handed back apart,
// for the dialog to place outside its form (a submit inside would reach the outer form's handler).

import { useState } from 'react';
import type { ReactNode } from 'react';
import { isWholePath } from '../../src/local-path.ts';
import { useConnections } from '../store/connections-store.ts';
import { FolderPicker } from './FolderPicker.tsx';

export interface FolderFieldOptions {
  readonly label: string;
  readonly ariaLabel: string;
  readonly initial: string;
  /** The id of the text that says which machine the folder is on, where the window says it. */
  readonly describedBy?: string;
  /** A folder chosen by browsing (the dialog clears its error). */
  readonly onChosen?: () => void;
}

export function useFolderField(options: FolderFieldOptions): { folder: string; field: ReactNode; picker: ReactNode } {
  const [folder, setFolder] = useState(options.initial);
  const [picking, setPicking] = useState(false);
  const host = useConnections((s) => s.host);
  const pickFolder = useConnections((s) => s.pickFolder);
  async function browse() {
    if (host?.kind === 'web') return setPicking(true);
    const picked = await pickFolder(folder);
    if (picked) setFolder(picked);
  }
  const field = (
    <div className="folder-field">
      <label>
        {options.label}{' '}
        <input
          required
          aria-label={options.ariaLabel}
          aria-describedby={options.describedBy}
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
        />
      </label>
      <button type="button" onClick={() => void browse()}>
        Browse…
      </button>
    </div>
  );
  const picker = picking && host && (
    <FolderPicker
      machineName={host.machineName}
      start={isWholePath(folder) ? folder : undefined}
      onChoose={(chosen) => {
        setFolder(chosen);
        options.onChosen?.();
        setPicking(false);
      }}
      onClose={() => setPicking(false)}
    />
  );
  return { folder, field, picker };
}
