import './app.css' // first: component styles must come later in the cascade
import { mount } from 'svelte'
import App from './App.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('missing #app element')
mount(App, { target })
