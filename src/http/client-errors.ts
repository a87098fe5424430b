// Errors Fastify or Node answer before any route runs (bad URL, long parameter, broken HTTP), as catalogue problems.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { KumoError } from '../errors.js';
import { newId } from '../accounts/ids.js';
import { problemBody, problemContentType } from './problem.js';

/** What the router reports through Fastify's `frameworkErrors` (it never reaches setErrorHandler). */
export function frameworkKumoError(error: { code?: string }): KumoError {
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new KumoError('uri_too_long', 'a path segment is longer than any valid value');
    case 'FST_ERR_BAD_URL':
      return new KumoError('invalid_request', 'the request path is not a valid URL (bad percent-encoding)', {
        body: { field: 'path' },
      });
    case undefined:
    default:
      return new KumoError('internal', 'an internal error occurred');
  }
}

/** Node's parser and timeout failures: the connection carries no request Fastify could answer. */
export function clientKumoError(error: { code?: string }): KumoError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new KumoError('headers_too_large', 'the request line and headers are over the server limit');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new KumoError('request_timeout', 'the request did not arrive in time');
    case undefined:
    default:
      // HPE_INVALID_CONTENT_LENGTH, HPE_UNEXPECTED_CONTENT_LENGTH, HPE_INVALID_METHOD, a bad request line …
      return new KumoError('invalid_request', 'the request is not valid HTTP/1.1 (request line or headers)', {
        body: { field: 'http' },
      });
  }
}

/**
 * Replaces Fastify's default clientErrorHandler, which answers plain JSON without an id. Written to the socket by
 * hand because no request object exists yet; then the socket is closed (its stream position is unknown).
 */
export function clientErrorHandler(log: Logger) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const kumo = clientKumoError(error);
    const requestId = newId('req');
    log.info({ request_id: requestId, code: kumo.code, error_code: error.code ?? null }, 'client error');
    refuseOnSocket(socket, kumo, requestId);
  };
}

/** Writes a problem answer straight to a socket that has no Fastify request, then closes it. */
export function refuseOnSocket(socket: Socket, kumo: KumoError, requestId: string): void {
  // A response already under way on this socket (keep-alive) must not get bytes spliced into it, as in Node.
  const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inProgress?.headersSent) {
    const problem = problemBody(kumo, requestId);
    const body = JSON.stringify(problem);
    socket.write(
      `HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
        `Content-Type: ${problemContentType}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}
