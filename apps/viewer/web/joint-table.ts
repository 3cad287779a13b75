import type { ViewData } from '../src/view-data.js';
import { BAD_ERROR, LOW_CONF } from './joint-flags.js';
import { type JointStats, jointStats, median } from './joint-stats.js';

const f = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '');

/**
 * The per-joint table: mean confidences, the error (with truth) over the clip and at the current
 * frame. Joints with a low mean confidence (`low`) or a mean error over {@link BAD_ERROR} times
 * the joints' median (`bad`) are highlighted; a click on a row selects its joint.
 */
export class JointTable {
  readonly element = document.createElement('table');
  private readonly stats: JointStats[];
  private readonly cells: HTMLTableCellElement[] = [];

  private readonly rows: HTMLTableRowElement[] = [];

  constructor(
    private readonly data: ViewData,
    onSelect: (j: number | null) => void,
  ) {
    this.stats = jointStats(data);
    const truth = Boolean(data.truth);
    const head = ['joint', 'conf front', 'conf side', ...(truth ? ['err mean cm', 'p95', 'max', 'now'] : [])];
    this.element.innerHTML = `<thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>`;
    const body = this.element.createTBody();
    const typical = median(this.stats.map((s) => s.meanCm));
    for (const s of this.stats) {
      const row = body.insertRow();
      if (Math.min(s.frontConf, s.sideConf) < LOW_CONF) row.classList.add('low');
      if (s.meanCm > BAD_ERROR * typical) row.classList.add('bad');
      row.dataset.joint = s.name;
      const j = this.rows.length;
      row.addEventListener('click', () => onSelect(row.classList.contains('selected') ? null : j));
      this.rows.push(row);
      const values = [s.name, f(s.frontConf), f(s.sideConf)];
      if (truth) values.push(f(s.meanCm), f(s.p95Cm), f(s.maxCm));
      for (const v of values) row.insertCell().textContent = v;
      if (truth) this.cells.push(row.insertCell());
    }
  }

  /** Highlights joint `j`'s row (none for null). */
  select(j: number | null): void {
    this.rows.forEach((r, i) => {
      r.classList.toggle('selected', i === j);
    });
  }

  setFrame(t: number): void {
    const row = this.data.truth?.errorCm[t];
    if (!row) return;
    this.cells.forEach((c, j) => {
      c.textContent = f(row[j] as number);
    });
  }
}
