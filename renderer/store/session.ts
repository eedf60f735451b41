// The window's start: engine events flow into the stores, then the first snapshots are taken.
// Events are subscribed before the snapshot of jobs is taken, so no progress is missed.

import { api } from './api.ts';
import { useConnections } from './connections-store.ts';
import { useBrowser } from './browser-store.ts';
import { onJobsCompleted, useJobs } from './jobs-store.ts';
import { useSettings } from './settings-store.ts';
import { useNotifications } from './notifications-store.ts';
import { useHostLink } from './host-link-store.ts';
import { useSpeedTest } from './speed-test-store.ts';

/** Subscribe the stores to the engine's events and load what is there; returns the unsubscribe. */
export function startSession(): () => void {
  const jobs = useJobs.getState();
  const unsubscribe = api().subscribe((event) => {
    useNotifications.getState().received(event);
    switch (event.type) {
      case 'jobs':
        jobs.apply(event.jobs, { live: true });
        break;
      case 'job':
        jobs.apply([event.job], { live: true });
        break;
      case 'job-items':
        jobs.addItems(event.id, event.errors, event.warnings);
        break;
      case 'jobs-removed':
        jobs.remove(event.ids);
        break;
      case 'settings':
        useSettings.getState().received(event.settings);
        break;
      case 'stats':
        jobs.setStats(event.stats);
        break;
      case 'demo':
        useConnections.getState().demoProgress(event.line);
        break;
      case 'speedtest':
        useSpeedTest.getState().received(event);
        break;
    }
  });
  // The host gone and back (started again): what the window shows is taken from it afresh, its
  // jobs (those it brought back, as they stood) in place of the ones shown.
  let wasLost = false;
  const unwatched = api().watchHost?.((link) => {
    useHostLink.getState().changed(link);
    if (link.state !== 'connected') {
      wasLost = true;
      return;
    }
    if (!wasLost) return;
    wasLost = false;
    void jobs.load({ replace: true });
    void useSettings.getState().load();
    void useConnections.getState().load();
    void useBrowser.getState().loadBuckets();
    void useBrowser.getState().reload();
  });
  // A job that changed the folder on screen (an upload into it, a delete in it): listed again.
  const unheard = onJobsCompleted((done) => useBrowser.getState().jobsCompleted(done));
  void jobs.load();
  void useSettings.getState().load();
  void useConnections.getState().load();
  return () => {
    unsubscribe();
    unheard();
    unwatched?.();
  };
}
