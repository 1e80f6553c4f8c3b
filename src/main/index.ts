// Electron entry: composition only.
import { startDesktop } from './desktop/app'

startDesktop()
