// A line across the top of the window while its host is gone: said at once, without a click, with
// the command that starts the host again; it goes by itself once the window has connected again.

import { useEffect, useState } from 'react';
import { useConnections } from '../store/connections-store.ts';
import { useHostLink } from '../store/host-link-store.ts';
import { hostLinkNotice } from '../host-link-text.ts';

/** The countdown to the next try is told again this often. */
const TICK_MS = 1_000;

export function HostLinkNotice() {
  const link = useHostLink((s) => s.link);
  const startedBy = useConnections((s) => s.host?.startedBy);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (link.state !== 'lost') return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [link]);
  const said = hostLinkNotice(link, startedBy, now);
  // Mounted always, so a screen reader hears the alert when its text arrives.
  return (
    <div role="alert" className={said ? 'host-link-notice' : undefined}>
      {said}
    </div>
  );
}
