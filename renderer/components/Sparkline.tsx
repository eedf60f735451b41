// A small throughput graph: one SVG polyline over the recent history, scaled to its own peak.
// (A chart library would be most of the bundle for a line this simple.)

export function Sparkline({
  values,
  width = 120,
  height = 24,
  label,
}: {
  values: readonly number[];
  width?: number;
  height?: number;
  label: string;
}) {
  const peak = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - (v / peak) * (height - 2) - 1).toFixed(1)}`)
    .join(' ');
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
