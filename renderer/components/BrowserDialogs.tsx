// The browser's dialogs and what opens them: delete (the selection, or the whole prefix or bucket),
// download the selection, sync the folder on screen with a local one, rename, copy or move to, a new
// folder, and an object's details (kept in the details store).

import { useBrowser } from '../store/browser-store.ts';
import type { RowRef } from '../store/browser-store.ts';
import { useConnections } from '../store/connections-store.ts';
import { DeleteDialog } from './DeleteDialog.tsx';
import type { DeleteTarget } from './DeleteDialog.tsx';
import { DetailsDialog } from './DetailsDialog.tsx';
import { DownloadDialog } from './DownloadDialog.tsx';
import { SyncDialog } from './SyncDialog.tsx';
import { CopyToDialog } from './CopyToDialog.tsx';
import { NewFolderDialog } from './NewFolderDialog.tsx';
import { RenameDialog } from './RenameDialog.tsx';
import { copySources } from '../store/file-actions-store.ts';
import type { CopySources } from '../store/file-actions-store.ts';
import { FolderSizeDialog } from './FolderSizeDialog.tsx';
import { SpeedTestDialog } from './SpeedTestDialog.tsx';
import { parentOf } from './useBrowserKeyboard.ts';

/** The browser's open dialog (the details dialog apart: the details store keeps that one). */
export type BrowserDialog =
  | { readonly kind: 'delete'; readonly target: DeleteTarget }
  | {
      readonly kind: 'download';
      readonly connectionId: string;
      readonly bucket: string;
      readonly keys: string[];
      readonly prefixes: string[];
    }
  | { readonly kind: 'sync'; readonly connectionId: string; readonly bucket: string; readonly prefix: string }
  | { readonly kind: 'new-folder'; readonly connectionId: string; readonly bucket: string; readonly prefix: string }
  | {
      readonly kind: 'rename';
      readonly connectionId: string;
      readonly bucket: string;
      readonly prefix: string;
      readonly row: RowRef;
    }
  | { readonly kind: 'copy-to'; readonly sources: CopySources; readonly move: boolean };

/**
 * Delete the selected rows: objects by key, folders by prefix. `sizeOf`: the size the listing shows
 * for a key, so the preview and the job count the same bytes (sent only when every object has one).
 */
export function deleteSelection(
  connectionId: string,
  bucket: string,
  selected: readonly RowRef[],
  sizeOf: (key: string) => number | undefined = () => undefined,
): BrowserDialog {
  const objects = selected.filter((r) => r.kind === 'object');
  const sizes = objects.map((r) => sizeOf(r.key));
  return {
    kind: 'delete',
    target: {
      connectionId,
      bucket,
      keys: objects.map((r) => r.key),
      ...(sizes.every((size) => size !== undefined) ? { keySizes: sizes } : {}),
      prefixes: selected.filter((r) => r.kind === 'folder').map((r) => r.key),
      confirmName: selected.length === 1 ? selected[0]!.name : `${selected.length} items`,
    },
  };
}

/** Delete everything below the prefix on screen (the whole bucket at its top). */
export function deletePrefix(connectionId: string, bucket: string, prefix: string): BrowserDialog {
  return {
    kind: 'delete',
    target: { connectionId, bucket, keys: [], prefixes: [prefix], confirmName: prefix || bucket },
  };
}

/** Download the selected rows: objects by key, folders by prefix. */
export function downloadSelection(connectionId: string, bucket: string, selected: readonly RowRef[]): BrowserDialog {
  return {
    kind: 'download',
    connectionId,
    bucket,
    keys: selected.filter((r) => r.kind === 'object').map((r) => r.key),
    prefixes: selected.filter((r) => r.kind === 'folder').map((r) => r.key),
  };
}

/** Copy (or move) the selected rows somewhere picked: objects by key, folders by prefix. */
export function copySelection(
  connectionId: string,
  bucket: string,
  selected: readonly RowRef[],
  move: boolean,
): BrowserDialog {
  return { kind: 'copy-to', sources: copySources(connectionId, bucket, selected), move };
}

/**
 * Where the browser goes once a delete has started: the folder on screen deleted, to its parent
 * (an empty folder that no longer exists is no place to stay); else it stays, and lists again.
 */
export function prefixAfterDelete(
  target: DeleteTarget,
  bucket: string | undefined,
  prefix: string,
): string | undefined {
  return prefix !== '' && target.bucket === bucket && target.prefixes.includes(prefix) ? parentOf(prefix) : undefined;
}

export function BrowserDialogs({ dialog, onClose }: { dialog: BrowserDialog | undefined; onClose: () => void }) {
  const { clearSelection, refresh, open, bucket, prefix } = useBrowser();
  const defaultFolder = useConnections((s) => s.host?.defaultDownloadFolder ?? '');
  return (
    <>
      {dialog?.kind === 'delete' && (
        // The listing is taken again once the delete has had time to start.
        <DeleteDialog
          target={dialog.target}
          onClose={onClose}
          onDeleted={() => {
            clearSelection();
            const parent = prefixAfterDelete(dialog.target, bucket, prefix);
            if (parent !== undefined) open(bucket, parent);
            else setTimeout(refresh, 1500);
          }}
        />
      )}
      {dialog?.kind === 'download' && (
        <DownloadDialog
          connectionId={dialog.connectionId}
          bucket={dialog.bucket}
          keys={dialog.keys}
          prefixes={dialog.prefixes}
          defaultFolder={defaultFolder}
          onClose={onClose}
        />
      )}
      {dialog?.kind === 'sync' && (
        <SyncDialog
          connectionId={dialog.connectionId}
          bucket={dialog.bucket}
          prefix={dialog.prefix}
          defaultFolder={defaultFolder}
          onClose={onClose}
        />
      )}
      {dialog?.kind === 'new-folder' && (
        <NewFolderDialog
          connectionId={dialog.connectionId}
          bucket={dialog.bucket}
          prefix={dialog.prefix}
          onClose={onClose}
        />
      )}
      {dialog?.kind === 'rename' && (
        <RenameDialog
          connectionId={dialog.connectionId}
          bucket={dialog.bucket}
          prefix={dialog.prefix}
          row={dialog.row}
          onClose={onClose}
        />
      )}
      {dialog?.kind === 'copy-to' && <CopyToDialog sources={dialog.sources} move={dialog.move} onClose={onClose} />}
      <DetailsDialog />
      <FolderSizeDialog />
      <SpeedTestDialog />
    </>
  );
}
