// The deb's maintainer scripts: electron-builder's own (chrome-sandbox permissions, AppArmor,
// desktop and MIME databases, kept up to date with electron-builder), with one change:
// /usr/bin/eventwatch is the command line (resources/bin/eventwatch, which runs the app's
// executable in --cli mode) rather than a second way to open the window, which the desktop
// menu entry already is. scripts/dist.js writes them before building; electron-builder.yml
// names them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export const DEB_SCRIPTS_DIR = join('out', 'packaging')
const APP_EXECUTABLE = "'/opt/${sanitizedProductName}/${executable}'"
const CLI_LAUNCHER = "'/opt/${sanitizedProductName}/resources/bin/eventwatch'"

function template(name) {
  const require = createRequire(import.meta.url)
  const lib = dirname(require.resolve('app-builder-lib/package.json'))
  return readFileSync(join(lib, 'templates', 'linux', name), 'utf8')
}

/** electron-builder's template with the /usr/bin link (and its alternative) aimed at the CLI launcher. */
export function cliLinkedScript(text) {
  if (!text.includes(APP_EXECUTABLE)) {
    throw new Error("electron-builder's linux script no longer links the app executable as expected: review deb-scripts.js")
  }
  return text.replaceAll(APP_EXECUTABLE, CLI_LAUNCHER)
}

/** Writes out/packaging/deb-after-{install,remove}.tpl under `root`; returns their paths. */
export function writeDebScripts(root) {
  const dir = join(root, DEB_SCRIPTS_DIR)
  mkdirSync(dir, { recursive: true })
  const written = {}
  for (const [key, name] of [['afterInstall', 'after-install.tpl'], ['afterRemove', 'after-remove.tpl']]) {
    const file = join(dir, `deb-${name}`)
    writeFileSync(file, cliLinkedScript(template(name)))
    written[key] = file
  }
  return written
}
