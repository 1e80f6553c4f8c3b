// Electron entry: composition only.
import { takeSecretFromEnvironment } from './core/connections/env-secret'
import { startDesktop } from './desktop/app'

// Before any renderer, utility process or crash report could inherit the environment.
takeSecretFromEnvironment()
startDesktop()
