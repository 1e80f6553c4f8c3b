// Which links the renderer's guard lets through (src/renderer/src/lib/link-guard.ts).
import { describe, expect, it } from 'vitest'
import { classifyLink } from '../../src/renderer/src/lib/link-guard'

const HOST_PAGE = 'http://127.0.0.1:4780/#live'
const FILE_PAGE = 'file:///opt/Eventwatch/resources/app.asar/out/renderer/index.html#live'

describe('classifyLink in the browser host', () => {
  it.each(['#alerts', '/#settings', 'http://127.0.0.1:4780/assets/x.js', '?x=1', 'blob:http://127.0.0.1:4780/0b1c'])(
    '%s is the app',
    (href) => expect(classifyLink(href, HOST_PAGE)).toBe('in-app')
  )

  it.each(['https://docs.example/help', 'https://example.invalid/?next=http://127.0.0.1:4780/'])('%s may open outside', (href) =>
    expect(classifyLink(href, HOST_PAGE)).toBe('external')
  )

  it.each([
    'http://evil.example/',
    '//evil.example/',
    'http://localhost:4780/', // another origin, though the same host serves it
    'http://127.0.0.1:4781/',
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'blob:http://evil.example/0b1c',
    'file:///etc/passwd',
    'mailto:a@example.com',
    'https://bank.example@evil.example/',
    'https://user:pw@docs.example/',
    'http://[::1'
  ])('%s is blocked', (href) => expect(classifyLink(href, HOST_PAGE)).toBe('blocked'))
})

describe('classifyLink in the desktop app (file:)', () => {
  it('lets hash routes and its own downloads through', () => {
    expect(classifyLink('#alerts', FILE_PAGE)).toBe('in-app')
    expect(classifyLink('blob:file:///5e1d', FILE_PAGE)).toBe('in-app')
    expect(classifyLink('blob:null/5e1d', FILE_PAGE)).toBe('in-app')
  })

  it('blocks other files and sends https outside', () => {
    expect(classifyLink('file:///etc/passwd', FILE_PAGE)).toBe('blocked')
    expect(classifyLink('./other.html', FILE_PAGE)).toBe('blocked')
    expect(classifyLink('https://docs.example/', FILE_PAGE)).toBe('external')
  })
})
