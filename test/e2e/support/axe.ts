// axe-core, run in the page as it is: its rules over the whole document, and the violations in a
// form a failing assertion can print (rule, impact, what it says, where).
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeFinding {
  rule: string
  impact: string | null
  help: string
  targets: string[]
}

/** The page's accessibility violations by axe-core's rules (WCAG 2.x A and AA, and best practice). */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol, so the app's Content-Security-Policy is not in the way.
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe
    const results = await axe.run(document, { resultTypes: ['violations'] })
    return results.violations.map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }))
  })
}
