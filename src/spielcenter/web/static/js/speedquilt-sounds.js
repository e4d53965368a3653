// Living-room sounds (Wohnzimmer-Geräusche), synthesised with the Web Audio API: a wooden rattle
// for the dice, a soft thud for a block, a bell for the end. No sound files are downloaded.
// The clock's warning beep is not a living-room sound: seed 003 warns her "mit einem Piepton"
// whatever the room sounds like, so it has a switch of its own (on unless she turns it off).

let context = null;
let enabled = false;
let beeps = true;

// Messages come in bursts (computers that do not pause, a connection that delivers what it held
// back): one rattle per roll of a burst would be a din, so each kind of sound is heard once per
// burst. A burst is what arrives before the next frame, as the table screen draws it once
// (TableScreen.render); a tab in the background draws no frames, so a timer ends it there.
const heard = new Set();
let burstFrame = null;
let burstTimer = null;
const BURST_FALLBACK_MS = 100;

function endBurst() {
  cancelAnimationFrame(burstFrame);
  clearTimeout(burstTimer);
  burstFrame = null;
  burstTimer = null;
  heard.clear();
}

/** Play ``sound`` unless a sound of this ``kind`` was heard in this burst already. */
function oncePerBurst(kind, sound) {
  if (heard.has(kind)) return;
  heard.add(kind);
  sound();
  if (burstTimer !== null) return;
  burstFrame = requestAnimationFrame(endBurst);
  burstTimer = setTimeout(endBurst, BURST_FALLBACK_MS);
}

/** Turn the sounds on or off (the view setting "sounds"). */
export function setSounds(on) {
  enabled = Boolean(on);
}

/** Turn the clock's warning beep on or off (the view setting "clock_beep"). */
export function setClockBeep(on) {
  beeps = Boolean(on);
}

function audio(wanted = enabled) {
  if (!wanted) return null;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  context ??= new Ctor();
  // A context made before her first tap on this page (a computer rolled right after a reload)
  // starts suspended under the browsers' autoplay rules; once she has tapped it may resume.
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function tone(ctx, { freq, start, length, type = "sine", gain = 0.15 }) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, ctx.currentTime + start);
  amp.gain.setValueAtTime(gain, ctx.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

/** Dice rolling on the table: a few short knocks (once per burst). */
export function playRoll() {
  const ctx = audio();
  if (!ctx) return;
  oncePerBurst("roll", () => {
    for (let i = 0; i < 6; i++) {
      const freq = 180 + Math.random() * 220;
      tone(ctx, { freq, start: i * 0.05, length: 0.05, type: "triangle" });
    }
  });
}

/** A block laid down or sewn: a low soft thud (once per burst). */
export function playBlock() {
  const ctx = audio();
  if (!ctx) return;
  oncePerBurst("block", () => tone(ctx, { freq: 110, start: 0, length: 0.18, gain: 0.25 }));
}

/** The end of the game: a little bell (once per burst). */
export function playBell() {
  const ctx = audio();
  if (!ctx) return;
  oncePerBurst("bell", () => {
    tone(ctx, { freq: 880, start: 0, length: 0.6, gain: 0.1 });
    tone(ctx, { freq: 1320, start: 0.02, length: 0.4, gain: 0.05 });
  });
}

/** Her clock ran out and the grace begins: two short beeps, with or without room sounds (once
 * per burst). */
export function playClockWarning() {
  const ctx = audio(beeps);
  if (!ctx) return;
  oncePerBurst("beep", () => {
    tone(ctx, { freq: 1000, start: 0, length: 0.12, type: "square", gain: 0.08 });
    tone(ctx, { freq: 1000, start: 0.2, length: 0.12, type: "square", gain: 0.08 });
  });
}
