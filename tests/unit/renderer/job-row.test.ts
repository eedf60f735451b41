import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { JobRow } from '../../../renderer/components/TransfersPanel.tsx';
import type { JobView } from '../../../renderer/store/jobs-store.ts';

const job = (over: Partial<JobView['progress']>, warnings: JobView['itemWarnings'] = []): JobView => ({
  id: 'j1', kind: 'download', name: 'photos', state: { status: 'completed' }, createdAt: 0, itemErrors: [], itemWarnings: warnings,
  progress: { objectsDone: 3, objectsFailed: 0, objectsTotal: 3, bytesDone: 30, bytesTotal: 30, totalsKnown: true, bytesPerSecond: 0, etaSeconds: undefined, ...over },
});

const render = (snapshot: JobView) => renderToStaticMarkup(createElement(JobRow, { job: snapshot, onAct: () => undefined }));

it('a finished download with objects checked for size only says so on its row, with each object and why', () => {
  const html = render(job({ objectsSizeOnly: 2 }, [{ item: 's3://b/k', code: 'SizeOnly', message: 's3://b/k was checked for its size only: the store reports no checksum.' }]));
  expect(html).toContain('2 objects checked for size only');
  expect(html).toContain('title="s3://b/k was checked for its size only: the store reports no checksum."');
  expect(render(job({ objectsSizeOnly: 0 }))).not.toContain('size only');
});
