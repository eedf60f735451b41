// The window: connections on top, buckets on the left, the browser in the middle, transfers on the
// right.

import { useEffect } from 'react';
import { useBrowser } from './store/browser-store.ts';
import { useConnections } from './store/connections-store.ts';
import { startSession } from './store/session.ts';
import { BucketList } from './components/BucketList.tsx';
import { ConnectionBar } from './components/ConnectionBar.tsx';
import { ObjectBrowser } from './components/ObjectBrowser.tsx';
import { TransfersPanel } from './components/TransfersPanel.tsx';

export function App() {
  const selectedId = useConnections((s) => s.selectedId);

  useEffect(() => startSession(), []);

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
