import './app.css' // first: component styles must come later in the cascade
import { mount } from 'svelte'
import App from './App.svelte'
import { installLinkGuard } from './lib/link-guard'
import { theme } from './lib/stores/theme.svelte'

// Before the app: no link or window.open may leave it (see link-guard.ts).
installLinkGuard()
// The system's theme from the first paint; the operator's choice replaces it when settings arrive.
theme.follow()

const target = document.getElementById('app')
if (!target) throw new Error('missing #app element')
mount(App, { target })
