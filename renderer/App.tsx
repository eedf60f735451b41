// The window: connections on top, buckets on the left, the browser in the middle, transfers on the
// right. Events are subscribed before the first snapshot is taken, so no progress is missed.

import { useEffect } from 'react';
import { api, request } from './store/api.ts';
import { useBrowser } from './store/browser-store.ts';
import { useConnections } from './store/connections-store.ts';
import { useJobs } from './store/jobs-store.ts';
import { useSettings } from './store/settings-store.ts';
import { BucketList } from './components/BucketList.tsx';
import { ConnectionBar } from './components/ConnectionBar.tsx';
import { ObjectBrowser } from './components/ObjectBrowser.tsx';
import { TransfersPanel } from './components/TransfersPanel.tsx';

export function App() {
  const selectedId = useConnections((s) => s.selectedId);

  useEffect(() => {
    const jobs = useJobs.getState();
    const unsubscribe = api().subscribe((event) => {
      switch (event.type) {
        case 'jobs': jobs.apply(event.jobs); break;
        case 'jobs-removed': jobs.remove(event.ids); break;
        case 'settings': useSettings.getState().received(event.settings); break;
        case 'stats': jobs.setStats(event.stats); break;
      }
    });
    void request('jobs.snapshot', {}).then((all) => jobs.apply(all));
    void useSettings.getState().load();
    void useConnections.getState().load();
    return unsubscribe;
  }, []);

  useEffect(() => {
    void useBrowser.getState().useConnection(selectedId);
  }, [selectedId]);

  return (
    <div className="app">
      <ConnectionBar />
      <div className="panes">
        <BucketList />
        <ObjectBrowser />
        <TransfersPanel />
      </div>
    </div>
  );
}
