// A speed test's grid as a heatmap (chart.js with chartjs-chart-matrix): a row per size and direction, a
// column per thread count (or parts in flight), each cell coloured by its throughput against its row's
// best, the best of each row outlined. Beside it, the same figures as a table: a canvas is no text for a
// screen reader, and the table says how many requests each figure is based on.
//
// The figure's data-cells, data-drawn (what the chart drew) and data-best say what the canvas holds: the
// end-to-end test reads them.

import { useEffect, useRef } from 'react';
import { CategoryScale, Chart, Tooltip } from 'chart.js';
import type { ScriptableContext } from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { bestOfRows, cellFigures, gridRows, measured, rowLabel, throughput } from '../../src/speed-test.ts';
import type { SpeedCell, SpeedGridName } from '../../src/speed-test.ts';

Chart.register(MatrixController, MatrixElement, CategoryScale, Tooltip);

interface HeatPoint {
  readonly x: string;
  readonly y: string;
  /** Throughput against the row's best, 0 to 1; undefined where nothing was measured. */
  readonly share: number | undefined;
  readonly best: boolean;
  readonly figures: string;
  readonly requests: number;
}

const TITLES: Readonly<Record<SpeedGridName, { title: string; columns: (n: number) => string }>> = {
  objects: {
    title: 'Small objects: objects a second, by threads',
    columns: (n) => `${n} ${n === 1 ? 'thread' : 'threads'}`,
  },
  parts: { title: 'One large object: bytes a second, by parts at once', columns: (n) => `${n} at once` },
};

function requestsText(requests: number): string {
  return `${requests.toLocaleString('en-US')} ${requests === 1 ? 'request' : 'requests'}`;
}

function columnsOf(cells: readonly SpeedCell[]): number[] {
  return [...new Set(cells.map((cell) => cell.concurrency))].sort((a, b) => a - b);
}

function points(cells: readonly SpeedCell[], grid: SpeedGridName): HeatPoint[] {
  const best = bestOfRows(cells);
  const name = TITLES[grid].columns;
  return gridRows(cells, grid).flatMap((row) => {
    const rowBest = best.get(row.key);
    const top = rowBest ? throughput(rowBest) : 0;
    return row.cells.map((cell) => ({
      x: name(cell.concurrency),
      y: rowLabel(row),
      share: !measured(cell) || top === 0 ? undefined : throughput(cell) / top,
      best: rowBest === cell,
      figures: cellFigures(cell),
      requests: cell.requests,
    }));
  });
}

function cssColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function SpeedHeatmap({ cells, grid }: { cells: readonly SpeedCell[]; grid: SpeedGridName }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const figure = useRef<HTMLElement>(null);
  const data = points(cells, grid);
  const rows = gridRows(cells, grid);
  const columns = columnsOf(cells.filter((cell) => cell.grid === grid));
  const { title, columns: columnName } = TITLES[grid];

  useEffect(() => {
    if (!canvas.current || data.length === 0) return;
    const text = cssColour('--text', '#1b1d23');
    const muted = cssColour('--track', '#e6e8ee');
    const accent = '26, 90, 215';
    const chart = new Chart(canvas.current, {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: title,
            data: data.map((point) => ({ x: point.x, y: point.y })),
            backgroundColor: (context: ScriptableContext<'matrix'>) => {
              const share = data[context.dataIndex]?.share;
              return share === undefined ? muted : `rgba(${accent}, ${(0.12 + 0.88 * share).toFixed(3)})`;
            },
            borderColor: (context: ScriptableContext<'matrix'>) =>
              data[context.dataIndex]?.best ? text : 'transparent',
            borderWidth: (context: ScriptableContext<'matrix'>) => (data[context.dataIndex]?.best ? 3 : 0),
            width: ({ chart: c }) => (c.chartArea?.width ?? 0) / Math.max(1, columns.length) - 2,
            height: ({ chart: c }) => (c.chartArea?.height ?? 0) / Math.max(1, rows.length) - 2,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items) => {
                const point = data[items[0]?.dataIndex ?? 0];
                return point ? `${point.y}, ${point.x}` : '';
              },
              label: (item) => {
                const point = data[item.dataIndex];
                if (!point) return '';
                return `${point.best ? 'Best: ' : ''}${point.figures} (${requestsText(point.requests)})`;
              },
            },
          },
        },
        scales: {
          x: {
            type: 'category',
            labels: columns.map(columnName),
            offset: true,
            grid: { display: false },
            ticks: { color: text },
          },
          y: {
            type: 'category',
            // The grid's order top down, as the table below has it (the matrix's y axis counts up).
            labels: rows.map(rowLabel).reverse(),
            offset: true,
            grid: { display: false },
            ticks: { color: text },
          },
        },
      },
    });
    // The cells the chart drew, for a test to count (a canvas shows them to no one else).
    if (figure.current) figure.current.dataset.drawn = String(chart.getDatasetMeta(0).data.length);
    return () => chart.destroy();
  });

  const best = data.filter((point) => point.best).length;
  return (
    <figure ref={figure} className="speed-heatmap" data-grid={grid} data-cells={data.length} data-best={best}>
      <figcaption>{title}</figcaption>
      <div className="speed-heatmap-canvas" style={{ height: `${40 + rows.length * 30}px` }}>
        <canvas ref={canvas} role="img" aria-label={`${title}: the table below gives the same figures`} />
      </div>
      <table className="metadata speed-table" aria-label={title}>
        <thead>
          <tr>
            <th scope="col">Size</th>
            {columns.map((n) => (
              <th key={n} scope="col">
                {columnName(n)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{rowLabel(row)}</th>
              {columns.map((n) => {
                const cell = row.cells.find((each) => each.concurrency === n);
                const point = cell && data.find((each) => each.y === rowLabel(row) && each.x === columnName(n));
                return (
                  <td key={`${row.key}:${n}`} className={point?.best ? 'best' : undefined}>
                    {cell ? (
                      <>
                        {point?.best && <strong>Best: </strong>}
                        {cellFigures(cell)}
                        <span className="requests"> · {requestsText(cell.requests)}</span>
                      </>
                    ) : (
                      ''
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
