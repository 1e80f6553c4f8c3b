// The theme the screens are drawn in: the operator's choice (Settings → Display → Theme), or with
// "System" the operating system's light or dark preference, followed as it changes (a laptop
// that turns dark at dusk). The root element carries the theme in use as data-theme (app.css
// keys its colours on it; the charts redraw when it changes) and whether Windows High Contrast
// (forced-colors) is on as data-forced-colors, so the charts take the system's colours then too.
import type { DisplaySettings } from '../../../../shared/settings'

export type ThemeChoice = DisplaySettings['theme']
export type Theme = 'dark' | 'light'

const query = (media: string): MediaQueryList | null => (typeof matchMedia === 'function' ? matchMedia(media) : null)

export class ThemeStore {
  choice = $state<ThemeChoice>('system')
  systemLight = $state(false)
  forcedColors = $state(false)

  /** The theme drawn now. Under forced colours the system's, whatever the choice: its palette is
   *  light or dark as the system says, and the charts' status colours must suit that. */
  get current(): Theme {
    return this.choice === 'system' || this.forcedColors ? (this.systemLight ? 'light' : 'dark') : this.choice
  }

  /** Follows the system's preference and forced colours from now on (once, at start). */
  follow(): () => void {
    const light = query('(prefers-color-scheme: light)')
    const forced = query('(forced-colors: active)')
    const read = (): void => {
      this.systemLight = light?.matches ?? false
      this.forcedColors = forced?.matches ?? false
      this.draw()
    }
    read()
    light?.addEventListener('change', read)
    forced?.addEventListener('change', read)
    return () => {
      light?.removeEventListener('change', read)
      forced?.removeEventListener('change', read)
    }
  }

  choose(choice: ThemeChoice): void {
    this.choice = choice
    this.draw()
  }

  private draw(): void {
    if (typeof document === 'undefined') return
    const root = document.documentElement
    root.dataset.theme = this.current
    root.dataset.themeChoice = this.choice
    root.dataset.forcedColors = String(this.forcedColors)
  }
}

export const theme = new ThemeStore()
