// Pick, add, edit, remove and test connections. Connections from the AWS environment and profiles
// are listed without any typing; secrets are typed here once and never shown again.

import { ArrowDownUp, Pencil, PlugZap, Plus, Ship, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { isFinished } from '../../src/jobs.ts';
import type { ConnectionInput, ConnectionSummary } from '../../src/contract/models.ts';
import { useConnections } from '../store/connections-store.ts';
import { useJobs } from '../store/jobs-store.ts';
import { useLayout } from '../store/layout-store.ts';
import { Dialog } from './Dialog.tsx';

/** `transfersToggle`: Transfers is not docked, so the bar offers the button that opens its drawer. */
export function ConnectionBar({ transfersToggle = false }: { transfersToggle?: boolean }) {
  const { connections, selectedId, select, remove, test, testStatus, error, form: editing, openForm: setEditing } = useConnections();
  const selected = connections.find((c) => c.id === selectedId);
  const [removing, setRemoving] = useState<ConnectionSummary>();

  return (
    <header className="connection-bar">
      <div className="brand"><Ship size={20} aria-hidden /><h1>Barge</h1></div>
      <label>
        Connection{' '}
        <select aria-label="Connection" value={selectedId ?? ''} onChange={(e) => select(e.target.value || undefined)}>
          {connections.length === 0 && <option value="">No connections yet</option>}
          {connections.map((c) => <option key={c.id} value={c.id}>{c.name}{c.endpoint ? ` (${c.endpoint})` : ''}</option>)}
        </select>
      </label>
      <button type="button" onClick={() => setEditing('new')}><Plus size={14} aria-hidden />Add connection</button>
      <button type="button" disabled={selected?.source !== 'saved'} onClick={() => setEditing(selected)}><Pencil size={14} aria-hidden />Edit</button>
      <button type="button" disabled={selected?.source !== 'saved'} onClick={() => setRemoving(selected)}><Trash2 size={14} aria-hidden />Remove</button>
      <button type="button" disabled={!selectedId} onClick={() => void test()}><PlugZap size={14} aria-hidden />Test</button>
      <span role="status" className="status">{testStatus ?? error}</span>
      <span className="spacer" />
      {transfersToggle && <TransfersToggle />}
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

/** Opens the Transfers drawer; says how many jobs are under way, so work is never out of sight. */
function TransfersToggle() {
  const open = useLayout((s) => s.drawerOpen);
  const setOpen = useLayout((s) => s.setDrawerOpen);
  const active = useJobs((s) => {
    let count = 0;
    for (const job of s.jobs.values()) if (!isFinished(job.state) && !s.previews.has(job.id)) count++;
    return count;
  });
  return (
    <button type="button" className="transfers-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
      <ArrowDownUp size={14} aria-hidden />Transfers{active > 0 && <span className="badge">{active.toLocaleString()}<span className="visually-hidden"> under way</span></span>}
    </button>
  );
}

function ConnectionForm({ existing, onClose }: { existing: ConnectionSummary | undefined; onClose: () => void }) {
  const { add, edit } = useConnections();
  const [form, setForm] = useState<ConnectionInput>({
    name: existing?.name ?? '',
    endpoint: existing?.endpoint ?? '',
    region: existing?.region ?? '',
    pathStyle: existing?.pathStyle ?? true,
    profile: existing?.profile ?? '',
    accessKeyId: existing?.accessKeyId ?? '',
    secretAccessKey: '',
    checksumMode: existing?.checksumMode,
    uploadChecksum: existing?.uploadChecksum,
  });
  const [error, setError] = useState<string>();
  const field = (name: keyof ConnectionInput) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      if (existing) await edit(existing.id, form);
      else await add(form);
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <Dialog title={existing ? 'Edit connection' : 'Add connection'} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>Name <input required value={form.name} onChange={field('name')} /></label>
        <label>Endpoint URL <input placeholder="https://… (empty for AWS)" value={form.endpoint ?? ''} onChange={field('endpoint')} /></label>
        <label>Region <input placeholder="us-east-1" value={form.region ?? ''} onChange={field('region')} /></label>
        <label className="inline"><input type="checkbox" checked={form.pathStyle ?? false} onChange={(e) => setForm({ ...form, pathStyle: e.target.checked })} /> Path-style addressing (MinIO, Ceph, most self-hosted stores)</label>
        <label>AWS profile <input placeholder="(or keys below)" value={form.profile ?? ''} onChange={field('profile')} /></label>
        <label>Access key ID <input autoComplete="off" value={form.accessKeyId ?? ''} onChange={field('accessKeyId')} /></label>
        <label>Secret access key <input type="password" autoComplete="off" placeholder={existing?.hasSecret ? '(stored; leave empty to keep)' : ''} value={form.secretAccessKey ?? ''} onChange={field('secretAccessKey')} /></label>
        <label>Checksums
          <select value={form.checksumMode ?? ''} onChange={(e) => setForm({ ...form, checksumMode: (e.target.value || undefined) as ConnectionInput['checksumMode'] })}>
            <option value="">Default (AWS: when supported; others: when required)</option>
            <option value="when_supported">When supported (AWS)</option>
            <option value="when_required">When required (R2, B2 and other stores)</option>
          </select>
        </label>
        <label>Upload checksum
          <select value={form.uploadChecksum ?? ''} onChange={(e) => setForm({ ...form, uploadChecksum: (e.target.value || undefined) as ConnectionInput['uploadChecksum'] })}>
            <option value="">Default (AWS: CRC64NVME; others: CRC32C)</option>
            <option value="CRC64NVME">CRC64NVME</option>
            <option value="CRC32C">CRC32C</option>
            <option value="CRC32">CRC32 (least CPU)</option>
            <option value="MD5">Content-MD5 (stores without CRC checksums)</option>
            <option value="OFF">None</option>
          </select>
        </label>
        {error && <p role="alert" className="error">{error}</p>}
        <div className="buttons">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="submit">Save</button>
        </div>
      </form>
    </Dialog>
  );
}
