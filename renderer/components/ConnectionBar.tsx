// Pick, add, edit, remove and test connections. Connections from the AWS environment and profiles
// are listed without any typing; the form to add or edit one is ConnectionForm.

import { ArrowDownUp, Pencil, PlugZap, Plus, Ship, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { isFinished } from '../../src/jobs.ts';
import type { ConnectionSummary } from '../../src/contract/models.ts';
import { useConnections } from '../store/connections-store.ts';
import { isPreview, useJobs } from '../store/jobs-store.ts';
import { useLayout } from '../store/layout-store.ts';
import { ConnectionForm } from './ConnectionForm.tsx';
import { Dialog } from './Dialog.tsx';
import { HistoryButton } from './HistoryButton.tsx';

/** `transfersToggle`: Transfers is not docked, so the bar offers the button that opens its drawer. */
export function ConnectionBar({ transfersToggle = false }: { transfersToggle?: boolean }) {
  const {
    connections,
    selectedId,
    select,
    remove,
    test,
    testStatus,
    error,
    form: editing,
    openForm: setEditing,
  } = useConnections();
  const selected = connections.find((c) => c.id === selectedId);
  const [removing, setRemoving] = useState<ConnectionSummary>();

  return (
    <header className="connection-bar">
      <div className="brand">
        <Ship size={20} aria-hidden />
        <h1>Barge</h1>
      </div>
      <label>
        Connection{' '}
        <select aria-label="Connection" value={selectedId ?? ''} onChange={(e) => select(e.target.value || undefined)}>
          {connections.length === 0 && <option value="">No connections yet</option>}
          {connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.endpoint ? ` (${c.endpoint})` : ''}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => setEditing('new')}>
        <Plus size={14} aria-hidden />
        Add connection
      </button>
      <button type="button" disabled={selected?.source !== 'saved'} onClick={() => setEditing(selected)}>
        <Pencil size={14} aria-hidden />
        Edit
      </button>
      <button type="button" disabled={selected?.source !== 'saved'} onClick={() => setRemoving(selected)}>
        <Trash2 size={14} aria-hidden />
        Remove
      </button>
      <button type="button" disabled={!selectedId} onClick={() => void test()}>
        <PlugZap size={14} aria-hidden />
        Test
      </button>
      <span role="status" className="status">
        {testStatus ?? error}
      </span>
      <span className="spacer" />
      <HistoryButton />
      {transfersToggle && <TransfersToggle />}
      {editing && (
        <ConnectionForm existing={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      )}
      {removing && (
        // Its secret cannot be typed back from memory: the removal is asked once more, Cancel first.
        <Dialog title="Remove connection" onClose={() => setRemoving(undefined)}>
          <p>
            Remove <strong>{removing.name}</strong>
            {removing.endpoint ? ` (${removing.endpoint})` : ''}? Its stored secret key is deleted from this computer.
            Nothing in its buckets is touched.
          </p>
          <div className="buttons">
            <button type="button" data-autofocus onClick={() => setRemoving(undefined)}>
              Cancel
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                void remove(removing.id);
                setRemoving(undefined);
              }}
            >
              Remove
            </button>
          </div>
        </Dialog>
      )}
    </header>
  );
}

/** Opens the Transfers drawer; says how many jobs are under way, so work is never out of sight. */
function TransfersToggle() {
  const open = useLayout((s) => s.drawerOpen);
  const setOpen = useLayout((s) => s.setDrawerOpen);
  const active = useJobs((s) => {
    let count = 0;
    for (const job of s.jobs.values()) if (!isFinished(job.state) && !isPreview(job, s.previews)) count++;
    return count;
  });
  return (
    <button type="button" className="transfers-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
      <ArrowDownUp size={14} aria-hidden />
      Transfers
      {active > 0 && (
        <span className="badge">
          {active.toLocaleString()}
          <span className="visually-hidden"> under way</span>
        </span>
      )}
    </button>
  );
}
