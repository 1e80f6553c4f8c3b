// Date formatters, made once per kind and time zone and reused.
const FORMATS: Record<'time' | 'dateTime' | 'day' | 'dayMonth' | 'weekday', Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit' },
  weekday: { weekday: 'long' },
  day: { day: 'numeric', month: 'numeric', year: 'numeric' },
  dayMonth: { day: 'numeric', month: 'short' },
  dateTime: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }
}
// Building a formatter costs far more than using one, and tables format thousands of cells.
const formatters = new Map<string, Intl.DateTimeFormat>()
export function formatter(kind: keyof typeof FORMATS, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${kind}/${timeZone ?? 'local'}`
  let made = formatters.get(key)
  if (!made) formatters.set(key, (made = new Intl.DateTimeFormat('en-GB', { ...FORMATS[kind], timeZone })))
  return made
}

