// A browser's upload names its files as they were dropped ("photos/a.jpg"), never by the host's
// staging folder they wait in (/tmp/barge-staging-…/<batch>/photos/a.jpg): that path means nothing to
// the user, and tells a page how the host lays out its disk.
//
// The engine names a file by its path wherever it speaks of it (an error, a warning, a receipt, the
// details), so the folder is taken out once, here, of everything the service hands out about such a job.

import type { ApiEvent } from '../../src/contract/api.ts';

export class StagedNames {
  /** Each staged upload's staging folder (with its trailing separator), by its job. */
  private readonly folders = new Map<string, string>();

  add(jobId: string, folder: string): void {
    this.folders.set(jobId, folder);
  }

  remove(jobIds: Iterable<string>): void {
    for (const id of jobIds) this.folders.delete(id);
  }

  /** `value` (a summary, an update, a page of items, a receipt line), every text in it as dropped. */
  of<T>(jobId: string, value: T): T {
    const folder = this.folders.get(jobId);
    return folder === undefined ? value : withoutFolder(value, folder);
  }

  /** An event as the page may hear it. */
  event(event: ApiEvent): ApiEvent {
    if (this.folders.size === 0) return event;
    switch (event.type) {
      case 'jobs':
        return { ...event, jobs: event.jobs.map((job) => this.of(job.id, job)) };
      case 'job':
        return { ...event, job: this.of(event.job.id, event.job) };
      case 'job-items':
        return this.of(event.id, event);
      default:
        return event;
    }
  }
}

/** Plain data (what goes out as JSON) with `folder` taken out of every string. */
function withoutFolder<T>(value: T, folder: string): T {
  if (typeof value === 'string') return value.replaceAll(folder, '') as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutFolder(item, folder)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutFolder(item, folder)])) as T;
  }
  return value;
}
