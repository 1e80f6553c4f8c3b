// The browser host's alert sound: two short tones made with Web Audio (no file to fetch). A
// browser may refuse sound until the page has been clicked once (autoplay rules): then it is
// quiet, and the notification and the screen still say it.
let context: AudioContext | undefined

export function playAlertSound(): void {
  try {
    context ??= new AudioContext()
    const start = context.currentTime
    for (const [offset, frequency] of [[0, 880], [0.22, 660]] as const) {
      const tone = context.createOscillator()
      const gain = context.createGain()
      tone.frequency.value = frequency
      gain.gain.setValueAtTime(0.2, start + offset)
      gain.gain.exponentialRampToValueAtTime(0.001, start + offset + 0.18)
      tone.connect(gain).connect(context.destination)
      tone.start(start + offset)
      tone.stop(start + offset + 0.2)
    }
  } catch {
    // No audio here (a test browser, a policy): nothing to do.
  }
}
