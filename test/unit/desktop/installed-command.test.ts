// The installed app is also the `eventwatch` command (issue 15): --cli turns the main process
// into the CLI; the deb links /usr/bin/eventwatch to a launcher that starts the app's executable
// that way (its maintainer scripts are electron-builder's, re-aimed); an AppImage writes its own
// launcher to ~/.local/bin. The launchers are run here for real, against a stand-in executable.
import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { appImageCommandFile, installAppImageCommand } from '../../../src/main/desktop/appimage-command'
import { cliArgumentsOf } from '../../../src/main/desktop/cli-mode'
import { cliLinkedScript, writeDebScripts } from '../../../scripts/packaging/deb-scripts.js'

const root = resolve(import.meta.dirname, '../../..')
let dir = ''
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-command-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A stand-in for the app's executable: prints the arguments it was given, one per line. */
function standInExecutable(file: string): void {
  writeFileSync(file, '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n')
  chmodSync(file, 0o755)
}

describe('--cli', () => {
  it('takes what follows --cli as the CLI\'s arguments, and nothing without it', () => {
    expect(cliArgumentsOf(['/opt/Eventwatch/eventwatch', '--ozone-platform=headless', '--cli', 'sync', '--once'])).toEqual(['sync', '--once'])
    expect(cliArgumentsOf(['/opt/Eventwatch/eventwatch', '--cli'])).toEqual([])
    expect(cliArgumentsOf(['/opt/Eventwatch/eventwatch', '--hidden'])).toBeNull()
  })
})

describe('the deb\'s /usr/bin/eventwatch', () => {
  it('runs the app\'s executable headless in --cli mode, through the /usr/bin link', () => {
    // /opt/Eventwatch as the deb lays it out: the executable, resources/bin/eventwatch.
    const opt = join(dir, 'opt', 'Eventwatch')
    mkdirSync(join(opt, 'resources', 'bin'), { recursive: true })
    standInExecutable(join(opt, 'eventwatch'))
    copyFileSync(join(root, 'resources', 'bin', 'eventwatch'), join(opt, 'resources', 'bin', 'eventwatch'))
    chmodSync(join(opt, 'resources', 'bin', 'eventwatch'), 0o755)
    mkdirSync(join(dir, 'usr', 'bin'), { recursive: true })
    symlinkSync(join(opt, 'resources', 'bin', 'eventwatch'), join(dir, 'usr', 'bin', 'eventwatch'))
    const out = execFileSync(join(dir, 'usr', 'bin', 'eventwatch'), ['sessions', '--live', 'a b'], { encoding: 'utf8' })
    expect(out.split('\n')).toEqual(['--ozone-platform=headless', '--cli', 'sessions', '--live', 'a b', ''])
  })

  it('the launcher in the repository is executable (git keeps the bit)', () => {
    expect(statSync(join(root, 'resources', 'bin', 'eventwatch')).mode & 0o111).not.toBe(0)
  })

  it('is linked by electron-builder\'s own maintainer scripts, aimed at the launcher', () => {
    const written = writeDebScripts(dir)
    const install = readFileSync(written.afterInstall, 'utf8')
    const remove = readFileSync(written.afterRemove, 'utf8')
    const launcher = "'/opt/${sanitizedProductName}/resources/bin/eventwatch'"
    expect(install).toContain(`update-alternatives --install '/usr/bin/\${executable}' '\${executable}' ${launcher} 100`)
    expect(install).toContain(`ln -sf ${launcher} '/usr/bin/\${executable}'`)
    expect(install).not.toContain("'/opt/${sanitizedProductName}/${executable}'")
    // The rest of electron-builder's work stays: the sandbox helper's permissions among it.
    expect(install).toContain("chmod 4755 '/opt/${sanitizedProductName}/chrome-sandbox'")
    expect(remove).toContain(`update-alternatives --remove '\${executable}' ${launcher}`)
  })

  it('refuses a template it no longer understands rather than shipping a wrong link', () => {
    expect(() => cliLinkedScript('#!/bin/bash\nln -sf /somewhere/else /usr/bin/x\n')).toThrow(/review deb-scripts\.js/)
  })

  it('electron-builder.yml ships the launcher outside the archive and names the scripts', () => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8')
    expect(yml).toMatch(/extraResources:\n {2}- from: resources\/bin\n {4}to: bin\n/)
    expect(yml).toContain('"!resources/bin{,/**}"')
    expect(yml).toMatch(/deb:\n(?: {2}#.*\n)* {2}afterInstall: out\/packaging\/deb-after-install\.tpl\n {2}afterRemove: out\/packaging\/deb-after-remove\.tpl\n/)
  })
})

describe('an AppImage\'s eventwatch command', () => {
  it('writes ~/.local/bin/eventwatch running this AppImage in --cli mode, and it works', () => {
    const appImage = join(dir, "Event'watch.AppImage")
    standInExecutable(appImage)
    const env = { HOME: dir, APPIMAGE: appImage }
    expect(installAppImageCommand(env)).toEqual({ installed: join(dir, '.local', 'bin', 'eventwatch') })
    const out = execFileSync(appImageCommandFile(env), ['sync', '--once'], { encoding: 'utf8' })
    expect(out.split('\n')).toEqual(['--ozone-platform=headless', '--cli', 'sync', '--once', ''])
  })

  it('follows the AppImage when it moves, and leaves a command that is not its own alone', () => {
    const env = { HOME: dir, APPIMAGE: '/old/Eventwatch.AppImage' }
    installAppImageCommand(env)
    installAppImageCommand({ ...env, APPIMAGE: '/new/Eventwatch.AppImage' })
    expect(readFileSync(appImageCommandFile(env), 'utf8')).toContain("exec '/new/Eventwatch.AppImage' --ozone-platform=headless --cli")
    writeFileSync(appImageCommandFile(env), '#!/bin/sh\necho mine\n')
    expect(installAppImageCommand(env)).toEqual({ skipped: `${appImageCommandFile(env)} exists and is not Eventwatch's` })
    expect(readFileSync(appImageCommandFile(env), 'utf8')).toBe('#!/bin/sh\necho mine\n')
  })

  it('does nothing outside an AppImage', () => {
    expect(installAppImageCommand({ HOME: dir })).toEqual({ skipped: 'not running from an AppImage' })
  })
})
