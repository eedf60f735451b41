// The speed test of an endpoint (issue 29 §2): its grid, how a time budget is shared over it, the best
// setting it found, and the result in words and as a table. Pure: the engine runs the cells
// (main/engine/jobs/speed-test.ts), the window draws the heatmap, the command line prints the table.
//
// Two grids, each cell measured up and down: threads by object size for small objects (objects a
// second), and part size by parts in flight for one large object (bytes a second). Each cell runs for
// its slice of the budget or its count of requests, whichever ends first, and says how many requests
// its figures come from.

import { z } from 'zod';
import { formatBytes, formatObjectRate, formatRate, KIB, MIB } from './byte-units.ts';
import { shellWord } from './shell-word.ts';

export const DEFAULT_SPEED_TEST_BUDGET_MS = 60_000;
export const MIN_SPEED_TEST_BUDGET_MS = 10_000;
export const MAX_SPEED_TEST_BUDGET_MS = 600_000;

/** The cells to measure: threads by object size, and part size by parts in flight. */
export interface SpeedTestGrid {
  readonly threads: readonly number[];
  readonly objectSizes: readonly number[];
  readonly partSizes: readonly number[];
  readonly partConcurrency: readonly number[];
}

/**
 * Where the measurements behind Auto put the turns: threads gain 10x on small objects under latency and
 * flatten at 64, more; part sizes from S3's 5 MiB least to 64 MiB, with 1 to 64 parts in flight.
 */
export const DEFAULT_SPEED_TEST_GRID: SpeedTestGrid = {
  threads: [1, 4, 16, 64, 256],
  objectSizes: [16 * KIB, 256 * KIB, 2 * MIB],
  partSizes: [5 * MIB, 8 * MIB, 16 * MIB, 32 * MIB, 64 * MIB],
  partConcurrency: [1, 4, 16, 64],
};

/** The share of the budget the small objects' grid takes (the large object's has the rest). */
const OBJECT_GRID_SHARE = 0.5;
/** A cell stops after this many bytes, however fast the store: what the test leaves there at once stays bounded. */
const CELL_BYTES_CAP = 1024 * MIB;
/** ...but never before every thread has had a few requests. */
const REQUESTS_PER_THREAD_AT_LEAST = 4;

export type SpeedGridName = 'objects' | 'parts';
export type SpeedDirection = 'up' | 'down';

/** One cell as planned: what it sends and how long it may take. */
export interface PlannedCell {
  readonly grid: SpeedGridName;
  readonly direction: SpeedDirection;
  /** Threads (objects in flight), or parts in flight. */
  readonly concurrency: number;
  /** The object's size, or the part's. */
  readonly sizeBytes: number;
  readonly sliceMs: number;
  readonly maxRequests: number;
  /** When its grid's share of the budget ends, from the start: a run shares what is left among the cells left. */
  readonly gridEndsAtMs: number;
}

/** A cell runs at least this long, whatever the budget: less measures little but the start of its requests. */
export const MIN_SLICE_MS = 100;

/**
 * A cell's slice as the run goes: what is left of its grid's share, divided among the cells left in it
 * (so time a cell did not use, or overran, is shared by the rest), never below MIN_SLICE_MS.
 */
export function sliceNow(cell: PlannedCell, elapsedMs: number, cellsLeftInGrid: number): number {
  return Math.max(MIN_SLICE_MS, Math.floor((cell.gridEndsAtMs - elapsedMs) / Math.max(1, cellsLeftInGrid)));
}

/**
 * The cells in the order they run, each with its slice of the budget: per size, the uploads (which
 * make the objects) and then the downloads (which read them). Each grid's share is divided evenly.
 */
export function planSpeedTest(grid: SpeedTestGrid, budgetMs: number): PlannedCell[] {
  const objectCells = grid.threads.length * grid.objectSizes.length * 2;
  const partCells = grid.partConcurrency.length * grid.partSizes.length * 2;
  const objectShare = partCells === 0 ? 1 : objectCells === 0 ? 0 : OBJECT_GRID_SHARE;
  const objectSlice = objectCells === 0 ? 0 : (budgetMs * objectShare) / objectCells;
  const partSlice = partCells === 0 ? 0 : (budgetMs * (1 - objectShare)) / partCells;
  const cells = (
    gridName: SpeedGridName,
    sizes: readonly number[],
    concurrencies: readonly number[],
    sliceMs: number,
    gridEndsAtMs: number,
  ): PlannedCell[] =>
    sizes.flatMap((sizeBytes) =>
      (['up', 'down'] as const).flatMap((direction) =>
        concurrencies.map((concurrency) => ({
          grid: gridName,
          direction,
          concurrency,
          sizeBytes,
          sliceMs: Math.floor(sliceMs),
          maxRequests: Math.max(concurrency * REQUESTS_PER_THREAD_AT_LEAST, Math.ceil(CELL_BYTES_CAP / sizeBytes)),
          gridEndsAtMs,
        })),
      ),
    );
  return [
    ...cells('objects', grid.objectSizes, grid.threads, objectSlice, Math.floor(budgetMs * objectShare)),
    ...cells('parts', grid.partSizes, grid.partConcurrency, partSlice, budgetMs),
  ];
}

export const speedCellSchema = z.object({
  grid: z.enum(['objects', 'parts']),
  direction: z.enum(['up', 'down']),
  concurrency: z.number().int().positive(),
  sizeBytes: z.number().int().positive(),
  /** Requests that completed within the cell's time: what its objects a second are based on. */
  requests: z.number().int().nonnegative(),
  /** Requests that failed (throttled, refused for a moment, cut off), counted and not retried. */
  errors: z.number().int().nonnegative(),
  /**
   * Body bytes that passed: of the uploads that completed; of the downloads, as they arrived (those cut off at
   * the end of the slice too).
   */
  bytes: z.number().nonnegative(),
  elapsedMs: z.number().nonnegative(),
  /** Why a cell has no figures (nothing of its size was there to read), if so. */
  note: z.string().optional(),
});
export type SpeedCell = z.infer<typeof speedCellSchema>;

export const speedTestResultSchema = z.object({
  id: z.string(),
  /** Where it ran: the store (as the engine names it, src/ has no URL of its own) and the bucket. */
  endpoint: z.string(),
  bucket: z.string(),
  prefix: z.string(),
  measuredAt: z.number(),
  budgetMs: z.number(),
  elapsedMs: z.number(),
  cells: z.array(speedCellSchema),
  /** Max speed was on: every byte was held to it, and `reached` says whether the test ran into it. */
  maxSpeed: z.object({ bytesPerSecond: z.number(), reached: z.boolean() }).optional(),
  /** Transfers that were running beside the test, sharing the link with it. */
  runningJobs: z.number().int().nonnegative().default(0),
});
export type SpeedTestResult = z.infer<typeof speedTestResultSchema>;

/** What a run left behind: nothing, verified by a listing; else where it is, for the user to remove. */
export interface SpeedTestCleanup {
  /** The test's own prefix, as an s3:// address. */
  readonly place: string;
  readonly clean: boolean;
  /** What the last listing found; undefined when it could not be listed (nothing is known). */
  readonly objectsLeft: number | undefined;
  readonly uploadsLeft: number | undefined;
  /** Why it is not clean (a delete refused, a listing that failed), in words. */
  readonly problem?: string;
}

/** The saved best for an endpoint, which Auto starts from. */
export interface SpeedTestBest {
  /** The threads that did best across the object sizes (each size's throughput against its own best). */
  readonly threads: number;
  /** The part size, and the parts in flight, of the large object's best cell (up and down together). */
  readonly partSizeBytes: number | undefined;
  readonly partConcurrency: number | undefined;
  /** Each size's and direction's best threads. */
  readonly threadsBySize: readonly {
    readonly sizeBytes: number;
    readonly direction: SpeedDirection;
    readonly threads: number;
  }[];
  readonly measuredAt: number;
}

/** A size of the grid as people write it: "16 KiB", "5 MiB" (a whole number of its unit), else as formatBytes. */
export function sizeLabel(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return formatBytes(bytes);
}

export function objectsPerSecond(cell: SpeedCell): number {
  return cell.elapsedMs > 0 ? (cell.requests * 1000) / cell.elapsedMs : 0;
}

export function bytesPerSecond(cell: SpeedCell): number {
  return cell.elapsedMs > 0 ? (cell.bytes * 1000) / cell.elapsedMs : 0;
}

/**
 * A cell's throughput as its row compares it: objects a second for small objects (of requests that
 * completed), bytes a second for parts (a large part's bytes count as they arrive).
 */
export function throughput(cell: SpeedCell): number {
  return cell.grid === 'objects' ? objectsPerSecond(cell) : bytesPerSecond(cell);
}

/** Whether a cell measured anything: an object that completed, or a large object's bytes. */
export function measured(cell: SpeedCell): boolean {
  return cell.grid === 'objects' ? cell.requests > 0 : cell.bytes > 0;
}

/** One row of a heatmap: one size, one direction. */
export function rowKey(cell: Pick<SpeedCell, 'grid' | 'direction' | 'sizeBytes'>): string {
  return `${cell.grid}:${cell.direction}:${cell.sizeBytes}`;
}

/**
 * A cell best only where no cell of its row completed this many requests: a cell cut short after a few (a
 * large part's bytes counted as they came in 100 ms) measures its start, and once read 1.7 GB/s.
 */
const TRUSTED_REQUESTS = 4;
const trusted = (cell: SpeedCell) => cell.requests >= TRUSTED_REQUESTS;

/**
 * The best cell of each row (a size, a direction): the most throughput among the cells that completed a few
 * requests (any measured cell, in a row with none such); on a tie, fewer threads (the same speed for less
 * load). A row where nothing completed has none.
 */
export function bestOfRows(cells: readonly SpeedCell[]): Map<string, SpeedCell> {
  const best = new Map<string, SpeedCell>();
  for (const cell of cells) {
    if (!measured(cell)) continue;
    const key = rowKey(cell);
    const held = best.get(key);
    if (held === undefined || beats(cell, held)) best.set(key, cell);
  }
  return best;
}

/** Trusted before not; then more throughput; then fewer threads. */
function beats(cell: SpeedCell, held: SpeedCell): boolean {
  if (trusted(cell) !== trusted(held)) return trusted(cell);
  if (throughput(cell) !== throughput(held)) return throughput(cell) > throughput(held);
  return cell.concurrency < held.concurrency;
}

/**
 * The best setting: the threads whose cells come closest to each row's best (the sum of their shares
 * of it), and the large object's best part size and parts in flight (most bytes a second up and down,
 * of the cells that completed a few parts where some did).
 */
export function bestSetting(result: Pick<SpeedTestResult, 'cells' | 'measuredAt'>): SpeedTestBest | undefined {
  const rows = bestOfRows(result.cells);
  const objectCells = result.cells.filter((cell) => cell.grid === 'objects');
  const share = new Map<number, number>();
  for (const cell of objectCells) {
    const rowBest = rows.get(rowKey(cell));
    if (!rowBest || throughput(rowBest) === 0) continue;
    share.set(cell.concurrency, (share.get(cell.concurrency) ?? 0) + throughput(cell) / throughput(rowBest));
  }
  const threads = [...share].sort(([aThreads, a], [bThreads, b]) => b - a || aThreads - bThreads)[0]?.[0];
  if (threads === undefined) return undefined;
  // Up and down of one part size and concurrency, added: the setting a copy both ways does best with.
  const parts = new Map<string, { partSizeBytes: number; concurrency: number; rate: number }>();
  const partCells = result.cells.filter((cell) => cell.grid === 'parts' && measured(cell));
  const trustedParts = partCells.filter(trusted);
  for (const cell of trustedParts.length > 0 ? trustedParts : partCells) {
    const key = `${cell.sizeBytes}:${cell.concurrency}`;
    const held = parts.get(key) ?? { partSizeBytes: cell.sizeBytes, concurrency: cell.concurrency, rate: 0 };
    parts.set(key, { ...held, rate: held.rate + bytesPerSecond(cell) });
  }
  const bestPart = [...parts.values()].sort((a, b) => b.rate - a.rate || a.concurrency - b.concurrency)[0];
  return {
    threads,
    partSizeBytes: bestPart?.partSizeBytes,
    partConcurrency: bestPart?.concurrency,
    threadsBySize: [...rows.values()]
      .filter((cell) => cell.grid === 'objects')
      .map((cell) => ({ sizeBytes: cell.sizeBytes, direction: cell.direction, threads: cell.concurrency })),
    measuredAt: result.measuredAt,
  };
}

const DIRECTION_WORDS: Readonly<Record<SpeedDirection, string>> = { up: 'up', down: 'down' };

/** A cell's figures in words: "412 objects/s (103 MiB/s)", or for a part "512 MiB/s". */
export function cellFigures(cell: SpeedCell): string {
  if (!measured(cell)) return cell.note ?? (cell.grid === 'objects' ? 'no object completed' : 'nothing moved');
  const rate = formatRate(bytesPerSecond(cell));
  return cell.grid === 'parts' ? rate : `${formatObjectRate(objectsPerSecond(cell))} (${rate})`;
}

/**
 * The best settings in words, a line for each: "Best: 64 threads for 256 KiB objects up, 412 objects/s."
 * One line per size and direction, then the large object's, then what held the figures back.
 */
export function bestInWords(result: SpeedTestResult): string[] {
  const rows = bestOfRows(result.cells);
  const lines = [...rows.values()].map((cell) =>
    cell.grid === 'objects'
      ? `Best: ${cell.concurrency} ${cell.concurrency === 1 ? 'thread' : 'threads'} for ${sizeLabel(cell.sizeBytes)} ` +
        `objects ${DIRECTION_WORDS[cell.direction]}, ${cellFigures(cell)}.`
      : `Best: ${sizeLabel(cell.sizeBytes)} parts, ${cell.concurrency} at once, for a large object ` +
        `${DIRECTION_WORDS[cell.direction]}, ${cellFigures(cell)}.`,
  );
  const best = bestSetting(result);
  if (best)
    lines.unshift(
      `Best overall: ${best.threads} threads` +
        (best.partSizeBytes === undefined
          ? '.'
          : `, ${sizeLabel(best.partSizeBytes)} parts with ${best.partConcurrency} at once.`),
    );
  if (result.maxSpeed)
    lines.push(
      `Max speed (${formatRate(result.maxSpeed.bytesPerSecond)}) was on` +
        (result.maxSpeed.reached
          ? ': it capped these figures. Turn it off to measure the endpoint itself.'
          : ', and the test did not reach it.'),
    );
  if (result.runningJobs > 0)
    lines.push(
      `${result.runningJobs} ${result.runningJobs === 1 ? 'transfer was' : 'transfers were'} running beside the ` +
        `test, sharing the link with it.`,
    );
  return lines;
}

/** A heatmap's or table's rows: one per size and direction, in the grid's order. */
export function gridRows(
  cells: readonly SpeedCell[],
  grid: SpeedGridName,
): { key: string; sizeBytes: number; direction: SpeedDirection; cells: SpeedCell[] }[] {
  const rows = new Map<string, { key: string; sizeBytes: number; direction: SpeedDirection; cells: SpeedCell[] }>();
  for (const cell of cells) {
    if (cell.grid !== grid) continue;
    const key = rowKey(cell);
    const row = rows.get(key) ?? { key, sizeBytes: cell.sizeBytes, direction: cell.direction, cells: [] };
    row.cells.push(cell);
    rows.set(key, row);
  }
  return [...rows.values()];
}

/** A row's label: "256 KiB up". */
export function rowLabel(row: { sizeBytes: number; direction: SpeedDirection }): string {
  return `${sizeLabel(row.sizeBytes)} ${DIRECTION_WORDS[row.direction]}`;
}

/**
 * The result as the command line prints it: a table per grid, a row per size and direction, a column
 * per thread count, each cell its throughput and how many requests it is based on; the best of each row
 * starred; then the best settings in words.
 */
export function formatSpeedTestTable(result: SpeedTestResult): string {
  const best = new Set(bestOfRows(result.cells).values());
  const out: string[] = [];
  for (const grid of ['objects', 'parts'] as const) {
    const rows = gridRows(result.cells, grid);
    if (rows.length === 0) continue;
    const columns = [...new Set(rows.flatMap((row) => row.cells.map((cell) => cell.concurrency)))];
    const head = [
      grid === 'objects' ? 'object size' : 'part size',
      ...columns.map((n) => (grid === 'objects' ? `${n} threads` : `${n} at once`)),
    ];
    const body = rows.map((row) => [
      rowLabel(row),
      ...columns.map((n) => {
        const cell = row.cells.find((each) => each.concurrency === n);
        if (!cell) return '';
        const figure = !measured(cell)
          ? '-'
          : grid === 'objects'
            ? formatObjectRate(objectsPerSecond(cell)).replace(' objects/s', '/s').replace(' object/s', '/s')
            : formatRate(bytesPerSecond(cell));
        return `${best.has(cell) ? '*' : ''}${figure} [${cell.requests}]`;
      }),
    ]);
    const widths = head.map((_, i) => Math.max(...[head, ...body].map((line) => line[i]!.length)));
    const line = (cells: string[]) =>
      cells
        .map((text, i) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!)))
        .join('  ')
        .trimEnd();
    out.push(
      grid === 'objects' ? 'Small objects: objects a second [requests]' : 'One large object: bytes a second [parts]',
    );
    out.push(line(head), ...body.map(line), '');
  }
  out.push(...bestInWords(result));
  return `${out.join('\n')}\n`;
}

/** Where a run stands, for a progress bar: its share of the budget spent, and the cell it measures. */
export interface SpeedTestProgress {
  readonly phase: 'measuring' | 'cleaning';
  /** 0 to 1: the budget's time spent (cleaning up comes after it). */
  readonly fraction: number;
  readonly cellsDone: number;
  readonly cellsTotal: number;
  /** The cell being measured, in words: "PUT 256 KiB objects, 64 threads". */
  readonly cell?: string;
  /** The test's own prefix, as an s3:// address. */
  readonly place: string;
}

/** How a run ended: measured (and saved), cancelled or failed; each says what it left behind. */
export type SpeedTestOutcome =
  | { readonly state: 'done'; readonly result: SpeedTestResult; readonly cleanup: SpeedTestCleanup }
  | { readonly state: 'cancelled'; readonly cleanup: SpeedTestCleanup }
  | {
      readonly state: 'failed';
      readonly error: { readonly code: string; readonly message: string };
      readonly cleanup: SpeedTestCleanup;
    };

/** A planned cell in words, for the progress line. */
export function cellInWords(cell: Pick<PlannedCell, 'grid' | 'direction' | 'concurrency' | 'sizeBytes'>): string {
  const verb = cell.direction === 'up' ? 'PUT' : 'GET';
  const size = sizeLabel(cell.sizeBytes);
  if (cell.grid === 'objects')
    return `${verb} ${size} objects, ${cell.concurrency} ${cell.concurrency === 1 ? 'thread' : 'threads'}`;
  return `${cell.direction === 'up' ? 'Upload' : 'Ranged GET'} ${size} parts, ${cell.concurrency} at once`;
}

/** What a cleanup that left something says, with the prefix to remove: "" when it left nothing. */
export function cleanupInWords(cleanup: SpeedTestCleanup): string {
  if (cleanup.clean) return '';
  return (
    `The test could not remove everything it wrote below ${cleanup.place} ` +
    `(${leftInWords(cleanup)}): ${cleanup.problem ?? ''} ` +
    `Remove it with: barge rm -r --raw --all-versions ${shellWord(cleanup.place)} && ` +
    `barge abort-uploads ${shellWord(cleanup.place)}`
  );
}

/** "3 objects, 1 unfinished uploads left", or that nobody knows: the listing that would tell failed. */
function leftInWords(cleanup: SpeedTestCleanup): string {
  if (cleanup.objectsLeft === undefined || cleanup.uploadsLeft === undefined)
    return 'what is left is not known: it could not be listed';
  return `${cleanup.objectsLeft} objects, ${cleanup.uploadsLeft} unfinished uploads left`;
}

/** An endpoint's saved speed test: its best setting (what Auto starts from), and the whole result. */
export type SavedSpeedTest = SpeedTestBest & { readonly result: SpeedTestResult };

/** A saved result read back: the best worked out again from its cells, or nothing when it does not parse. */
export function savedSpeedTestFrom(json: string): SavedSpeedTest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  const result = speedTestResultSchema.safeParse(parsed);
  if (!result.success) return undefined;
  const best = bestSetting(result.data);
  return best ? { ...best, result: result.data } : undefined;
}
