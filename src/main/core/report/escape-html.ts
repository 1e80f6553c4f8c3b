// Text as HTML (or SVG) text or attribute value: nothing from the service can become markup, and
// it is plain first (shared/plain-text.ts), so no bidi override in a name reorders the rest of its
// heading or line.
import { plainText } from '../../../shared/plain-text'

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export const escapeHtml = (text: string): string => plainText(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!)
