import type { ViewData } from '../src/view-data.js';
import { type JointStats, jointStats, median } from './joint-stats.js';

/** Confidence under which a joint is flagged. */
const LOW_CONF = 0.5;
/** Error over this many times the joints' median mean error flags a joint. */
const BAD_ERROR = 2;

const f = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '');

/**
 * The per-joint table: mean confidences, the error (with truth) over the clip and at the current
 * frame. Joints with low confidence (`low`) or a large error (`bad`) are highlighted.
 */
export class JointTable {
  readonly element = document.createElement('table');
  private readonly stats: JointStats[];
  private readonly cells: HTMLTableCellElement[] = [];

  constructor(private readonly data: ViewData) {
    this.stats = jointStats(data);
    const truth = Boolean(data.truth);
    const head = ['joint', 'conf front', 'conf side', ...(truth ? ['err mean cm', 'p95', 'max', 'now'] : [])];
    this.element.innerHTML = `<thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>`;
    const body = this.element.createTBody();
    const typical = median(this.stats.map((s) => s.meanCm));
    for (const s of this.stats) {
      const row = body.insertRow();
      if (Math.min(s.frontConf, s.sideConf) < LOW_CONF) row.className = 'low';
      if (s.meanCm > BAD_ERROR * typical) row.className = 'bad';
      row.dataset.joint = s.name;
      const values = [s.name, f(s.frontConf), f(s.sideConf)];
      if (truth) values.push(f(s.meanCm), f(s.p95Cm), f(s.maxCm));
      for (const v of values) row.insertCell().textContent = v;
      if (truth) this.cells.push(row.insertCell());
    }
  }

  setFrame(t: number): void {
    const row = this.data.truth?.errorCm[t];
    if (!row) return;
    this.cells.forEach((c, j) => {
      c.textContent = f(row[j] as number);
    });
  }
}
