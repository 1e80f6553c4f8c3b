// The in-page assembler (used where no export worker starts): the same file as exportParts,
// built from chunks as they arrive, pausing between slices, and stopping when cancelled.
import { describe, expect, it } from 'vitest'
import { exportParts } from '../../src/renderer/src/lib/export/assemble'
import { assembleInPage } from '../../src/renderer/src/lib/export/assembler'
import { ExportCancelled } from '../../src/renderer/src/lib/export/fetch-chunks'

const records = Array.from({ length: 3000 }, (_, i) => ({
  viewerId: i % 7 === 0 ? `=id-${i}` : `id-${i}`,
  reliabilityScore: -i,
  ...(i % 1000 === 999 ? { networkConnections: [{ publicIp: `203.0.113.${i % 250}` }] } : {})
}))

const chunks = (size: number): Record<string, unknown>[][] =>
  Array.from({ length: Math.ceil(records.length / size) }, (_, i) => records.slice(i * size, (i + 1) * size))

describe('assembleInPage', () => {
  it.each([
    ['csv', {}],
    ['csv', { bom: true }],
    ['json', { bom: true }]
  ] as const)('gives the same %s file (%j) as exportParts, from chunks', async (format, options) => {
    const assembler = assembleInPage(format, options)
    for (const chunk of chunks(700)) assembler.add(chunk)
    const file = await assembler.finish()
    expect(assembler.where).toBe('page')
    expect(file.type).toMatch(format === 'csv' ? /^text\/csv/ : /^application\/json/)
    expect(await file.text()).toBe(await new Blob(exportParts(records, format, options)).text())
  })

  it('lets the event loop run while it assembles, and stops when cancelled', async () => {
    const assembler = assembleInPage('csv')
    assembler.add(records)
    const controller = new AbortController()
    let ticks = 0
    const ticker = setInterval(() => {
      ticks++
      controller.abort()
    }, 0)
    await expect(assembler.finish(controller.signal)).rejects.toBeInstanceOf(ExportCancelled)
    clearInterval(ticker)
    expect(ticks).toBeGreaterThan(0)
  })

  it('refuses to be used after it let go of its records', async () => {
    const assembler = assembleInPage('json')
    assembler.dispose()
    expect(() => assembler.add(records)).toThrow(/already finished or cancelled/)
  })
})
