#!/usr/bin/env node
// The CLI runs from the TypeScript sources through tsx, so it works right after `npm install`.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/main/cli/index.ts')
await main(process.argv)
