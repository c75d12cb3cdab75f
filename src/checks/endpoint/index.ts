/** Probes of targets that are no URL (a port, a certificate on any port), for monitor types beyond http. */
export { probeTcp, type TcpResult } from './tcp.js'
export { probeTls, type TlsEndpointOptions, type TlsResult } from './tls.js'
export { endpointUrl, type EndpointOptions } from './connect.js'
