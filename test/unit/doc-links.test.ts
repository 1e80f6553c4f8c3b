// The repository stands on its own: every link in the README and docs/ resolves inside it — to a
// file that exists and, when it names a heading, to a heading that file has. A link to the web
// (or out of the repository with ../) fails: a reader offline, or of a copy, must find it all here.
// Code (fenced blocks and `inline`) is not a link: example addresses there are text.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(__dirname, '../..')

function markdownFiles(): string[] {
  const docs = join(root, 'docs')
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : []
    })
  return [join(root, 'README.md'), ...walk(docs)]
}

/** The text outside code: fenced blocks and inline code spans blanked. */
const prose = (text: string): string => text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '')

/** Every link target: [text](target), ![alt](target), <https://…> autolinks, [ref]: target. */
export function linkTargets(text: string): string[] {
  const body = prose(text)
  const inline = [...body.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!)
  const auto = [...body.matchAll(/<((?:https?|ftp|mailto):[^>\s]+)>/gi)].map((m) => m[1]!)
  const refs = [...body.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!)
  const html = [...body.matchAll(/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/gi)].map((m) => m[1]!)
  return [...inline, ...auto, ...refs, ...html]
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to '-', repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const m of text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

/** Why a link from `file` does not resolve inside the repository, or null when it does. */
export function linkProblem(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'leaves the repository (a web or other scheme link)'
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined]
  const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart))
  if (relative(root, path).startsWith('..')) return 'leaves the repository (../ beyond its root)'
  if (!existsSync(path)) return `names ${relative(root, path)}, which does not exist`
  if (anchor !== undefined && path.endsWith('.md') && !headingAnchors(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor)))
    return `names the heading #${anchor}, which ${relative(root, path)} does not have`
  return null
}

describe('links in the README and docs/', () => {
  it('finds links the way a Markdown reader does (and ignores code)', () => {
    const sample = 'See [a](docs/a.md#x), ![p](img.png "t"), <https://e.example>, `[no](n.md)`\n```\n[no](m.md)\n```\n[r]: ref.md\n'
    expect(linkTargets(sample)).toEqual(['docs/a.md#x', 'img.png', 'https://e.example', 'ref.md'])
    expect([...headingAnchors('# The CLI: every command\n## Start it\n## Start it\n')]).toEqual([
      'the-cli-every-command',
      'start-it',
      'start-it-1'
    ])
    const readme = join(root, 'README.md')
    expect(linkProblem(readme, 'https://example.com')).toMatch(/leaves the repository/)
    expect(linkProblem(readme, '../elsewhere.md')).toMatch(/leaves the repository/)
    expect(linkProblem(readme, 'docs/no-such-page.md')).toMatch(/does not exist/)
    expect(linkProblem(readme, '#no-such-heading')).toMatch(/does not have/)
    expect(linkProblem(readme, 'package.json')).toBeNull()
  })

  const files = markdownFiles()
  it.each(files.map((f) => [relative(root, f), f]))('%s: every link resolves inside the repository', (_name, file) => {
    const problems = linkTargets(readFileSync(file, 'utf8'))
      .map((target) => ({ target, problem: linkProblem(file, target) }))
      .filter((p) => p.problem !== null)
      .map((p) => `${p.target}: ${p.problem}`)
    expect(problems).toEqual([])
  })

  it('the README stays short enough to read to the end', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length
    expect(lines).toBeLessThanOrEqual(300)
  })
})
