import { RPC_ERROR } from '../../protocol/messages.js';
import { AdapterNotImplemented, AdapterProtocolError, AdapterSkipped } from '../../protocol/errors.js';

const NAMES = new Map<number, string>(Object.entries(RPC_ERROR).map(([name, code]) => [code, name]));

function rpcErrorName(code: number): string {
  return NAMES.get(code) ?? String(code);
}

/**
 * The typed error for a JSON-RPC error response. Declines (NOT_IMPLEMENTED, METHOD_NOT_FOUND,
 * SKIPPED) become skips with the adapter's reason; every other error code is the adapter failing
 * to answer, a protocol error attributed to the case (`error`, never `pass`).
 */
export function errorFromRpc(
  method: string,
  error: { code: number; message: string; data?: { reason?: string | undefined } | undefined },
): Error {
  const reason = error.data?.reason ?? error.message;
  switch (error.code) {
    case RPC_ERROR.NOT_IMPLEMENTED:
    case RPC_ERROR.METHOD_NOT_FOUND:
      return new AdapterNotImplemented(method, reason || 'not implemented');
    case RPC_ERROR.SKIPPED:
      return new AdapterSkipped(method, reason || 'no reason given');
    default:
      return new AdapterProtocolError(
        `rpc.${rpcErrorName(error.code)}`,
        `${method} answered with error ${error.code} ${rpcErrorName(error.code)}: ${oneLine(error.message)}`,
      );
  }
}

export function oneLine(s: string, max = 300): string {
  const flat = s.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
