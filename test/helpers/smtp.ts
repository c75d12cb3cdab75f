/**
 * A local SMTP server for tests (the smtp-server package): every mail it accepts, with its
 * envelope recipients, its headers (unfolded, lowercase names) and its text body decoded from
 * quoted-printable, so tests can follow the links in it.
 */
import { once } from 'node:events'
import type net from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface Mail {
  to: string[]
  headers: Map<string, string>
  text: string
  raw: string
}

export interface LocalSmtp {
  url: string
  mails: Mail[]
  /** Resolves once `n` mails in all have been accepted (or rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Mail[]>
  close(): Promise<void>
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

export function parseMail(raw: string, to: string[]): Mail {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const headers = new Map<string, string>()
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':')
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim())
  }
  let body = raw.slice(split + 4)
  const enc = headers.get('content-transfer-encoding')?.toLowerCase()
  if (enc === 'quoted-printable') body = decodeQuotedPrintable(body)
  else if (enc === 'base64') body = Buffer.from(body, 'base64').toString('utf8')
  else body = Buffer.from(body, 'latin1').toString('utf8')
  return { to, headers, text: body.replace(/\r\n/g, '\n'), raw }
}

export async function startSmtp(): Promise<LocalSmtp> {
  const mails: Mail[] = []
  let wake: (() => void) | undefined
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address)
        mails.push(parseMail(Buffer.concat(chunks).toString('latin1'), to))
        wake?.()
        cb()
      })
    },
  })
  smtp.listen(0, '127.0.0.1')
  await once(smtp.server, 'listening')
  const port = (smtp.server.address() as net.AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`${mails.length} mail(s) after ${ms} ms, wanted ${n}`)
        await new Promise<void>((r) => {
          wake = r
          setTimeout(r, 50)
        })
      }
      return mails
    },
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  }
}
