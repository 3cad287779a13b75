import { describe, expect, it } from 'vitest';
import { clock, countProgress, rateEta } from '../../src/commands/count-progress.js';

/** A stderr that keeps what is written; `tty` as a terminal's. */
function sink(tty = false) {
  const s = {
    out: '',
    isTTY: tty,
    write(x: string): boolean {
      s.out += x;
      return true;
    },
  };
  return s;
}

describe('clock', () => {
  it('writes m:ss, and h:mm:ss from an hour', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(61.4)).toBe('1:01');
    expect(clock(3725)).toBe('1:02:05');
  });
});

describe('rateEta', () => {
  it('gives the rate of the items counted on the clock and the time the rest take at it', () => {
    expect(rateEta(30, 300, 10)).toBe(', 3.0 frames/s, eta 1:30');
    // 10 of the 30 were done when the clock started: 20 in 10 s
    expect(rateEta(30, 300, 10, 'frames', 10)).toBe(', 2.0 frames/s, eta 2:15');
    expect(rateEta(5, 10, 2, '')).toBe(', 2.5/s, eta 0:02');
  });

  it('is empty with nothing counted on the clock, no time passed, or nothing left', () => {
    expect(rateEta(0, 300, 10)).toBe('');
    expect(rateEta(8, 300, 10, 'frames', 8)).toBe('');
    expect(rateEta(30, 300, 0)).toBe('');
    expect(rateEta(300, 300, 10)).toBe('');
  });
});

describe('countProgress', () => {
  it('in a log: a line per tenth of a long count with rate and eta, then the total', () => {
    const s = sink();
    const p = countProgress(s as unknown as NodeJS.WritableStream);
    for (let i = 1; i <= 300; i++) p.update('detect', i, 300);
    p.end();
    const lines = s.out.trim().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^detect 30\/300 frames, [\d.]+ frames\/s, eta \d+:\d\d$/);
    expect(lines.at(-1)).toBe('detect: 300 frames');
  });

  it('in a log, a short count gets its total alone', () => {
    const s = sink();
    const p = countProgress(s as unknown as NodeJS.WritableStream);
    for (let i = 1; i <= 8; i++) p.update('detect', i, 8);
    expect(s.out).toBe('detect: 8 frames\n');
  });

  it('on a terminal: in place, the line closed at the total or by end()', () => {
    const s = sink(true);
    const p = countProgress(s as unknown as NodeJS.WritableStream);
    p.update('detect', 1, 3);
    p.update('detect', 2, 3);
    expect(s.out).not.toContain('\n');
    expect(s.out.split('\r')).toHaveLength(3);
    p.end();
    expect(s.out.endsWith('\n')).toBe(true);
    p.end();
    expect(s.out.match(/\n/g)).toHaveLength(1);
    p.update('detect', 3, 3);
    expect(s.out.endsWith('detect 3/3 frames\u001b[K\n')).toBe(true);
  });

  it('starts the clock again when the stage changes', () => {
    const s = sink();
    const p = countProgress(s as unknown as NodeJS.WritableStream);
    for (let i = 1; i <= 50; i++) p.update('detect', i, 200);
    const before = s.out;
    // the new stage's first update counts nothing on its clock: no rate yet, and no tenth passed
    p.update('detect + refine', 20, 200);
    expect(s.out).toBe(before);
    p.update('detect + refine', 40, 200);
    expect(s.out.slice(before.length)).toMatch(/^detect \+ refine 40\/200 frames, [\d.]+ frames\/s, eta/);
  });

  it('starts the clock again when the count goes back (a stage started again)', () => {
    const s = sink();
    const p = countProgress(s as unknown as NodeJS.WritableStream);
    for (let i = 1; i <= 150; i++) p.update('detect + refine', i, 200);
    const before = s.out;
    p.update('detect + refine', 1, 200);
    expect(s.out).toBe(before);
    // the tenths count again from the new start, with the rate of the new count
    p.update('detect + refine', 40, 200);
    expect(s.out.slice(before.length)).toMatch(/^detect \+ refine 40\/200 frames, [\d.]+ frames\/s, eta/);
  });
});
