// Where the browser is: the bucket, then each folder of the prefix; a click goes there.

import { useBrowser } from '../store/browser-store.ts';

export function Breadcrumbs({ bucket, prefix }: { bucket: string; prefix: string }) {
  const open = useBrowser((s) => s.open);
  const crumbs = prefix.split('/').filter(Boolean);
  return (
    <nav aria-label="Breadcrumbs" className="breadcrumbs">
      <button type="button" className="link" onClick={() => open(bucket, '')}>{bucket}</button>
      {crumbs.map((name, i) => (
        <span key={i}> / <button type="button" className="link" onClick={() => open(bucket, `${crumbs.slice(0, i + 1).join('/')}/`)}>{name}</button></span>
      ))}
    </nav>
  );
}
