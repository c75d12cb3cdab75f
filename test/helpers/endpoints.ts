/**
 * Local servers for the monitor types that watch a host: a TLS listener with a chosen
 * certificate, mail servers that upgrade with STARTTLS (SMTP through the smtp-server package;
 * small IMAP and POP3 stand-ins that speak just their greeting and STARTTLS/STLS), a listener
 * that accepts and never says a word, and one that never accepts at all (its backlog full).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import net from 'node:net'
import tls from 'node:tls'
import { SMTPServer } from 'smtp-server'
import type { TestCert } from '../fixtures/certs.js'

export interface Listening {
  port: number
  close(): Promise<void>
}

const HOST = '127.0.0.1'

async function listen(server: net.Server, sockets: Set<net.Socket>): Promise<Listening> {
  server.on('connection', (s: net.Socket) => {
    sockets.add(s)
    s.on('error', () => {})
    s.once('close', () => sockets.delete(s))
  })
  server.listen(0, HOST)
  await once(server, 'listening')
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}

/** TLS from the first byte, serving `cert`. */
export function tlsListener(cert: TestCert): Promise<Listening> {
  const server = tls.createServer({ key: cert.key, cert: cert.cert }, (s) => {
    s.on('error', () => {})
    s.end()
  })
  server.on('tlsClientError', () => {})
  return listen(server, new Set())
}

/** A plain TCP listener that accepts and then says nothing (a handshake or greeting never comes). */
export function silentListener(): Promise<Listening> {
  return listen(
    net.createServer(() => {}),
    new Set(),
  )
}

/** Upgrades `socket` to TLS as a server would after its go-ahead. */
function upgrade(socket: net.Socket, cert: TestCert): void {
  socket.removeAllListeners('data')
  const secure = new tls.TLSSocket(socket, {
    isServer: true,
    secureContext: tls.createSecureContext({ key: cert.key, cert: cert.cert }),
  })
  secure.on('error', () => {})
  secure.on('data', () => {})
}

/** Calls `onLine` for each line a client sends (until the socket is upgraded). */
function lines(socket: net.Socket, onLine: (line: string) => void): void {
  let buffer = ''
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1')
    let at: number
    while ((at = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, at).replace(/\r$/, '')
      buffer = buffer.slice(at + 1)
      onLine(line)
    }
  })
}

/** An IMAP stand-in: `* OK` greeting; `a1 STARTTLS` → `a1 OK`, then TLS with `cert`. `refuse`: `a1 NO`. */
export function imapServer(cert: TestCert, opts: { refuse?: boolean } = {}): Promise<Listening> {
  const server = net.createServer((s) => {
    s.write('* OK [CAPABILITY IMAP4rev1 STARTTLS] stand-in ready\r\n')
    lines(s, (line) => {
      const [tag, command] = line.split(' ')
      if (command?.toUpperCase() !== 'STARTTLS') return void s.write(`${tag} BAD only STARTTLS here\r\n`)
      if (opts.refuse) return void s.write(`${tag} NO STARTTLS is off\r\n`)
      s.write(`${tag} OK Begin TLS negotiation now\r\n`)
      upgrade(s, cert)
    })
  })
  return listen(server, new Set())
}

/** A POP3 stand-in: `+OK` greeting; `STLS` → `+OK`, then TLS with `cert`. */
export function pop3Server(cert: TestCert): Promise<Listening> {
  const server = net.createServer((s) => {
    s.write('+OK stand-in POP3 ready\r\n')
    lines(s, (line) => {
      if (line.toUpperCase() !== 'STLS') return void s.write('-ERR only STLS here\r\n')
      s.write('+OK Begin TLS negotiation\r\n')
      upgrade(s, cert)
    })
  })
  return listen(server, new Set())
}

/** A real SMTP server (smtp-server) offering STARTTLS with `cert`. */
export async function smtpServer(cert: TestCert): Promise<Listening> {
  const server = new SMTPServer({
    secure: false,
    key: cert.key,
    cert: cert.cert,
    authOptional: true,
    logger: false,
    onData(stream, _session, done) {
      stream.resume()
      stream.on('end', () => done())
    },
  })
  server.on('error', () => {})
  server.listen(0, HOST)
  await once(server.server, 'listening')
  return {
    port: (server.server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/**
 * A port whose listener never accepts: a stopped process listening with a backlog of one, and
 * that backlog filled, so the kernel answers no further SYN and a connect waits until it times out.
 */
export async function unacceptingPort(): Promise<Listening> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '-e',
      `const s=require('net').createServer(()=>{});s.listen({port:0,host:'${HOST}',backlog:1},()=>console.log(s.address().port))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer]
  const port = Number(chunk.toString().trim())
  child.kill('SIGSTOP')
  // fill the accept queue (backlog + 1 on Linux) and the connections the kernel still completes
  const fillers: net.Socket[] = []
  for (let i = 0; i < 4; i++) {
    const f = net.connect(port, HOST)
    f.on('error', () => {})
    fillers.push(f)
  }
  await new Promise((r) => setTimeout(r, 100))
  return {
    port,
    close: async () => {
      for (const f of fillers) f.destroy()
      child.kill('SIGKILL')
      if (child.exitCode === null) await once(child, 'exit')
    },
  }
}
