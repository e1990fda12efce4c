// Sounds: short tones made with the Web Audio API (no audio files). Which sound a server
// message calls for is decided by the pure `soundFor`; `Sounds` plays them unless the
// player muted them (remembered in localStorage). A browser that blocks audio before a
// user gesture, or has no Web Audio at all, is silently skipped.

const MUTE_KEY = 'damka.sound';

/** Tone sequences: [frequency Hz, start s, duration s], with a shape per sound. */
export const TONES = {
  move: { type: 'triangle', gain: 0.25, notes: [[520, 0, 0.07]] },
  capture: { type: 'square', gain: 0.12, notes: [[330, 0, 0.06], [440, 0.07, 0.08]] },
  start: { type: 'sine', gain: 0.3, notes: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.18]] },
  end: { type: 'sine', gain: 0.3, notes: [[784, 0, 0.14], [659, 0.14, 0.14], [523, 0.28, 0.26]] },
  low: { type: 'square', gain: 0.1, notes: [[880, 0, 0.08], [880, 0.16, 0.08]] },
  offer: { type: 'sine', gain: 0.3, notes: [[660, 0, 0.1], [880, 0.12, 0.16]] },
};

/**
 * The sound one applied server message calls for, or null.
 * @param {object} msg the server message
 * @param {string|null} me this client's colour in the game (null for a spectator)
 * @returns {'move'|'capture'|'start'|'end'|'offer'|null}
 */
export function soundFor(msg, me) {
  switch (msg?.t) {
    case 'move':
      return (msg.captures?.length ?? 0) > 0 ? 'capture' : 'move';
    case 'game_started':
      return 'start';
    case 'game_over':
      return 'end';
    case 'draw_offered':
    case 'takeback_offered':
      // The offerer knows; the opponent (and only a player) hears it.
      return me && msg.by && msg.by !== me ? 'offer' : null;
    default:
      return null;
  }
}

/**
 * True when a clock face just crossed into the low-time warning: the sound plays once
 * per low period, for this client's own clock.
 */
export function lowTimeCrossed(wasLow, isLowNow) {
  return !wasLow && isLowNow;
}

/** Whether sound is muted (remembered across visits). */
export function isMuted(storage = globalThis.localStorage) {
  try {
    return storage?.getItem(MUTE_KEY) === 'off';
  } catch {
    return false;
  }
}

/** Remembers the mute switch. */
export function setMuted(muted, storage = globalThis.localStorage) {
  try {
    if (muted) storage?.setItem(MUTE_KEY, 'off');
    else storage?.removeItem(MUTE_KEY);
  } catch {
    // Private mode without storage: the switch holds for this page only.
  }
}

let ctx = null;

function audio() {
  if (ctx) return ctx;
  const Ctx = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Ctx) return null;
  try {
    ctx = new Ctx();
  } catch {
    return null;
  }
  return ctx;
}

/**
 * Plays a sound by name unless muted. The page records what it played on
 * `<html data-sounds="...">` (the last ten names), a hook for the browser tests.
 * @param {keyof TONES} name
 */
export function play(name) {
  const tone = TONES[name];
  if (!tone || isMuted()) return;
  const root = globalThis.document?.documentElement;
  if (root) root.dataset.sounds = [...(root.dataset.sounds ?? '').split(' ').filter(Boolean), name].slice(-10).join(' ');
  const ac = audio();
  if (!ac) return;
  try {
    // Before any user gesture the context stays suspended: resume() is refused quietly.
    if (ac.state === 'suspended') ac.resume().catch(() => {});
    const t0 = ac.currentTime + 0.01;
    for (const [freq, at, dur] of tone.notes) {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.type = tone.type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(tone.gain, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + at + dur);
      osc.connect(gain).connect(ac.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + dur + 0.02);
    }
  } catch {
    // Audio is a nicety: never let it break the page.
  }
}
