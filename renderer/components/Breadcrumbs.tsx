// Where the browser is: the bucket, then each folder of the prefix; a click goes there.

import { ChevronRight, Database } from 'lucide-react';
import { useBrowser } from '../store/browser-store.ts';
import { Name } from './Name.tsx';

export function Breadcrumbs({ bucket, prefix }: { bucket: string; prefix: string }) {
  const open = useBrowser((s) => s.open);
  const crumbs = prefix.split('/').filter(Boolean);
  return (
    <nav aria-label="Breadcrumbs" className="breadcrumbs">
      <button
        type="button"
        className="link"
        onClick={() => open(bucket, '')}
        aria-current={crumbs.length === 0 ? 'location' : undefined}
      >
        <Database size={14} aria-hidden />
        <Name text={bucket} />
      </button>
      {crumbs.map((name, i) => (
        <span key={i} className="crumb">
          <ChevronRight size={14} aria-hidden className="separator" />
          <span className="visually-hidden"> / </span>
          <button
            type="button"
            className="link exact"
            aria-current={i === crumbs.length - 1 ? 'location' : undefined}
            onClick={() => open(bucket, `${crumbs.slice(0, i + 1).join('/')}/`)}
          >
            <Name text={name} />
          </button>
        </span>
      ))}
    </nav>
  );
}
