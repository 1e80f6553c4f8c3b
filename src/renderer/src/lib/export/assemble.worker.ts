// The export worker: collects the records the page sends and assembles the file off the page's
// thread, so a large export never freezes the window. It answers with a Blob (passed by
// reference, not copied).
import { ExportBuilder, MIME, type ExportFormat } from './assemble'
import type { FromWorker, ToWorker } from './assemble-messages'

interface WorkerScope {
  postMessage(message: FromWorker): void
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null
}

const scope = self as unknown as WorkerScope
let builder: ExportBuilder | null = null
let format: ExportFormat = 'csv'

scope.onmessage = ({ data }) => {
  try {
    if (data.type === 'start') {
      format = data.format
      builder = new ExportBuilder(data.format, data.options)
    } else if (!builder) {
      throw new Error('the export worker was sent records before the export started')
    } else if (data.type === 'add') {
      builder.add(data.records)
    } else {
      scope.postMessage({ type: 'done', blob: new Blob([...builder.parts()], { type: MIME[format] }) })
      builder = null
    }
  } catch (error) {
    scope.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}

scope.postMessage({ type: 'ready' })
