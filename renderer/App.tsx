// The window: connections on top, buckets on the left, the browser in the middle, transfers on the
// right. Panes resize (splitters) and the sizes are remembered; the bucket list collapses to a
// rail; on a narrow window (or when the user undocks it) Transfers is a drawer over the browser,
// so object names keep their room.

import { useEffect, useMemo } from 'react';
import { useBrowser } from './store/browser-store.ts';
import { useConnections } from './store/connections-store.ts';
import { useJobs } from './store/jobs-store.ts';
import { DOCK_TRANSFERS_FROM, useLayout } from './store/layout-store.ts';
import { startSession } from './store/session.ts';
import { useWindowWidth } from './layout/use-window-width.ts';
import { BucketList } from './components/BucketList.tsx';
import { ConflictDialog, firstConflict } from './components/ConflictDialog.tsx';
import { ConnectionBar } from './components/ConnectionBar.tsx';
import { JobDetailsDialog } from './components/JobDetailsDialog.tsx';
import { ObjectBrowser } from './components/ObjectBrowser.tsx';
import { Splitter } from './components/Splitter.tsx';
import { TransfersPanel } from './components/TransfersPanel.tsx';
import { HostLinkNotice } from './components/HostLinkNotice.tsx';
import { HistoryDialog } from './components/HistoryDialog.tsx';
import { RestoreDialog } from './components/RestoreDialog.tsx';

export function App() {
  const selectedId = useConnections((s) => s.selectedId);
  const { buckets, transfers, bucketsCollapsed, transfersDocked, drawerOpen } = useLayout();
  const docked = useWindowWidth() >= DOCK_TRANSFERS_FROM && transfersDocked;

  useEffect(() => startSession(), []);

  useEffect(() => {
    void useBrowser.getState().useConnection(selectedId);
  }, [selectedId]);

  return (
    <div className="app">
      <HostLinkNotice />
      <ConnectionBar transfersToggle={!docked} />
      <div className="panes">
        <BucketList width={bucketsCollapsed ? undefined : buckets} />
        {!bucketsCollapsed && <Splitter pane="buckets" side="left" label="Resize the bucket list" />}
        <ObjectBrowser />
        {docked && <Splitter pane="transfers" side="right" label="Resize the transfers panel" />}
        {(docked || drawerOpen) && <TransfersPanel mode={docked ? 'docked' : 'drawer'} width={transfers} />}
      </div>
      <ConflictPrompt />
      {/* Mounted here, not in Transfers: a closing drawer must not take an open job's details with it. */}
      <JobDetailsDialog />
      <HistoryDialog />
      <RestoreDialog />
    </div>
  );
}

/** A download waiting for the user's word asks whether Transfers is on screen or not. */
function ConflictPrompt() {
  const jobs = useJobs((s) => s.jobs);
  const asking = useMemo(() => firstConflict(jobs.values()), [jobs]);
  return asking ? (
    <ConflictDialog key={`${asking.job.id}:${asking.conflict.id}`} job={asking.job} conflict={asking.conflict} />
  ) : null;
}
