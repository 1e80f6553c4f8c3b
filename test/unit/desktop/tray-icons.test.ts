// The icon files themselves: every state, both sizes, and shapes that differ without colour.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { inflateSync } from 'node:zlib'
import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { MAX_TOOLTIP_LENGTH, trayIconPath, trayTooltip } from '../../../src/main/desktop/tray-icons'
import { TRAY_STATES, type TrayState } from '../../../src/shared/alerts'
import { situation } from './alert-fixtures'

const resources = resolve(import.meta.dirname, '../../../resources')

/** Size and RGBA pixels of one of our PNGs (8-bit RGBA, filter 0 on every row, as written). */
function readPng(file: string): { width: number; height: number; rgba: Buffer } {
  const bytes = readFileSync(file)
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  const width = bytes.readUInt32BE(16)
  const height = bytes.readUInt32BE(20)
  expect([bytes[24], bytes[25]]).toEqual([8, 6])
  const data: Buffer[] = []
  for (let offset = 8; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset)
    if (bytes.toString('ascii', offset + 4, offset + 8) === 'IDAT') data.push(bytes.subarray(offset + 8, offset + 8 + length))
    offset += 12 + length
  }
  const rows = inflateSync(Buffer.concat(data))
  const rgba = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    expect(rows[y * (width * 4 + 1)]).toBe(0)
    rows.copy(rgba, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1))
  }
  return { width, height, rgba }
}

/** Which pixels are ink (alpha at least half). */
const mask = (rgba: Buffer): boolean[] => Array.from({ length: rgba.length / 4 }, (_, i) => rgba[i * 4 + 3]! >= 128)

describe('tray icon files', () => {
  it.each(TRAY_STATES)('%s has 16 px and 32 px (@2x) icons, coloured and macOS template', (state) => {
    for (const name of [`tray-${state}`, `tray-${state}Template`]) {
      expect(readPng(join(resources, 'tray', `${name}.png`))).toMatchObject({ width: 16, height: 16 })
      expect(readPng(join(resources, 'tray', `${name}@2x.png`))).toMatchObject({ width: 32, height: 32 })
    }
    // A template image is black: the menu bar paints it.
    const template = readPng(join(resources, 'tray', `tray-${state}Template.png`)).rgba
    for (let i = 0; i < template.length; i += 4) expect([template[i], template[i + 1], template[i + 2]]).toEqual([0, 0, 0])
  })

  it('every state is its own shape, told apart without colour', () => {
    const masks = new Map<TrayState, boolean[]>(
      TRAY_STATES.map((state) => [state, mask(readPng(join(resources, 'tray', `tray-${state}Template@2x.png`)).rgba)])
    )
    for (const a of TRAY_STATES) {
      for (const b of TRAY_STATES) {
        if (a >= b) continue
        const differing = masks.get(a)!.filter((ink, i) => ink !== masks.get(b)![i]).length
        // Out of 1024 pixels, at least a tenth differ between any two states.
        expect(differing, `${a} vs ${b}`).toBeGreaterThan(100)
      }
    }
  })

  it('uses the template icons on macOS only', () => {
    expect(trayIconPath('/r', 'warning', 'darwin')).toBe(join('/r', 'tray', 'tray-warningTemplate.png'))
    expect(trayIconPath('/r', 'warning', 'win32')).toBe(join('/r', 'tray', 'tray-warning.png'))
    expect(trayIconPath('/r', 'warning', 'linux')).toBe(join('/r', 'tray', 'tray-warning.png'))
  })
})

describe('trayTooltip', () => {
  it("is the core's headline, firing alerts counted with the acknowledged ones", () => {
    const open = [
      { state: 'firing', severity: 'critical', n: 1 },
      { state: 'acknowledged', severity: 'warning', n: 1 },
      { state: 'pending', severity: 'critical', n: 1 }
    ] as const
    expect(trayTooltip(situation({ open: [...open] }))).toBe('Eventwatch — 2 alerts firing (1 acknowledged) · 1 pending critical')
    expect(trayTooltip(situation())).toBe('Eventwatch — No alerts')
  })

  it('adds the pauses', () => {
    expect(trayTooltip(situation({ pollingPaused: true }))).toBe('Eventwatch — No alerts · polling paused')
    expect(trayTooltip(situation({ blind: [{ connectionId: 'c1', connectionName: 'Contoso' }] }), '10:15')).toBe(
      'Eventwatch — Cannot reach Contoso · notifications paused until 10:15'
    )
  })

  it('never claims all clear before the core has said anything', () => {
    expect(trayTooltip(undefined)).toBe('Eventwatch — alerts not known yet')
  })

  it('fits what Windows shows, cut visibly', () => {
    const blind = Array.from({ length: 12 }, (_, i) => ({ connectionId: `c${i}`, connectionName: `Tenant number ${i}` }))
    const tooltip = trayTooltip(situation({ blind }))
    expect(tooltip).toHaveLength(MAX_TOOLTIP_LENGTH)
    expect(tooltip).toMatch(/^Eventwatch — Cannot reach Tenant number 0, .*…$/)
  })
})
