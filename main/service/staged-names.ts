// What a staged upload's job says, by the names its files were dropped with ("photos/a.txt").
//
// A browser's files wait in the host's staging folder (/tmp/barge-web-uploads-…/<batch>/), and the
// engine names them by where they are. Its details were rewritten; its row was not, and said
// "…; /tmp/barge-web-uploads-17380-Y2PWAg/d26df02a-…/myfolder/a.txt was not uploaded over it":
// a path the person never chose, on a machine that may not be theirs.

import type { ApiEvent } from '../../src/contract/api.ts';
import type { ItemError, JobState } from '../../src/jobs.ts';

/** A text with the staging folder (ending in a separator) taken out of it. */
function dropped(folder: string, text: string): string {
  return text.replaceAll(folder, '');
}

export function itemAsDropped(folder: string, item: ItemError): ItemError {
  return { ...item, item: dropped(folder, item.item), message: dropped(folder, item.message) };
}

export function stateAsDropped<S extends JobState>(folder: string, state: S): S {
  return state.status === 'failed' ? { ...state, error: { ...state.error, message: dropped(folder, state.error.message) } } : state;
}

/** A job's summary or snapshot (its state, and the item lists a snapshot has) as dropped. */
export function jobAsDropped<J extends { readonly state: JobState; readonly itemErrors?: readonly ItemError[]; readonly itemWarnings?: readonly ItemError[] }>(folder: string, job: J): J {
  return {
    ...job,
    state: stateAsDropped(folder, job.state),
    ...(job.itemErrors ? { itemErrors: job.itemErrors.map((item) => itemAsDropped(folder, item)) } : {}),
    ...(job.itemWarnings ? { itemWarnings: job.itemWarnings.map((item) => itemAsDropped(folder, item)) } : {}),
  };
}

/** An event as the page knows its jobs: `folderOf` gives a staged upload's folder, by its job. */
export function eventAsDropped(event: ApiEvent, folderOf: (id: string) => string | undefined): ApiEvent {
  const as = <J extends { readonly id: string; readonly state: JobState }>(job: J): J => {
    const folder = folderOf(job.id);
    return folder === undefined ? job : jobAsDropped(folder, job);
  };
  switch (event.type) {
    case 'jobs':
      return { ...event, jobs: event.jobs.map(as) };
    case 'job':
      return { ...event, job: as(event.job) };
    case 'job-items': {
      const folder = folderOf(event.id);
      if (folder === undefined) return event;
      return { ...event, errors: event.errors.map((item) => itemAsDropped(folder, item)), warnings: event.warnings.map((item) => itemAsDropped(folder, item)) };
    }
    default:
      return event;
  }
}
