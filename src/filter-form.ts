// The delete dialog's filter fields, read by the command line's own parser (object-filter.ts).
//
// Every field is text as typed; an empty one is no filter. Globs go comma-separated in one field
// (the flags repeat instead). A refusal names the field by its label, with the rule the flag's
// refusal gives, so the window and `barge rm` refuse the same values for the same reasons.

import { FilterProblem, parseObjectFilter, splitGlobList } from './object-filter.ts';
import type { FilterFieldNames, ObjectFilter } from './object-filter.ts';

export interface FilterFields {
  readonly olderThan: string;
  readonly newerThan: string;
  readonly largerThan: string;
  readonly smallerThan: string;
  readonly storageClass: string;
  readonly include: string;
  readonly exclude: string;
}

export const EMPTY_FILTER_FIELDS: FilterFields = {
  olderThan: '',
  newerThan: '',
  largerThan: '',
  smallerThan: '',
  storageClass: '',
  include: '',
  exclude: '',
};

/** The fields' labels, which the refusals name. */
export const FILTER_FIELD_LABELS: FilterFieldNames = {
  olderThan: 'Older than',
  newerThan: 'Newer than',
  largerThan: 'Larger than',
  smallerThan: 'Smaller than',
  storageClass: 'Storage class',
  include: 'Include',
  exclude: 'Exclude',
};

/** The filter the fields describe (undefined: none), or the rule a value breaks. */
export type FilterFieldsReading =
  { readonly ok: true; readonly filter: ObjectFilter | undefined } | { readonly ok: false; readonly problem: string };

export function readFilterFields(fields: FilterFields, now: number): FilterFieldsReading {
  const given = (text: string) => (text.trim() === '' ? undefined : text.trim());
  try {
    const filter = parseObjectFilter(
      {
        include: splitGlobList(fields.include),
        exclude: splitGlobList(fields.exclude),
        olderThan: given(fields.olderThan),
        newerThan: given(fields.newerThan),
        largerThan: given(fields.largerThan),
        smallerThan: given(fields.smallerThan),
        storageClass: given(fields.storageClass),
      },
      now,
      FILTER_FIELD_LABELS,
    );
    return { ok: true, filter };
  } catch (error) {
    if (error instanceof FilterProblem) return { ok: false, problem: error.message };
    throw error;
  }
}
