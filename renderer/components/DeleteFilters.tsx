// The delete dialog's filters: the command line's --older-than, --newer-than, --larger-than,
// --smaller-than, --storage-class, --include and --exclude, as fields read by the same parser
// (src/filter-form.ts). A value it refuses is said under the fields, with the rule.

import type { FilterFields } from '../../src/filter-form.ts';
import { FILTER_FIELD_LABELS } from '../../src/filter-form.ts';

const PLACEHOLDERS: Readonly<Record<keyof FilterFields, string>> = {
  olderThan: '90d, 12h or 2024-01-31',
  newerThan: '7d or 2024-06-01T12:00Z',
  largerThan: '1GiB, 500MB or 4096',
  smallerThan: '10KiB',
  storageClass: 'STANDARD_IA, GLACIER',
  include: '*.log, 2024-*/*',
  exclude: '*.keep',
};

const ORDER: readonly (keyof FilterFields)[] = [
  'olderThan',
  'newerThan',
  'largerThan',
  'smallerThan',
  'storageClass',
  'include',
  'exclude',
];

export function DeleteFilters({
  fields,
  problem,
  onChange,
}: {
  fields: FilterFields;
  /** The rule a value breaks, shown until it is mended. */
  problem: string | undefined;
  onChange: (fields: FilterFields) => void;
}) {
  return (
    <fieldset className="delete-filters">
      <legend>Only objects that match (each optional)</legend>
      {ORDER.map((name) => (
        <label key={name}>
          {FILTER_FIELD_LABELS[name]}
          <input
            value={fields[name]}
            placeholder={PLACEHOLDERS[name]}
            spellCheck={false}
            aria-invalid={problem?.startsWith(FILTER_FIELD_LABELS[name]) ? true : undefined}
            onChange={(e) => onChange({ ...fields, [name]: e.target.value })}
          />
        </label>
      ))}
      <p className="hint">Globs: comma-separated, matched below the folder; * spans "/".</p>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
