// One JSON request with a timeout and a size cap; every failure becomes an ApiError.
import { ApiError, kindOfStatus } from './errors'

export interface JsonRequest {
  endpoint: string
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: unknown
  timeoutMs?: number
}

export interface JsonResponse {
  status: number
  body: unknown
}

const DEFAULT_TIMEOUT_MS = 20_000
const MAX_BODY_BYTES = 64 * 1024 * 1024

export async function requestJson(req: JsonRequest): Promise<JsonResponse> {
  let response: Response
  try {
    response = await fetch(req.url, {
      method: req.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...req.headers
      },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      redirect: 'error'
    })
  } catch (error) {
    throw networkError(req.endpoint, error)
  }
  const text = await readCapped(req.endpoint, response)
  if (!response.ok) {
    throw new ApiError(
      kindOfStatus(response.status),
      req.endpoint,
      `HTTP ${response.status}${shortReason(text)}`,
      response.status
    )
  }
  try {
    return { status: response.status, body: JSON.parse(text) }
  } catch {
    throw new ApiError('response-format', req.endpoint, `response is not JSON${shortReason(text)}`, response.status)
  }
}

async function readCapped(endpoint: string, response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) {
    await response.body?.cancel()
    throw new ApiError('response-format', endpoint, `response larger than ${MAX_BODY_BYTES} bytes`, response.status)
  }
  try {
    return await response.text()
  } catch (error) {
    throw networkError(endpoint, error)
  }
}

function networkError(endpoint: string, error: unknown): ApiError {
  const e = error as { name?: string; cause?: { code?: string; message?: string }; message?: string }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return new ApiError('network', endpoint, 'timed out')
  const code = e.cause?.code
  const reason = code === 'ECONNREFUSED' ? 'connection refused'
    : code === 'ENOTFOUND' ? 'unknown host'
    : code === 'ECONNRESET' ? 'connection reset'
    : (e.cause?.message ?? e.message ?? 'network error')
  return new ApiError('network', endpoint, reason)
}

/** The first words of an error body, so the UI can show "HTTP 503: upstream busy". */
function shortReason(text: string): string {
  let reason = text
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>
    reason = String(parsed.message ?? parsed.error_description ?? parsed.error ?? '')
  } catch {
    reason = text.replace(/<[^>]*>/g, ' ')
  }
  reason = reason.replace(/\s+/g, ' ').trim().slice(0, 120)
  return reason ? `: ${reason}` : ''
}
