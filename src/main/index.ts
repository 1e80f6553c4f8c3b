// Electron entry: composition only.
import { takeSecretFromEnvironment } from './core/connections/env-secret'
import { startDesktop } from './desktop/app'

// Before any renderer, utility process or crash report could inherit the environment.
try {
  takeSecretFromEnvironment()
} catch (error) {
  // An unreadable EVENTWATCH_CLIENT_SECRET_FILE: the app still starts; connections say the secret is missing.
  process.stderr.write(`eventwatch: ${error instanceof Error ? error.message : String(error)}\n`)
}
startDesktop()
