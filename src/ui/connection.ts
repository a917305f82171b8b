import type { AdminClient } from '../core/admin/admin-client.js'

/** Whether the events come: `lost` shows a banner until they do again. */
export type StreamStatus = 'live' | 'lost' | 'unauthorized'
/** An event of the state followed (`state`, `requests`, `controls`, `sessions`), its data as JSON gives it. */
export type PanelEvent = { event: string; data: unknown }
/**
 * What the panel acts through and follows: the admin API and its event stream
 * (the server's page), or the in-process simulator (a page's corner panel).
 * `session` '' is the default state.
 */
export interface PanelConnection {
  admin(session: string): AdminClient
  /** Follows a session's state until `stop`; `look` asks at once, after a change the panel made. */
  follow(session: string, onEvent: (event: PanelEvent) => void, onStatus: (status: StreamStatus) => void): { stop(): void; look(): void }
  /** A server offers its session picker at once; an in-page simulator once it has a session. */
  sessionsAlways: boolean
  /** Why Save as scenario cannot work here (no scenarios folder to write), said beside it; a server says it when asked. */
  unsaved?: string
}
/** What each section of the panel is built with. */
export interface PanelContext {
  /** An id in the panel's root: prefixed in a corner panel, so that the host page's own stay apart. */
  id(name: string): string
  /** Runs one change; a refusal shows in `out`, beside the control that made it, and nothing else changes. */
  run(out: HTMLElement, change: () => Promise<unknown>): void
  admin(): AdminClient
  /** The corner panel: its rows scroll, its buttons name their order, it keeps fewer requests. */
  compact: boolean
  /** What has focus in the panel's root (a shadow root's own). */
  focused(): Element | null
  unsaved?: string | undefined
}
