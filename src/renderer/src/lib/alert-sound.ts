// The browser host's alert sounds, made with Web Audio (no file to fetch), one per severity and
// told apart by ear without looking: a critical is three short, hard, high beeps; a warning one
// soft, lower tone. A browser may refuse sound until the page has been clicked once (autoplay
// rules): then it is quiet, and the notification and the screen still say it.
import type { AlertSoundKind } from '../../../shared/alert-sound'

interface Tone {
  /** Seconds after the sound starts. */
  at: number
  seconds: number
  frequency: number
  wave: OscillatorType
  gain: number
}

const beep = (at: number): Tone => ({ at, seconds: 0.12, frequency: 880, wave: 'square', gain: 0.12 })

export const ALERT_TONES: Record<AlertSoundKind, readonly Tone[]> = {
  critical: [beep(0), beep(0.18), beep(0.36)],
  warning: [{ at: 0, seconds: 0.45, frequency: 523, wave: 'sine', gain: 0.18 }]
}

let context: AudioContext | undefined

export function playAlertSound(kind: AlertSoundKind): void {
  try {
    context ??= new AudioContext()
    if (context.state === 'suspended') void context.resume().catch(() => {})
    const start = context.currentTime
    for (const tone of ALERT_TONES[kind]) {
      const oscillator = context.createOscillator()
      const gain = context.createGain()
      oscillator.type = tone.wave
      oscillator.frequency.value = tone.frequency
      gain.gain.setValueAtTime(tone.gain, start + tone.at)
      gain.gain.exponentialRampToValueAtTime(0.001, start + tone.at + tone.seconds)
      oscillator.connect(gain).connect(context.destination)
      oscillator.start(start + tone.at)
      oscillator.stop(start + tone.at + tone.seconds + 0.02)
    }
  } catch {
    // No audio here (a policy, no output device): the screen and the notification still say it.
  }
}
