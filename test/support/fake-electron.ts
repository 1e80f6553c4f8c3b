// A recording stand-in for the 'electron' module (no Electron binary exists under plain Node).
// Tests use it through: vi.mock('electron', () => import('./fake-electron'))
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vi, type Mock } from 'vitest'

/** Where app.getPath points unless a test says otherwise: never a real folder of this machine's. */
export const FAKE_PATHS = join(tmpdir(), `eventwatch-fake-electron-${process.pid}`)

type Handler = (...args: any[]) => unknown

/** A tiny event emitter recording handlers by event name. */
class Recorder {
  handlers = new Map<string, Handler[]>()
  on = vi.fn((event: string, handler: Handler) => {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler])
    return this
  })
  once = vi.fn((event: string, handler: Handler) => this.on(event, handler))
  emit(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) handler(...args)
  }
}

/** An Electron-style event whose preventDefault is observable. */
export function fakeEvent<T extends object>(params: T): T & { preventDefault: ReturnType<typeof vi.fn> } {
  return { ...params, preventDefault: vi.fn() }
}

export class FakeWebContents extends Recorder {
  windowOpenHandler: Handler | undefined
  setWindowOpenHandler = vi.fn((handler: Handler) => {
    this.windowOpenHandler = handler
  })
  send = vi.fn()
  isDestroyed = vi.fn(() => false)
  forcefullyCrashRenderer = vi.fn()
}

export class BrowserWindow extends Recorder {
  static instances: BrowserWindow[] = []
  /** What loadURL/loadFile of the next windows resolve or reject with. */
  static load: (target: string) => Promise<void> = async () => undefined
  webContents = new FakeWebContents()
  loadURL = vi.fn((url: string) => BrowserWindow.load(url))
  loadFile = vi.fn((file: string) => BrowserWindow.load(file))
  show = vi.fn()
  hide = vi.fn()
  focus = vi.fn()
  restore = vi.fn()
  isMinimized = vi.fn(() => false)
  isVisible = vi.fn(() => true)
  isFocused = vi.fn(() => false)
  isDestroyed = vi.fn(() => false)
  maximize = vi.fn()
  isMaximized = vi.fn(() => false)
  getNormalBounds = vi.fn(() => ({ x: 10, y: 20, width: 1280, height: 800 }))
  constructor(public options: Record<string, any>) {
    super()
    BrowserWindow.instances.push(this)
    // As Electron does: every new webContents is announced, so app-wide hardening applies.
    app.emit('web-contents-created', fakeEvent({}), this.webContents)
  }
}

class FakeIpcMain {
  handlers = new Map<string, Handler>()
  handle = vi.fn((channel: string, handler: Handler) => {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`)
    this.handlers.set(channel, handler)
  })
  removeHandler = vi.fn((channel: string) => {
    this.handlers.delete(channel)
  })
}

class FakeIpcRenderer {
  listeners = new Map<string, Handler[]>()
  invoke = vi.fn(async (_channel: string, ..._args: unknown[]): Promise<unknown> => undefined)
  on = vi.fn((channel: string, listener: Handler) => {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener])
    return this
  })
  removeListener = vi.fn((channel: string, listener: Handler) => {
    this.listeners.set(
      channel,
      (this.listeners.get(channel) ?? []).filter((l) => l !== listener)
    )
    return this
  })
  emit(channel: string, event: unknown, ...args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) listener(event, ...args)
  }
}

export class FakeSession {
  setPermissionRequestHandler = vi.fn()
  setPermissionCheckHandler = vi.fn()
  setDevicePermissionHandler = vi.fn()
  webRequest = { onHeadersReceived: vi.fn() }
}

/** What nativeImage.createFromPath made: the path, and an image that is never empty. */
export class FakeNativeImage {
  constructor(public path: string) {}
  isEmpty = vi.fn(() => false)
  setTemplateImage = vi.fn()
}

export const nativeImage = {
  createFromPath: vi.fn((path: string) => new FakeNativeImage(path)),
  createEmpty: vi.fn(() => new FakeNativeImage(''))
}

export class Tray extends Recorder {
  static instances: Tray[] = []
  setImage = vi.fn()
  setToolTip = vi.fn()
  setTitle = vi.fn()
  setContextMenu = vi.fn()
  destroy = vi.fn()
  constructor(public image: FakeNativeImage) {
    super()
    Tray.instances.push(this)
  }
}

/** A built menu keeps its template, so tests can read labels and click items. */
export const Menu = {
  buildFromTemplate: vi.fn((template: any[]) => ({ items: template }))
}

export class Notification extends Recorder {
  static instances: Notification[] = []
  static isSupported = vi.fn(() => true)
  show = vi.fn()
  close = vi.fn()
  constructor(public options: Record<string, any>) {
    super()
    Notification.instances.push(this)
  }
}

class FakeApp extends Recorder {
  setLoginItemSettings = vi.fn()
  getVersion = vi.fn(() => '0.0.0-test')
  getLoginItemSettings = vi.fn(() => ({ openAtLogin: false, wasOpenedAtLogin: false }))
  whenReady = vi.fn(async () => undefined)
  requestSingleInstanceLock = vi.fn(() => true)
  enableSandbox = vi.fn()
  setAppUserModelId = vi.fn()
  setAsDefaultProtocolClient = vi.fn((_protocol: string, _path?: string, _args?: string[]) => true)
  quit = vi.fn()
  exit = vi.fn()
  getPath = vi.fn((name: string) => join(FAKE_PATHS, name))
  getAppPath = vi.fn(() => '/fake/app-root')
}

export const app = new FakeApp()
export const ipcMain = new FakeIpcMain()
export const ipcRenderer = new FakeIpcRenderer()
export const session = { defaultSession: new FakeSession() }
export const contextBridge = { exposeInMainWorld: vi.fn() }
/** Electron's net.fetch: here, Node's own fetch (the desktop sends every request through it). */
export const net = { fetch: vi.fn((input: string, init?: RequestInit) => fetch(input, init)) }
export const shell = { openExternal: vi.fn(async (_url: string) => undefined) }
/** One 1920×1080 display unless a test says otherwise. */
const PRIMARY_DISPLAY = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }
export const screen = {
  getAllDisplays: vi.fn(() => [PRIMARY_DISPLAY]),
  getPrimaryDisplay: vi.fn(() => PRIMARY_DISPLAY)
}
export const dialog = {
  showErrorBox: vi.fn(),
  showMessageBox: vi.fn(async (..._args: unknown[]) => ({ response: 0, checkboxChecked: false }))
}

/** Forget everything recorded, for the next test. resetAllMocks puts each vi.fn back to the
 *  implementation it was created with. */
export function resetFakeElectron(): void {
  vi.resetAllMocks()
  app.handlers.clear()
  ipcMain.handlers.clear()
  ipcRenderer.listeners.clear()
  BrowserWindow.instances = []
  BrowserWindow.load = async () => undefined
  Tray.instances = []
  Notification.instances = []
}

/** A fake AppCore: dispatch and close are spies, events are pushed with `push`. */
export function fakeCore() {
  const listeners = new Set<(name: any, payload: any) => void>()
  return {
    dispatch: vi.fn(async (_name: unknown, _args: unknown): Promise<any> => ({ ok: true, value: 'result' })),
    onEvent: vi.fn((listener: (name: any, payload: any) => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }),
    close: vi.fn(async () => undefined),
    recordProblem: vi.fn((_problem: { endpoint: string; message: string }) => undefined),
    // Typed requests and pushes: nothing here calls them (the IPC face goes through dispatch).
    request: vi.fn(async (): Promise<any> => ({ ok: true, value: 'result' })),
    on: vi.fn(() => () => undefined),
    push(name: string, payload: unknown) {
      for (const listener of listeners) listener(name, payload)
    },
    listenerCount: () => listeners.size
  }
}

/**
 * Before each test of startDesktop with the core's start mocked (each file keeps its own
 * vi.mock of core/app/start, which is hoisted): a clean fake electron, `startAppCore` resolving
 * to the core `makeCore` builds, no dev server. Returns that core.
 */
export function resetDesktop<C>(startAppCore: Mock, makeCore: () => C): C {
  resetFakeElectron()
  startAppCore.mockReset()
  const core = makeCore()
  startAppCore.mockResolvedValue(core)
  delete process.env['ELECTRON_RENDERER_URL']
  return core
}
