import { describe, expect, it } from 'vitest'
import {
  evaluate,
  findingsFromIssues,
  findSuppressions,
  formatTable,
  summaryLine,
  svelteScriptsAsTs
} from '../../scripts/lib/electronegativity-report.js'

// Issues in the shape electronegativity's runner returns them (dist/runner.js: the array it
// also writes to its CSV/SARIF), trimmed to the fields it fills.
const issue = (id: string, severity: string, file: string, line: number) => ({
  id,
  severity: { value: 0, name: severity },
  confidence: { value: 1, name: 'FIRM' },
  file,
  location: { line, column: 2 },
  description: `description of ${id}`,
  manualReview: false
})

const WINDOW = 'src/main/desktop/window.ts'
const windowSource = (line3: string): string => ['// the window', 'const a = 1', line3, 'const b = 2'].join('\n')

function gate(issues: unknown[], sources: Record<string, string> = {}, parseErrors: { file: string; message: string }[] = []) {
  const findings = findingsFromIssues(issues)
  const found = Object.entries(sources).map(([file, text]) => findSuppressions(file, text))
  return evaluate({
    findings,
    suppressions: found.flatMap((f) => f.suppressions),
    badSuppressions: found.flatMap((f) => f.bad),
    parseErrors
  })
}

describe('the electronegativity policy', () => {
  it('fails an unexplained HIGH finding', () => {
    const verdict = gate([issue('CONTEXT_ISOLATION_JS_CHECK', 'HIGH', WINDOW, 3)], { [WINDOW]: windowSource('new BrowserWindow({})') })
    expect(verdict.passed).toBe(false)
    expect(verdict.failures).toEqual([
      `HIGH CONTEXT_ISOLATION_JS_CHECK at ${WINDOW}:3 — description of CONTEXT_ISOLATION_JS_CHECK`
    ])
  })

  it('fails a MEDIUM finding', () => {
    const verdict = gate([issue('SANDBOX_JS_CHECK', 'MEDIUM', WINDOW, 3)])
    expect(verdict.passed).toBe(false)
    expect(verdict.failures).toHaveLength(1)
  })

  it('passes LOW and INFORMATIONAL findings, listing them', () => {
    const verdict = gate([
      issue('CSP_GLOBAL_CHECK', 'LOW', 'src/renderer/index.html', 6),
      issue('ELECTRON_VERSION_JSON_CHECK', 'INFORMATIONAL', 'package.json', 1)
    ])
    expect(verdict.passed).toBe(true)
    expect(verdict.rows).toHaveLength(2)
    expect(summaryLine(verdict)).toBe(
      'electronegativity: 0 high, 0 medium, 1 low, 1 informational; 0 suppressed with a reason; PASS'
    )
  })

  it('passes a finding suppressed on its line with a reason, and shows the reason', () => {
    const verdict = gate([issue('OPEN_EXTERNAL_JS_CHECK', 'MEDIUM', WINDOW, 3)], {
      [WINDOW]: windowSource('shell.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK: only https URLs reach here, see isSafeExternalUrl')
    })
    expect(verdict.failures).toEqual([])
    expect(verdict.passed).toBe(true)
    expect(verdict.rows[0]?.suppression?.reason).toBe('only https URLs reach here, see isSafeExternalUrl')
    expect(formatTable(verdict.rows).join('\n')).toContain('yes: only https URLs reach here')
  })

  it('fails a suppression without a reason, even though electronegativity itself would honour it', () => {
    const verdict = gate([issue('OPEN_EXTERNAL_JS_CHECK', 'MEDIUM', WINDOW, 3)], {
      [WINDOW]: windowSource('shell.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK')
    })
    expect(verdict.passed).toBe(false)
    expect(verdict.failures).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`suppression at ${WINDOW}:3: expected "eng-disable CHECK_ID: reason"`),
        expect.stringContaining('MEDIUM OPEN_EXTERNAL_JS_CHECK')
      ])
    )
  })

  it.each([
    ['an empty reason', '// eng-disable SANDBOX_JS_CHECK:'],
    ['a one-word reason', '// eng-disable SANDBOX_JS_CHECK: fine'],
    ['a block comment with nothing after the colon', '/* eng-disable SANDBOX_JS_CHECK: */'],
    ['a constructor name instead of a check id', '// eng-disable SandboxJSCheck: the renderer is sandboxed by the app']
  ])('fails %s', (_label, comment) => {
    const { suppressions, bad } = findSuppressions(WINDOW, windowSource(`x // ${comment}`))
    expect(suppressions).toEqual([])
    expect(bad).toHaveLength(1)
    expect(bad[0]?.line).toBe(3)
  })

  it('reads several checks and a block comment reason', () => {
    const { suppressions, bad } = findSuppressions(
      WINDOW,
      windowSource('x /* eng-disable SANDBOX_JS_CHECK, AUXCLICK_JS_CHECK: the enableSandbox call covers it */ y')
    )
    expect(bad).toEqual([])
    expect(suppressions).toEqual([
      expect.objectContaining({
        line: 3,
        checks: ['SANDBOX_JS_CHECK', 'AUXCLICK_JS_CHECK'],
        reason: 'the enableSandbox call covers it'
      })
    ])
  })

  it('does not let a suppression on another line, in another file or for another check cover a finding', () => {
    const suppressed = '// eng-disable SANDBOX_JS_CHECK: the renderer is sandboxed by the app'
    const elsewhere = gate([issue('SANDBOX_JS_CHECK', 'MEDIUM', WINDOW, 4)], { [WINDOW]: windowSource(suppressed) })
    expect(elsewhere.failures.some((f) => f.startsWith('MEDIUM SANDBOX_JS_CHECK'))).toBe(true)
    const otherFile = gate([issue('SANDBOX_JS_CHECK', 'MEDIUM', 'src/main/other.ts', 3)], { [WINDOW]: windowSource(suppressed) })
    expect(otherFile.failures.some((f) => f.startsWith('MEDIUM SANDBOX_JS_CHECK'))).toBe(true)
    const otherCheck = gate([issue('AUXCLICK_JS_CHECK', 'MEDIUM', WINDOW, 3)], { [WINDOW]: windowSource(suppressed) })
    expect(otherCheck.failures.some((f) => f.startsWith('MEDIUM AUXCLICK_JS_CHECK'))).toBe(true)
  })

  it('treats a suppression on line 1 as file-wide, as electronegativity does', () => {
    const text = ['// eng-disable SANDBOX_JS_CHECK: this file only builds test fixtures', 'a', 'b', 'c'].join('\n')
    expect(gate([issue('SANDBOX_JS_CHECK', 'MEDIUM', WINDOW, 4)], { [WINDOW]: text }).passed).toBe(true)
  })

  it('fails a suppression that suppresses nothing', () => {
    const verdict = gate([], {
      [WINDOW]: windowSource('x // eng-disable SANDBOX_JS_CHECK: the renderer is sandboxed by the app')
    })
    expect(verdict.passed).toBe(false)
    expect(verdict.failures).toEqual([
      `suppression at ${WINDOW}:3 names SANDBOX_JS_CHECK, which reports nothing there: remove it`
    ])
  })

  it('fails a file the scanner could not parse', () => {
    const verdict = gate([], {}, [{ file: 'src/main/new.ts', message: 'Unexpected token (2:6)' }])
    expect(verdict.passed).toBe(false)
    expect(verdict.failures).toEqual(['could not scan src/main/new.ts: Unexpected token (2:6)'])
  })

  it('refuses an issue without a known severity rather than guessing', () => {
    expect(() => findingsFromIssues([{ ...issue('X_CHECK', 'CRITICAL', WINDOW, 1) }])).toThrow(/severity/)
    expect(() => findingsFromIssues(undefined)).toThrow(/no list/)
  })

  it('maps scanned paths back to the project', () => {
    const [finding] = findingsFromIssues([issue('SANDBOX_JS_CHECK', 'MEDIUM', 'src/App.svelte.ts', 3)], (file) =>
      file.replace(/\.ts$/, '')
    )
    expect(finding).toMatchObject({ check: 'SANDBOX_JS_CHECK', severity: 'MEDIUM', file: 'src/App.svelte', line: 3, column: 2 })
  })
})

describe('svelteScriptsAsTs', () => {
  it('keeps the script blocks at their own line numbers and blanks the markup', () => {
    const component = [
      '<script lang="ts">',
      '  let count = $state(0)',
      '</script>',
      '<button onclick={() => count++}>{count}</button>',
      '<script module>export const x = 1</script>'
    ].join('\n')
    expect(svelteScriptsAsTs(component).split('\n')).toEqual(['', '  let count = $state(0)', '', '', 'export const x = 1'])
  })
})
