// The policy of the electronegativity gate, as pure functions (scripts/electronegativity.js runs
// the scanner; this decides what its findings mean):
//
// - every finding of HIGH or MEDIUM severity fails, unless an inline suppression on its line
//   (or on line 1 of its file, which electronegativity reads as file-wide) names its check;
// - every suppression must give a reason:  // eng-disable CHECK_ID[, CHECK_ID]: why it is safe
// - a suppression that suppresses no finding fails: it would silently pre-approve a new one;
// - a file the scanner could not parse fails: a gate that skips files is not a gate.
//
// LOW and INFORMATIONAL findings are listed and pass.

export const GATING_SEVERITIES = new Set(['HIGH', 'MEDIUM'])
export const SEVERITIES = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL']
/** A reason shorter than this explains nothing ("ok", "fine", "n/a"). */
export const MIN_REASON_LENGTH = 15

/**
 * @typedef {{ check: string, severity: string, confidence: string, file: string, line: number,
 *   column: number, description: string }} Finding
 * @typedef {{ file: string, line: number, checks: string[], reason: string, text: string }} Suppression
 * @typedef {{ file: string, line: number, text: string, problem: string }} BadSuppression
 */

/**
 * The runner's issues (what it would write to its CSV: id, severity, confidence, file,
 * line:column, description) as plain findings. `fileName` maps the scanned path back to the
 * project's own.
 * @returns {Finding[]}
 */
export function findingsFromIssues(issues, fileName = (file) => file) {
  if (!Array.isArray(issues)) throw new Error('electronegativity returned no list of issues')
  return issues.map((issue, index) => {
    const severity = String(issue?.severity?.name ?? issue?.severity ?? '').toUpperCase()
    if (!issue || typeof issue.id !== 'string' || !SEVERITIES.includes(severity)) {
      // Unknown shape: refuse rather than guess a severity and maybe pass a real finding.
      throw new Error(`electronegativity issue #${index + 1} has no check id or a severity outside ${SEVERITIES.join(', ')}`)
    }
    return {
      check: issue.id,
      severity,
      confidence: String(issue.confidence?.name ?? issue.confidence ?? ''),
      file: fileName(String(issue.file ?? 'N/A')),
      line: Number(issue.location?.line) || 0,
      column: Number(issue.location?.column) || 0,
      description: String(issue.description ?? '')
    }
  })
}

// What electronegativity itself matches (dist/util/exceptions.js): `//` or `/*` or `<!--`, then
// eng-disable, then check names. Anything it would honour, we check for a reason.
const ENG_DISABLE = /(?:\/\/|\/\*|<!--)[ \t]*eng-disable\b(.*)$/
// Ours: check ids, then a colon, then the reason (until the end of the comment).
const WITH_REASON = /^[ \t]+([A-Z0-9_]+(?:[ \t]*,[ \t]*[A-Z0-9_]+|[ \t]+[A-Z0-9_]+)*)[ \t]*:(.*)$/

/**
 * Every eng-disable comment in one file's text, split into well-formed suppressions and bad
 * ones (no check id, no reason, a reason too short to explain anything).
 * @returns {{ suppressions: Suppression[], bad: BadSuppression[] }}
 */
export function findSuppressions(file, text) {
  const suppressions = []
  const bad = []
  text.split(/\r?\n/).forEach((lineText, index) => {
    const found = ENG_DISABLE.exec(lineText)
    if (!found) return
    const line = index + 1
    const comment = lineText.slice(found.index).trim()
    const parsed = WITH_REASON.exec(found[1])
    if (!parsed) {
      bad.push({ file, line, text: comment, problem: 'expected "eng-disable CHECK_ID: reason"' })
      return
    }
    const checks = parsed[1].split(/[ \t,]+/).filter(Boolean)
    const reason = parsed[2].replace(/\*\/.*$|-->.*$/, '').trim()
    if (reason.length < MIN_REASON_LENGTH) {
      bad.push({
        file,
        line,
        text: comment,
        problem: reason ? `the reason is too short to explain anything ("${reason}")` : 'no reason given'
      })
      return
    }
    suppressions.push({ file, line, checks, reason, text: comment })
  })
  return { suppressions, bad }
}

/** The suppression that covers a finding: same file, naming its check, on its line or line 1. */
function suppressionFor(finding, suppressions) {
  return suppressions.find(
    (s) =>
      s.file === finding.file &&
      s.checks.includes(finding.check) &&
      (s.line === finding.line || s.line === 1)
  )
}

/**
 * Applies the policy. `parseErrors` are the files the scanner could not read ({ file, message }).
 * Returns every finding with its suppression (if any), and the failures, one line each.
 */
export function evaluate({ findings, suppressions = [], badSuppressions = [], parseErrors = [] }) {
  const rows = sortRows(findings.map((finding) => ({ finding, suppression: suppressionFor(finding, suppressions) })))
  const failures = []
  for (const { finding, suppression } of rows) {
    if (GATING_SEVERITIES.has(finding.severity) && !suppression) {
      failures.push(`${finding.severity} ${finding.check} at ${finding.file}:${finding.line} — ${finding.description}`)
    }
  }
  for (const bad of badSuppressions) {
    failures.push(`suppression at ${bad.file}:${bad.line}: ${bad.problem}: ${bad.text}`)
  }
  for (const suppression of suppressions) {
    for (const check of suppression.checks) {
      const used = rows.some((row) => row.suppression === suppression && row.finding.check === check)
      if (!used) {
        failures.push(`suppression at ${suppression.file}:${suppression.line} names ${check}, which reports nothing there: remove it`)
      }
    }
  }
  for (const error of parseErrors) {
    failures.push(`could not scan ${error.file}: ${error.message}`)
  }
  return { rows, failures, passed: failures.length === 0 }
}

/** Most severe first, then by place. */
function sortRows(rows) {
  const rank = (row) => SEVERITIES.indexOf(row.finding.severity)
  return [...rows].sort(
    (a, b) => rank(a) - rank(b) || a.finding.file.localeCompare(b.finding.file) || a.finding.line - b.finding.line
  )
}

/** The findings as a plain text table (rows as evaluate returns them: most severe first). */
export function formatTable(rows) {
  if (rows.length === 0) return ['no findings']
  const table = [['check', 'severity', 'where', 'suppressed'], ...rows.map(({ finding, suppression }) => [
    finding.check,
    finding.severity,
    `${finding.file}:${finding.line}`,
    suppression ? `yes: ${suppression.reason}` : 'no'
  ])]
  const widths = [0, 1, 2].map((column) => Math.max(...table.map((row) => row[column].length)))
  return table.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]) : cell)).join('  '))
}

/** One line: what was found, what was suppressed, and the verdict. */
export function summaryLine({ rows, failures, passed }) {
  const count = (severity) => rows.filter((row) => row.finding.severity === severity).length
  const suppressed = rows.filter((row) => row.suppression).length
  const counts = SEVERITIES.map((severity) => `${count(severity)} ${severity.toLowerCase()}`).join(', ')
  return `electronegativity: ${counts}; ${suppressed} suppressed with a reason; ${passed ? 'PASS' : `FAIL (${failures.length} problem${failures.length === 1 ? '' : 's'})`}`
}

// What the scanner reads: it knows .js/.ts/.html only, so a Svelte component's scripts are
// handed to it as TypeScript.

/** A .svelte file's <script> contents at their own line numbers, everything else blank. */
export function svelteScriptsAsTs(text) {
  const lines = text.split('\n')
  let inScript = false
  return lines
    .map((line) => {
      if (!inScript) {
        const open = /<script\b[^>]*>/.exec(line)
        if (!open) return ''
        const rest = line.slice(open.index + open[0].length)
        const close = rest.indexOf('</script>')
        if (close >= 0) return rest.slice(0, close)
        inScript = true
        return rest
      }
      const close = line.indexOf('</script>')
      if (close >= 0) {
        inScript = false
        return line.slice(0, close)
      }
      return line
    })
    .join('\n')
}
