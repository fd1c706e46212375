// "Your move": a short tone and the tab's title, so a player in another tab notices. The tone is
// made by the Web Audio API (no sound file, nothing fetched) and can be muted; the choice is kept
// in this browser.

const MUTE_KEY = 'gmo.mute';
let audio = null;

export function muted() {
  try { return localStorage.getItem(MUTE_KEY) === '1'; } catch { return false; }
}

export function setMuted(value) {
  try { localStorage.setItem(MUTE_KEY, value ? '1' : '0'); } catch { /* private mode */ }
}

// Two soft notes. Browsers allow sound only after the page was used; before that this is silent.
export function chime() {
  if (muted()) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [[0, 660], [1, 880]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.2);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.12);
      tone.stop(now + i * 0.12 + 0.22);
    }
    window.__chimes = (window.__chimes || 0) + 1; // counted for the browser tests
  } catch { /* no audio here */ }
}
