// Reads a secret from the terminal without echoing it; secrets never travel in argv.
export function promptSecret(question: string, input = process.stdin, output = process.stderr): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!input.isTTY) {
      reject(new Error('no terminal to ask for the secret on: set EVENTWATCH_CLIENT_SECRET instead.'))
      return
    }
    output.write(question)
    input.setRawMode(true)
    input.resume()
    let secret = ''
    const finish = (error?: Error): void => {
      input.setRawMode(false)
      input.pause()
      input.off('data', onData)
      output.write('\n')
      if (error) reject(error)
      else resolve(secret)
    }
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish()
        if (char === '\u0003') return finish(new Error('cancelled.'))
        if (char === '\u007f' || char === '\b') secret = secret.slice(0, -1)
        else secret += char
      }
    }
    input.on('data', onData)
  })
}
