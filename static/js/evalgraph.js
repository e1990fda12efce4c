// The evaluation of an analysed game: its text (`+0.35`, `White wins`) and the graph of
// every ply as inline SVG (White's advantage up), with the judged moves marked; a click
// on the graph picks the nearest ply. Pure except for building SVG nodes.

import { s } from './dom.js';

/** Hundredths of a man beyond which the graph is flat (a forced win is drawn there). */
export const GRAPH_CAP = 400;

/**
 * A ply's (or a position's) value from White's side as one number for the graph:
 * `eval`, or ±GRAPH_CAP for a forced win, capped.
 * @param {{eval?: number, win?: 'white'|'black'}} v
 */
export function evalNumber(v) {
  if (v?.win === 'white') return GRAPH_CAP;
  if (v?.win === 'black') return -GRAPH_CAP;
  const n = Number(v?.eval ?? 0);
  return Math.max(-GRAPH_CAP, Math.min(GRAPH_CAP, n));
}

/**
 * The text of a value: `+0.35` (men, White's side) or the translated forced win.
 * @param {(key: string) => string} t
 */
export function evalText(t, v) {
  if (v?.win) return t(`analysis.win_${v.win}`);
  const n = Number(v?.eval ?? 0) / 100;
  return `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(2)}`;
}

const W = 600;
const H = 120;

/**
 * The graph: x is the ply (0 = start), y White's advantage. `at` is the shown ply,
 * `onPick(ply)` is called with the ply clicked.
 * @param {{ply: number, eval?: number, win?: string, judgement?: string|null}[]} plies
 */
export function evalGraph(plies, at, onPick, title) {
  const n = Math.max(1, plies.length);
  const x = (ply) => (ply / n) * W;
  const y = (v) => H / 2 - (v / GRAPH_CAP) * (H / 2 - 4);
  const pts = [[0, y(0)], ...plies.map((p) => [x(p.ply), y(evalNumber(p))])];
  const line = pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ');
  const area = `0,${H / 2} ${line} ${x(plies.length).toFixed(1)},${H / 2}`;
  const svg = s('svg', {
    class: 'eval-graph', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none',
    role: 'img', 'aria-label': title ?? null, 'data-eval-graph': String(plies.length),
  },
    s('rect', { class: 'bg', x: 0, y: 0, width: W, height: H }),
    s('polygon', { class: 'area', points: area }),
    s('line', { class: 'zero', x1: 0, y1: H / 2, x2: W, y2: H / 2 }),
    s('polyline', { class: 'curve', points: line }),
    plies.filter((p) => p.judgement).map((p) =>
      s('circle', { class: `mark ${p.judgement}`, cx: x(p.ply), cy: y(evalNumber(p)), r: 4, 'data-mark': String(p.ply) })),
    s('line', { class: 'at', x1: x(at), y1: 0, x2: x(at), y2: H, 'data-at': String(at) }),
  );
  svg.addEventListener('click', (ev) => {
    const box = svg.getBoundingClientRect();
    if (!box.width) return;
    const ply = Math.round(((ev.clientX - box.left) / box.width) * n);
    onPick(Math.max(0, Math.min(plies.length, ply)));
  });
  return svg;
}
