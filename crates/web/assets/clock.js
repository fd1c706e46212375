// Both clocks, counting down smoothly between updates. The server keeps the time; a view says
// how much each side had when it was made and whose clock runs, so the page subtracts the time
// since that view arrived, on every animation frame, and never guesses beyond it.

import { h } from './dom.js';
import { t, formatNumber, language } from './i18n.js';

// The language's decimal sign, worked out once per language (the clocks ask on every frame).
const signs = {};
const decimalSign = () => (signs[language()] ??= formatNumber(0.5).replace(/\d/g, '') || '.');

export function formatMs(ms) {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60000);
  const seconds = Math.floor((clamped % 60000) / 1000);
  const text = `${minutes}:${String(seconds).padStart(2, '0')}`;
  // Tenths only when they matter, after the language's decimal sign (0.5 → "0.5", "0,5").
  return clamped < 10000 ? `${text}${decimalSign()}${Math.floor((clamped % 1000) / 100)}` : text;
}

export class Clocks {
  constructor() {
    this.els = {
      white: h('div', { class: 'clock white', role: 'timer', 'aria-label': t('clock.white') }),
      black: h('div', { class: 'clock black', role: 'timer', 'aria-label': t('clock.black') }),
    };
    this.base = null;
    this.frame = 0;
  }

  // A new view: its clocks, and performance.now() when it arrived.
  update(clocks, arrivedAt, live) {
    this.base = { clocks, arrivedAt, live };
    this.paint();
    cancelAnimationFrame(this.frame);
    if (live && clocks.running) this.frame = requestAnimationFrame(() => this.tick());
  }

  remaining(color, now = performance.now()) {
    if (!this.base) return 0;
    const { clocks, arrivedAt, live } = this.base;
    const ms = color === 'white' ? clocks.white_ms : clocks.black_ms;
    return live && clocks.running === color ? ms - (now - arrivedAt) : ms;
  }

  paint() {
    for (const color of ['white', 'black']) {
      const el = this.els[color];
      const left = this.remaining(color);
      const text = formatMs(left);
      if (el.textContent !== text) el.textContent = text;
      const running = !!(this.base && this.base.live && this.base.clocks.running === color);
      el.classList.toggle('running', running);
      el.classList.toggle('low', left < 20000);
    }
  }

  tick() {
    this.paint();
    if (this.base && this.base.live && this.base.clocks.running) {
      this.frame = requestAnimationFrame(() => this.tick());
    }
  }

  stop() {
    cancelAnimationFrame(this.frame);
  }
}
