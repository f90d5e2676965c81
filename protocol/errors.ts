/**
 * The wire outcomes of one adapter call other than a result: the adapter declined, broke the
 * protocol, crashed or did not answer in time. The transport (stdio or in-process) raises them, the
 * SDKs raise AdapterDecline, and the case runner turns each into its own status. They are part of
 * the contract, so they live here and import nothing.
 */
export class AdapterNotImplemented extends Error {
  constructor(
    readonly method: string,
    readonly reason = 'not implemented',
  ) {
    super(`${method}: ${reason}`);
    this.name = 'AdapterNotImplemented';
  }
}

export class AdapterSkipped extends Error {
  constructor(
    readonly method: string,
    readonly reason: string,
  ) {
    super(`${method}: skipped: ${reason}`);
    this.name = 'AdapterSkipped';
  }
}

export class AdapterProtocolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly pointer = '',
  ) {
    super(message);
    this.name = 'AdapterProtocolError';
  }
}

export class AdapterCrashed extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly signal: string | null,
  ) {
    super(message);
    this.name = 'AdapterCrashed';
  }
}

export class AdapterTimeout extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method}: no answer within ${timeoutMs} ms`);
    this.name = 'AdapterTimeout';
  }
}

const DECLINE_BRAND = Symbol.for('oap-conform.AdapterDecline');

/**
 * Thrown inside an in-process adapter to decline an operation; the stdio SDKs map it to RPC errors.
 * Recognised by a registry-wide symbol rather than by class identity: an adapter module may load
 * another installed copy of oap-conform than the runner's, and its declines must still be declines.
 */
export class AdapterDecline extends Error {
  readonly [DECLINE_BRAND] = true;

  constructor(
    readonly kind: 'not-implemented' | 'skipped',
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'AdapterDecline';
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DECLINE_BRAND] === true;
  }
}
