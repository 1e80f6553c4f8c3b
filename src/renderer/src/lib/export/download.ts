// Hands a file to the browser's (or Electron's) download: a Blob behind an <a download>.
export function downloadFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // Let the download start before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
