/**
 * The alert provider registry: every provider's sending half by its type. The only place in
 * `monitors/` that tells channel types apart; the wire half is `src/contract/channels.ts`, and
 * the typed record below fails to compile until a provider named there has its module here.
 */
import type { ChannelType } from '../../../contract/channels.js'
import { discord } from './discord.js'
import { email } from './email.js'
import type { Provider } from './provider.js'
import { slack } from './slack.js'
import { teams } from './teams.js'
import { webhook } from './webhook.js'

export const PROVIDERS: Readonly<Record<ChannelType, Provider>> = { webhook, slack, discord, teams, email }

export function providerOf(type: ChannelType): Provider {
  return PROVIDERS[type]
}

export {
  ChannelFieldError,
  PermanentError,
  type OpenChannel,
  type MailMessage,
  type OutboundRequest,
  type Provider,
  type Transport,
} from './provider.js'
export { signature } from './webhook.js'
