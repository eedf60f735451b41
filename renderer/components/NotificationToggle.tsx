// The switch for notifications in a browser: a transfer longer than 10 s that finishes or fails is
// told, once the user turns it on (the browser asks its permission then, never on load). The
// desktop app tells from its main process, through the system: no switch there.

import { Bell } from 'lucide-react';
import { useConnections } from '../store/connections-store.ts';
import { useNotifications } from '../store/notifications-store.ts';

export function NotificationToggle() {
  const host = useConnections((s) => s.host?.kind);
  const { enabled, support, enable, disable } = useNotifications();
  if (host !== 'web') return null;
  const on = enabled && support === 'granted';
  return (
    <section className="notification-toggle" aria-label="Notifications">
      <label className="inline">
        <input
          type="checkbox"
          checked={on}
          disabled={support === 'unsupported' || support === 'denied'}
          onChange={(e) => void (e.target.checked ? enable() : disable())}
        />
        <Bell size={14} aria-hidden /> Notify me when a transfer longer than 10 s finishes or fails
      </label>
      {support === 'denied' && (
        <p className="hint">
          This browser blocks notifications from this page: allow them in its site settings, then reload.
        </p>
      )}
      {support === 'unsupported' && (
        <p className="hint">Notifications need this page at an https:// address or on this machine (localhost).</p>
      )}
    </section>
  );
}
