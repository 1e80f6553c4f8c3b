// A command that writes a long output: `eventwatch export … | head` closes the pipe early, and the
// command then stops quietly (exit 0) rather than dying on EPIPE; any other failure to write is one
// line and exit code 1.
export async function writingToStdout<T>(work: () => Promise<T>): Promise<T> {
  const onError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') process.stderr.write(`eventwatch: cannot write the output: ${error.message}\n`)
    process.exit(error.code === 'EPIPE' ? 0 : 1)
  }
  process.stdout.on('error', onError)
  try {
    return await work()
  } finally {
    process.stdout.off('error', onError)
  }
}
