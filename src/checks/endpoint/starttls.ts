/**
 * Just enough of SMTP (RFC 3207), IMAP (RFC 9051 §6.2.1) and POP3 (RFC 2595 §4) to ask a mail
 * server to switch a plain connection to TLS: read the greeting, ask (`EHLO` then `STARTTLS`;
 * `a1 STARTTLS`; `STLS`), read the go-ahead. Nothing else is said, no credentials ever; what the
 * server sends is read line by line, bounded, and quoted back only in short, cleaned words.
 */
import type net from 'node:net'
import type { StartTls } from '../../contract/monitor-target.js'
import { checkFailed } from '../errors.js'

/** The most a server may send before its go-ahead (a long EHLO list is a few hundred bytes). */
const MAX_BYTES = 16 * 1024

/** Reads whole lines from a plain socket until it is handed to TLS. */
class LineReader {
  private buffer = ''
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void } | undefined
  private failed: Error | undefined
  private seen = 0
  private readonly onData = (chunk: Buffer) => {
    this.seen += chunk.length
    if (this.seen > MAX_BYTES) return this.fail(checkFailed(`${this.where} sent too much before STARTTLS`))
    this.buffer += chunk.toString('latin1')
    this.deliver()
  }
  private readonly onEnd = () => this.fail(checkFailed(`${this.where} closed the connection before STARTTLS`))

  constructor(
    private readonly socket: net.Socket,
    private readonly where: string,
  ) {
    socket.on('data', this.onData)
    socket.once('end', this.onEnd)
  }

  private fail(err: Error): void {
    this.failed ??= err
    this.waiting?.reject(err)
    this.waiting = undefined
  }

  private deliver(): void {
    const at = this.buffer.indexOf('\n')
    if (at < 0 || !this.waiting) return
    const line = this.buffer.slice(0, at).replace(/\r$/, '')
    this.buffer = this.buffer.slice(at + 1)
    const w = this.waiting
    this.waiting = undefined
    w.resolve(line)
  }

  line(): Promise<string> {
    if (this.failed) return Promise.reject(this.failed)
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
      this.deliver()
    })
  }

  /** Lines up to the last of a multi-line SMTP reply (`250-…`, `250-…`, `250 …`): the code and the lines. */
  async smtpReply(): Promise<{ code: number; lines: string[] }> {
    const lines: string[] = []
    for (;;) {
      const line = await this.line()
      lines.push(line)
      const m = /^(\d{3})([ -]|$)/.exec(line)
      if (!m) throw checkFailed(`${this.where} did not answer as an SMTP server (${quote(line)})`)
      if (m[2] !== '-') return { code: Number(m[1]), lines }
    }
  }

  send(text: string): void {
    this.socket.write(text)
  }

  /** Stops reading: the socket goes to TLS next. Bytes sent early (before the handshake) are refused. */
  detach(): void {
    this.socket.off('data', this.onData)
    this.socket.off('end', this.onEnd)
    this.socket.pause()
    if (this.buffer.length > 0)
      throw checkFailed(`${this.where} sent data after its STARTTLS go-ahead, before the TLS handshake`)
  }
}

/** A server's words, short and printable, for a message. */
const quote = (line: string) => JSON.stringify(line.replace(/[^\x20-\x7e]/g, '?').slice(0, 80))

const refused = (where: string, protocol: StartTls, line: string) =>
  checkFailed(`${where} refused STARTTLS over ${protocol.toUpperCase()} (${quote(line)})`)

/** Asks the server on `socket` to switch to TLS; resolves once it agreed (the socket is paused). */
export async function startTls(socket: net.Socket, protocol: StartTls, where: string): Promise<void> {
  const r = new LineReader(socket, where)
  if (protocol === 'smtp') {
    const hello = await r.smtpReply()
    if (hello.code !== 220) throw refused(where, protocol, hello.lines.at(-1)!)
    r.send('EHLO sitehealth.invalid\r\n')
    const ehlo = await r.smtpReply()
    if (ehlo.code !== 250) throw refused(where, protocol, ehlo.lines.at(-1)!)
    if (!ehlo.lines.some((l) => /^250[ -]STARTTLS\b/i.test(l)))
      throw checkFailed(`${where} does not offer STARTTLS over SMTP`)
    r.send('STARTTLS\r\n')
    const go = await r.smtpReply()
    if (go.code !== 220) throw refused(where, protocol, go.lines.at(-1)!)
  } else if (protocol === 'imap') {
    const hello = await r.line()
    if (!/^\* (OK|PREAUTH)\b/i.test(hello))
      throw checkFailed(`${where} did not greet as an IMAP server (${quote(hello)})`)
    r.send('a1 STARTTLS\r\n')
    let line = await r.line()
    // untagged lines (a CAPABILITY) may come before the tagged answer
    while (line.startsWith('* ')) line = await r.line()
    if (!/^a1 OK\b/i.test(line)) throw refused(where, protocol, line)
  } else {
    const hello = await r.line()
    if (!/^\+OK\b/i.test(hello))
      throw checkFailed(`${where} did not greet as a POP3 server (${quote(hello)})`)
    r.send('STLS\r\n')
    const line = await r.line()
    if (!/^\+OK\b/i.test(line)) throw refused(where, protocol, line)
  }
  r.detach()
}
