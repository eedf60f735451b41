// Pick, add, edit, remove and test connections. Connections from the AWS environment and profiles
// are listed without any typing; the form to add or edit one is ConnectionForm.

import { useState } from 'react';
import type { ConnectionSummary } from '../../src/contract/models.ts';
import { useConnections } from '../store/connections-store.ts';
import { ConnectionForm } from './ConnectionForm.tsx';
import { Dialog } from './Dialog.tsx';

export function ConnectionBar() {
  const { connections, selectedId, select, remove, test, testStatus, error, form: editing, openForm: setEditing } = useConnections();
  const selected = connections.find((c) => c.id === selectedId);
  const [removing, setRemoving] = useState<ConnectionSummary>();

  return (
    <header className="connection-bar">
      <strong className="brand">Barge</strong>
      <label>
        Connection{' '}
        <select aria-label="Connection" value={selectedId ?? ''} onChange={(e) => select(e.target.value || undefined)}>
          {connections.length === 0 && <option value="">No connections yet</option>}
          {connections.map((c) => <option key={c.id} value={c.id}>{c.name}{c.endpoint ? ` (${c.endpoint})` : ''}</option>)}
        </select>
      </label>
      <button type="button" onClick={() => setEditing('new')}>Add connection</button>
      <button type="button" disabled={selected?.source !== 'saved'} onClick={() => setEditing(selected)}>Edit</button>
      <button type="button" disabled={selected?.source !== 'saved'} onClick={() => setRemoving(selected)}>Remove</button>
      <button type="button" disabled={!selectedId} onClick={() => void test()}>Test</button>
      <span role="status" className="status">{testStatus ?? error}</span>
      {editing && <ConnectionForm existing={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
      {removing && (
        // Its secret cannot be typed back from memory: the removal is asked once more, Cancel first.
        <Dialog title="Remove connection" onClose={() => setRemoving(undefined)}>
          <p>
            Remove <strong>{removing.name}</strong>{removing.endpoint ? ` (${removing.endpoint})` : ''}? Its stored secret key is
            deleted from this computer. Nothing in its buckets is touched.
          </p>
          <div className="buttons">
            <button type="button" data-autofocus onClick={() => setRemoving(undefined)}>Cancel</button>
            <button type="button" className="danger" onClick={() => { void remove(removing.id); setRemoving(undefined); }}>Remove</button>
          </div>
        </Dialog>
      )}
    </header>
  );
}
