import pg from 'pg'

export interface NotificationsOptions {
  connectionString: string
  channels: readonly string[]
  onNotification: (channel: string, payload: string) => void
  /** Called after every (re)connection that LISTENs again: notifications may have been missed meanwhile. */
  onListening: () => void
  /** First and longest wait before connecting again after the connection dropped (ms). */
  reconnectDelay?: { min: number; max: number }
}

/**
 * One dedicated connection (not from the pool: a pooled client would be handed out and its
 * LISTEN lost) that LISTENs on a few channels. When it drops (server restart, network, an
 * administrator's pg_terminate_backend), it connects again with exponential backoff, forever,
 * until closed; `listening` is false meanwhile, so the store knows it may be missing changes.
 */
export class Notifications {
  private client: pg.Client | undefined
  private closed = false
  private delay: number
  private timer: NodeJS.Timeout | undefined
  listening = false

  constructor(private readonly options: NotificationsOptions) {
    this.delay = this.reconnectDelay.min
  }

  private get reconnectDelay(): { min: number; max: number } {
    return this.options.reconnectDelay ?? { min: 50, max: 5_000 }
  }

  /** Connects the first time: a failure here is the caller's (the store does not open). */
  async start(): Promise<void> {
    await this.connect()
  }

  /** The server process id of the listening connection, while connected (for tests and diagnostics). */
  get processId(): number | undefined {
    return this.listening ? (this.client as unknown as { processID?: number } | undefined)?.processID : undefined
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      application_name: 'voicedesk-listener',
    })
    let dropped = false
    const drop = () => {
      if (dropped) return
      dropped = true
      if (this.client === client) {
        this.client = undefined
        this.listening = false
      }
      client.removeAllListeners('notification')
      void client.end().catch(() => {})
      this.scheduleReconnect()
    }
    client.on('error', drop)
    client.on('end', drop)
    client.on('notification', (message) => this.options.onNotification(message.channel, message.payload ?? ''))
    try {
      await client.connect()
      for (const channel of this.options.channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    } catch (error) {
      dropped = true
      client.removeAllListeners()
      client.on('error', () => {})
      void client.end().catch(() => {})
      throw error
    }
    if (this.closed) {
      dropped = true
      await client.end().catch(() => {})
      return
    }
    this.client = client
    this.listening = true
    this.delay = this.reconnectDelay.min
    this.options.onListening()
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return
    const wait = this.delay
    this.delay = Math.min(this.delay * 2, this.reconnectDelay.max)
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.connect().catch(() => this.scheduleReconnect())
    }, wait)
    this.timer.unref()
  }

  async close(): Promise<void> {
    this.closed = true
    this.listening = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    const client = this.client
    this.client = undefined
    if (client) {
      client.removeAllListeners('end')
      client.removeAllListeners('error')
      client.on('error', () => {})
      await client.end().catch(() => {})
    }
  }
}
