/** Axis arithmetic shared by the charts. */

/** A round step near span/count: 1, 2 or 5 times a power of ten. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/** Ticks covering [min, max] and zero, about `count` of them. */
export function ticks(min: number, max: number, count = 4): number[] {
  const lo = Math.min(0, min);
  const hi = Math.max(0, max);
  if (lo === hi) return [0, 1];
  const step = niceStep(hi - lo, count);
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v <= hi + step / 2; v += step) {
    out.push(Math.round(v / step) * step);
  }
  const last = out[out.length - 1] ?? lo;
  if (last < hi) out.push(last + step);
  return out;
}

/** Which of `n` x labels to print so that about `room` fit. */
export function labelEvery(n: number, room: number): number {
  return Math.max(1, Math.ceil(n / Math.max(room, 1)));
}
