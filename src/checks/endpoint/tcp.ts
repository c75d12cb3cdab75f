/** A tcp monitor's run: does the port open within the timeout, and how long did the connect take. */
import type net from 'node:net'
import { closeAll, Deadline, endpointUrl, openSocket, within, type EndpointOptions } from './connect.js'

export interface TcpResult {
  /** The connect time, ms (DNS left out). */
  connectMs: number
}

/** Connects to host:port and closes again; throws CheckError when it does not open. */
export async function probeTcp(host: string, port: number, opts: EndpointOptions): Promise<TcpResult> {
  const url = endpointUrl(host, port, false)
  const deadline = new Deadline(opts.timeoutMs, opts.signal)
  const sockets = new Set<net.Socket>()
  try {
    const { connectMs } = await within(deadline, url, openSocket(url, opts, sockets))
    return { connectMs }
  } finally {
    deadline.end()
    closeAll(sockets)
  }
}
