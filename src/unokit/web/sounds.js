// Sounds (issue 36 item 17): a card played, a card drawn, UNO, your turn, a round won.
// Made by the page itself with Web Audio (short tones, nothing fetched).  The mute
// toggle is kept in localStorage; without a choice saved, sounds are off when the
// system asks for reduced motion.  Nothing sounds while the page is in the background.
// Each sound made is also counted in <html data-sounds="play,draw,..."> (the browser
// tests read it; audio output itself cannot be observed there).

const KEY = "unokit:sound";
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
let ctx = null;

// [frequency Hz, start s, length s, type] per note
const SOUNDS = {
  play: [[520, 0, 0.07, "triangle"], [780, 0.05, 0.08, "triangle"]],
  draw: [[300, 0, 0.09, "sine"], [240, 0.07, 0.1, "sine"]],
  uno: [[660, 0, 0.1, "square"], [880, 0.1, 0.1, "square"], [1100, 0.2, 0.16, "square"]],
  turn: [[880, 0, 0.08, "sine"], [1320, 0.09, 0.12, "sine"]],
  win: [[523, 0, 0.12, "triangle"], [659, 0.12, 0.12, "triangle"], [784, 0.24, 0.12, "triangle"], [1047, 0.36, 0.3, "triangle"]],
  flip: [[400, 0, 0.05, "sawtooth"], [600, 0.05, 0.05, "sawtooth"], [800, 0.1, 0.05, "sawtooth"], [1000, 0.15, 0.1, "sawtooth"]],
};

/** The player's saved choice, or the default: on, unless the system asks for reduced motion. */
export function soundOn() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (saved === "on") return true;
  if (saved === "off") return false;
  return !(reduced && reduced.matches);
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // private mode: the choice lasts this page only
  }
  if (on) unlock();
}

// browsers start audio only after a gesture: the first click or key opens the context
function unlock() {
  if (ctx || !window.AudioContext) return;
  try {
    ctx = new AudioContext();
  } catch {
    ctx = null;
  }
}
for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, () => soundOn() && unlock(), { capture: true });

/** Make sound ``name`` if sounds are on and the page is in front. */
export function sound(name) {
  if (!SOUNDS[name] || !soundOn() || document.visibilityState !== "visible") return;
  const el = document.documentElement;
  el.dataset.sounds = el.dataset.sounds ? `${el.dataset.sounds},${name}` : name;
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const t0 = ctx.currentTime + 0.01;
  for (const [freq, at, len, type] of SOUNDS[name]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.12, t0 + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.02);
  }
}
