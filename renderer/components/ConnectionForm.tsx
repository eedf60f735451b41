// Add or edit a connection. Test checks it as typed, without saving it (connections.check: one
// ListBuckets with a short time limit); Save runs the same check first and saves only a connection
// that works, unless told "Save anyway". What is wrong is said by the field it concerns: the form's
// own checks (the contract's schema, run here before anything is sent) and the store's answer alike.
// Secrets are typed here once and never shown again: a stored one is never sent back to the window.

import { useState } from 'react';
import type { FormEvent } from 'react';
import type {
  ConnectionCheck,
  ConnectionFailure,
  ConnectionInput,
  ConnectionSummary,
} from '../../src/contract/models.ts';
import { connectionInputSchema } from '../../src/contract/models.ts';
import { useConnections } from '../store/connections-store.ts';
import { Dialog } from './Dialog.tsx';

type Field = keyof ConnectionInput;
type Problems = Partial<Record<Field, string>>;

/** What failed, as the status line names it before the reason (which is by its field). */
const FAILURE_LABELS: Readonly<Record<ConnectionFailure, string>> = {
  dns: "the endpoint's name does not resolve (DNS)",
  refused: 'the connection was refused',
  unreachable: 'the endpoint cannot be reached',
  tls: 'the secure connection (TLS) failed',
  timeout: 'the store did not answer in time',
  keys: 'the store refused the keys (403)',
  region: 'the region is wrong',
  credentials: 'no credentials',
  endpoint: 'this host refuses the endpoint',
  'not-s3': 'the endpoint is not an S3 store',
  other: 'the store answered with an error',
};

/** The form's own check, by field: the contract's schema, its refusals in words a person reads. */
export function formProblems(form: ConnectionInput): Problems {
  const parsed = connectionInputSchema.safeParse(form);
  if (parsed.success) return {};
  const problems: Problems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field | undefined;
    if (field === undefined || problems[field]) continue;
    problems[field] = issue.code === 'too_big' ? `At most ${String(issue.maximum)} characters.` : issue.message;
  }
  return problems;
}

/** The status line's words for a check's outcome. */
export function checkSummary(check: ConnectionCheck): string {
  if (!check.ok) return `Test failed: ${FAILURE_LABELS[check.failed]}.`;
  if (check.buckets === undefined) return `Connected. ${check.note ?? ''}`.trim();
  return `Connected: ${check.buckets.toLocaleString()} bucket${check.buckets === 1 ? '' : 's'}.`;
}

export function ConnectionForm({
  existing,
  onClose,
}: {
  existing: ConnectionSummary | undefined;
  onClose: () => void;
}) {
  const { add, edit, check } = useConnections();
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
  const [problems, setProblems] = useState<Problems>({});
  /** A failure no field is to blame for (the store's own error, a refusal on save). */
  const [formError, setFormError] = useState<string>();
  const [status, setStatus] = useState<{ readonly text: string; readonly outcome?: 'passed' | 'failed' }>();
  const [busy, setBusy] = useState(false);
  /** The check failed on Save: the user may save all the same. */
  const [offerSaveAnyway, setOfferSaveAnyway] = useState(false);

  const change = (patch: Partial<ConnectionInput>) => {
    setForm({ ...form, ...patch });
    // What was said of the fields changed no longer holds; nor does the last check.
    const rest = { ...problems };
    for (const field of Object.keys(patch) as Field[]) delete rest[field];
    setProblems(rest);
    setStatus(undefined);
    setOfferSaveAnyway(false);
  };
  const field = (name: Field) => (e: { target: { value: string } }) => change({ [name]: e.target.value });

  /** The form's own check, then the store's: true when the connection works. */
  async function runCheck(): Promise<boolean> {
    const own = formProblems(form);
    setProblems(own);
    setFormError(undefined);
    setOfferSaveAnyway(false);
    if (Object.keys(own).length > 0) {
      setStatus({ text: 'Correct the fields marked first.', outcome: 'failed' });
      return false;
    }
    setStatus({ text: 'Testing…' });
    setBusy(true);
    try {
      const outcome = await check(form, existing?.id);
      setStatus({ text: checkSummary(outcome), outcome: outcome.ok ? 'passed' : 'failed' });
      if (outcome.ok) return true;
      if (outcome.field) setProblems({ [outcome.field]: outcome.message });
      else setFormError(outcome.message);
      return false;
    } catch (e) {
      setStatus(undefined);
      setFormError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function save() {
    setBusy(true);
    try {
      if (existing) await edit(existing.id, form);
      else await add(form);
      onClose();
    } catch (e) {
      const error = e as Error & { code?: string };
      if (error.code === 'EndpointRefused') setProblems({ endpoint: error.message });
      else setFormError(error.message);
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await runCheck()) await save();
    // Only the store's answer is worth overriding; a field the form itself refuses is not.
    else if (Object.keys(formProblems(form)).length === 0) setOfferSaveAnyway(true);
  }

  /** A field's props for its problem: marked invalid, and described by what is wrong. */
  const described = (name: Field) => ({
    'aria-invalid': problems[name] ? true : undefined,
    'aria-describedby': problems[name] ? `connection-${name}-problem` : undefined,
  });
  const problem = (name: Field) =>
    problems[name] && (
      <span id={`connection-${name}-problem`} className="field-problem" role="alert">
        {problems[name]}
      </span>
    );

  return (
    <Dialog title={existing ? 'Edit connection' : 'Add connection'} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} className="form" noValidate>
        <div className="field">
          <label>
            Name <input required value={form.name} onChange={field('name')} {...described('name')} />
          </label>
          {problem('name')}
        </div>
        <div className="field">
          <label>
            Endpoint URL{' '}
            <input
              placeholder="https://… (empty for AWS)"
              value={form.endpoint ?? ''}
              onChange={field('endpoint')}
              {...described('endpoint')}
            />
          </label>
          {problem('endpoint')}
        </div>
        <div className="field">
          <label>
            Region{' '}
            <input
              placeholder="us-east-1"
              value={form.region ?? ''}
              onChange={field('region')}
              {...described('region')}
            />
          </label>
          {problem('region')}
        </div>
        <label className="inline">
          <input
            type="checkbox"
            checked={form.pathStyle ?? false}
            onChange={(e) => change({ pathStyle: e.target.checked })}
          />{' '}
          Path-style addressing (MinIO, Ceph, most self-hosted stores)
        </label>
        <div className="field">
          <label>
            AWS profile{' '}
            <input
              placeholder="(or keys below)"
              value={form.profile ?? ''}
              onChange={field('profile')}
              {...described('profile')}
            />
          </label>
          {problem('profile')}
        </div>
        <div className="field">
          <label>
            Access key ID{' '}
            <input
              autoComplete="off"
              value={form.accessKeyId ?? ''}
              onChange={field('accessKeyId')}
              {...described('accessKeyId')}
            />
          </label>
          {problem('accessKeyId')}
        </div>
        <div className="field">
          <label>
            Secret access key{' '}
            <input
              type="password"
              autoComplete="off"
              placeholder={existing?.hasSecret ? '(stored; leave empty to keep)' : ''}
              value={form.secretAccessKey ?? ''}
              onChange={field('secretAccessKey')}
              {...described('secretAccessKey')}
            />
          </label>
          {problem('secretAccessKey')}
        </div>
        <label>
          Checksums
          <select
            value={form.checksumMode ?? ''}
            onChange={(e) => change({ checksumMode: (e.target.value || undefined) as ConnectionInput['checksumMode'] })}
          >
            <option value="">Default (AWS: when supported; others: when required)</option>
            <option value="when_supported">When supported (AWS)</option>
            <option value="when_required">When required (R2, B2 and other stores)</option>
          </select>
        </label>
        <label>
          Upload checksum
          <select
            value={form.uploadChecksum ?? ''}
            onChange={(e) =>
              change({ uploadChecksum: (e.target.value || undefined) as ConnectionInput['uploadChecksum'] })
            }
          >
            <option value="">Default (AWS: CRC64NVME; others: CRC32C)</option>
            <option value="CRC64NVME">CRC64NVME</option>
            <option value="CRC32C">CRC32C</option>
            <option value="CRC32">CRC32 (least CPU)</option>
            <option value="MD5">Content-MD5 (stores without CRC checksums)</option>
            <option value="OFF">None</option>
          </select>
        </label>
        <p role="status" aria-live="polite" className={`check-status ${status?.outcome ?? ''}`}>
          {status?.text}
        </p>
        {formError && (
          <p role="alert" className="error">
            {formError}
          </p>
        )}
        <div className="buttons">
          <button type="button" disabled={busy} onClick={() => void runCheck()}>
            Test
          </button>
          <span className="spacer" />
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          {offerSaveAnyway && (
            <button type="button" disabled={busy} onClick={() => void save()}>
              Save anyway
            </button>
          )}
          <button type="submit" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
