import { SUPPORTED_PROTOCOL_VERSIONS, type HandshakeT } from '../../protocol/messages.js';
import { AdapterCrashed, AdapterNotImplemented, AdapterProtocolError, AdapterSkipped, AdapterTimeout } from '../../protocol/errors.js';
import type { AdapterRpc } from '../../suites/kit/types.js';
import { packageVersion } from '../../spec/package-root.js';
import { EngineError } from './errors.js';

/** Why an adapter could not be brought up; the CLI reports it on one line and exits 3. */
export class HandshakeError extends EngineError {
  constructor(code: string, message: string) {
    super('adapter', code, message);
    this.name = 'HandshakeError';
  }
}

/**
 * Version negotiation: the runner offers every protocol version it speaks; the adapter answers
 * with one of them or with UNSUPPORTED_PROTOCOL_VERSION. Anything else is a failed handshake.
 */
export async function handshake(rpc: AdapterRpc, stderrTail?: () => string): Promise<HandshakeT> {
  const offered = [...SUPPORTED_PROTOCOL_VERSIONS];
  const hint = (): string => {
    const last = stderrTail?.().trim().split('\n').pop()?.trim();
    return last ? ` (adapter stderr: ${last.slice(0, 200)})` : '';
  };
  let result: HandshakeT;
  try {
    result = await rpc.call('initialize', { protocol_versions: offered, runner: { name: 'oap-conform', version: packageVersion() } });
  } catch (err) {
    if (err instanceof AdapterProtocolError && err.code === 'rpc.UNSUPPORTED_PROTOCOL_VERSION') {
      throw new HandshakeError(
        'unsupported-protocol-version',
        `adapter supports none of the offered protocol versions ${offered.join(', ')}: ${err.message}`,
      );
    }
    if (err instanceof AdapterCrashed)
      throw new HandshakeError('adapter-crashed', `adapter did not complete the handshake: ${err.message}${hint()}`);
    if (err instanceof AdapterTimeout)
      throw new HandshakeError('handshake-timeout', `adapter did not answer initialize: ${err.message}${hint()}`);
    if (err instanceof AdapterNotImplemented || err instanceof AdapterSkipped)
      throw new HandshakeError('handshake-failed', `adapter declined initialize: ${err.message}`);
    if (err instanceof AdapterProtocolError) throw new HandshakeError('handshake-failed', `initialize failed: ${err.message}${hint()}`);
    throw err;
  }
  if (!offered.includes(result.protocol_version as (typeof offered)[number])) {
    throw new HandshakeError(
      'unsupported-protocol-version',
      `adapter chose protocol version ${result.protocol_version}, which was not offered (${offered.join(', ')})`,
    );
  }
  return result;
}
