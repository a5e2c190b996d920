import { useId, useRef } from 'react';
import { cn } from '@/lib/cn';
import { labelEvery, ticks } from './scale';
import { useWidth } from './use-width';

/** One line or one kind of bar: a name, a colour class (text-*) and a value per x label. */
export interface Series {
  key: string;
  label: string;
  /** A text colour class; the marks draw in currentColor. */
  color: string;
  values: readonly number[];
}

interface ChartProps {
  /** What the chart shows, for screen readers (the table beside it has the numbers). */
  title: string;
  labels: readonly string[];
  series: readonly Series[];
  format: (value: number) => string;
  kind: 'line' | 'bars' | 'stacked';
  /** The least top of the axis, so that all zeros still read as a scale (money charts pass 10,000 cents: $100). */
  minTop?: number;
}

const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 64 };

/**
 * A small SVG chart: lines, grouped bars, or bars stacked up from zero for positive values and
 * down for negative ones (net new MRR). It draws at the width of its box, so text stays the same
 * size on a phone and on a desk.
 */
export function Chart({ title, labels, series, format, kind, minTop = 1 }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const titleId = useId();
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;

  let min = 0;
  let max = 0;
  labels.forEach((_, i) => {
    if (kind === 'stacked') {
      let up = 0;
      let down = 0;
      for (const s of series) {
        const v = s.values[i] ?? 0;
        if (v > 0) up += v;
        else down += v;
      }
      max = Math.max(max, up);
      min = Math.min(min, down);
    } else {
      for (const s of series) {
        max = Math.max(max, s.values[i] ?? 0);
        min = Math.min(min, s.values[i] ?? 0);
      }
    }
  });
  const yTicks = ticks(min, Math.max(max, minTop));
  const lo = yTicks[0] ?? 0;
  const hi = yTicks[yTicks.length - 1] ?? 1;
  const y = (v: number) => PAD.top + plotH - ((v - lo) / (hi - lo)) * plotH;
  const n = Math.max(labels.length, 1);
  const band = plotW / n;
  const x = (i: number) =>
    kind === 'line'
      ? PAD.left + (labels.length > 1 ? (i / (labels.length - 1)) * plotW : plotW / 2)
      : PAD.left + band * i + band / 2;
  const every = labelEvery(labels.length, Math.floor(plotW / 84));
  const last = labels.length - 1;
  // The last label always shows: a regular one closer to it than the step would overlap it.
  const shown = (i: number) => i === last || (i % every === 0 && last - i >= every);
  // The room of one shown label, in characters of the 11 px monospace (about 6.6 px each).
  const room = Math.max(
    4,
    Math.floor(((kind === 'line' ? plotW / Math.max(last, 1) : band) * every) / 6.6) - 1,
  );
  const clip = (label: string) =>
    [...label].length > room ? `${[...label].slice(0, room - 1).join('')}…` : label;

  return (
    <div ref={box} className="w-full">
      <svg
        role="img"
        aria-labelledby={titleId}
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        className="block max-w-full font-mono text-[11px]"
      >
        <title id={titleId}>{title}</title>
        {yTicks.map((t) => (
          <g key={t}>
            <line
              x1={PAD.left}
              x2={width - PAD.right}
              y1={y(t)}
              y2={y(t)}
              className={t === 0 ? 'stroke-ink-600' : 'stroke-ink-700'}
              strokeDasharray={t === 0 ? undefined : '2 4'}
            />
            <text x={PAD.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-dim">
              {format(t)}
            </text>
          </g>
        ))}
        {labels.map((label, i) =>
          shown(i) ? (
            <text
              // biome-ignore lint/suspicious/noArrayIndexKey: labels are positions on the axis and may repeat
              key={i}
              x={x(i)}
              y={HEIGHT - 8}
              textAnchor={kind === 'line' && i === last && last > 0 ? 'end' : 'middle'}
              className="fill-dim"
            >
              {clip(label)}
              {clip(label) === label ? null : <title>{label}</title>}
            </text>
          ) : null,
        )}
        {kind === 'line' ? <Lines series={series} x={x} y={y} /> : null}
        {kind === 'bars' ? <Bars series={series} band={band} x={x} y={y} /> : null}
        {kind === 'stacked' ? <Stacks series={series} band={band} x={x} y={y} /> : null}
      </svg>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        {series.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className={cn('inline-block h-2.5 w-2.5 rounded-sm bg-current', s.color)}
            />
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

type Scale = (v: number) => number;

function Lines({ series, x, y }: { series: readonly Series[]; x: Scale; y: Scale }) {
  return (
    <>
      {series.map((s) => (
        <g key={s.key} className={s.color}>
          <polyline
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinejoin="round"
            points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
          />
          {s.values.length <= 40
            ? s.values.map((v, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: points are positions on the axis
                <circle key={i} cx={x(i)} cy={y(v)} r={2.5} fill="currentColor" />
              ))
            : null}
        </g>
      ))}
    </>
  );
}

function Bars({
  series,
  band,
  x,
  y,
}: {
  series: readonly Series[];
  band: number;
  x: Scale;
  y: Scale;
}) {
  const inner = Math.min(band * 0.8, 18 * series.length);
  const w = inner / Math.max(series.length, 1);
  return (
    <>
      {series.map((s, k) => (
        <g key={s.key} className={s.color}>
          {s.values.map((v, i) => (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: bars are positions on the axis
              key={i}
              x={x(i) - inner / 2 + k * w}
              y={Math.min(y(v), y(0))}
              width={Math.max(w - 1, 1)}
              height={Math.abs(y(v) - y(0))}
              fill="currentColor"
            />
          ))}
        </g>
      ))}
    </>
  );
}

function Stacks({
  series,
  band,
  x,
  y,
}: {
  series: readonly Series[];
  band: number;
  x: Scale;
  y: Scale;
}) {
  const w = Math.min(band * 0.6, 36);
  const up: number[] = [];
  const down: number[] = [];
  return (
    <>
      {series.map((s) => (
        <g key={s.key} className={s.color}>
          {s.values.map((v, i) => {
            const base = v >= 0 ? (up[i] ?? 0) : (down[i] ?? 0);
            const top = base + v;
            if (v >= 0) up[i] = top;
            else down[i] = top;
            return (
              <rect
                // biome-ignore lint/suspicious/noArrayIndexKey: bars are positions on the axis
                key={i}
                x={x(i) - w / 2}
                y={Math.min(y(base), y(top))}
                width={w}
                height={Math.abs(y(top) - y(base))}
                fill="currentColor"
              />
            );
          })}
        </g>
      ))}
    </>
  );
}
