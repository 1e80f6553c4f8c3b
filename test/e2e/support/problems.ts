// What went wrong in a page while a spec drove it.
import type { Page } from '@playwright/test'

/** Collects the page's uncaught errors and console errors from now on (a spec expects none). */
export function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  return problems
}
